/**
 * The SDK's typed results: the platform's wire objects (lobbies, members, messages, users,
 * channels) as the HTTP API and the gateway answer them, and the token and authorization
 * results of the account operations.
 */
import type { Channel, Lobby, LobbyMember, Message, Metadata, User } from '../store/records/core';
import type { PresenceActivity, RichPresenceInput } from '../wire/rich-presence';

export type { Lobby, LobbyMember, Message as LobbyMessage, Metadata, User };

/** A guild channel as `GET /guilds/{guild.id}/channels` answers it. */
export type GuildChannel = Channel;

/**
 * How a token is presented, as the platform SDK's `AuthorizationTokenType` numbers it. Both
 * travel as `Authorization: Bearer <token>` here: `User` is the legacy name of the same thing.
 */
export const AuthorizationTokenType = {
  User: 0,
  Bearer: 1,
} as const;

/** One of {@link AuthorizationTokenType}. */
export type AuthorizationTokenType = (typeof AuthorizationTokenType)[keyof typeof AuthorizationTokenType];

/** Tokens from the token endpoint (`getToken`, `refreshToken`, provisional and child tokens). */
export interface TokenResult {
  accessToken: string;
  /** Null when the grant gives none (provisional tokens without OIDC, child tokens). */
  refreshToken: string | null;
  tokenType: AuthorizationTokenType;
  /** Seconds until the access token expires. */
  expiresIn: number;
  /** Space-separated granted scopes. */
  scopes: string;
  /**
   * The OpenID Connect ID token, when `openid` was granted through `authorize` + `getToken`:
   * for the game's backend, which verifies it with the platform's key set and checks its
   * `nonce` against the one set in AuthorizationArgs.
   */
  idToken?: string;
}

/** What `authorize` answers: the code for `getToken`, and the redirect URI it was bound to. */
export interface AuthorizeResult {
  code: string;
  redirectUri: string;
  /** The state sent (generated when the arguments left it unset) and checked on the answer. */
  state: string;
}

/** Which field of the activity is the user's status text, as the platform's public API numbers it. */
export const StatusDisplayType = {
  Name: 0,
  State: 1,
  Details: 2,
} as const;

/** One of {@link StatusDisplayType}. */
export type StatusDisplayType = (typeof StatusDisplayType)[keyof typeof StatusDisplayType];

/** Activity types a game may set: Playing, Listening, Watching, Competing. */
export const ActivityType = {
  Playing: 0,
  Listening: 2,
  Watching: 3,
  Competing: 5,
} as const;

/** One of {@link ActivityType}. */
export type ActivityType = (typeof ActivityType)[keyof typeof ActivityType];

/**
 * A rich presence activity (spec: Activity record). `state_url`, `details_url`,
 * `assets.large_url` and `assets.small_url` are the links of the state text, details text and
 * the two images; `status_display_type` picks the field (name, state or details) that becomes
 * the user's status text. The name is the application's.
 */
export type RichPresenceActivity = RichPresenceInput;

/** The activity as the platform stored it. */
export type StoredActivity = PresenceActivity;

/** The consent the host platform client asks for (what `<pp-consent-dialog>` shows). */
export interface ConsentRequest {
  application: { id: string; name: string };
  scopes: string[];
  user?: { id: string; username: string };
}

/** Asks the user; resolves true for "Authorize", false for "Cancel". */
export type ConsentFunction = (request: ConsentRequest) => Promise<boolean>;
