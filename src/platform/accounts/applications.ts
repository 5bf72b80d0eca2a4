/**
 * Applications on the wire, with the spec's field rules: `flags` is a 32-bit integer in which
 * only bits up to 2^30 are reliable; `flags_new` holds the full set as a decimal string.
 */
import type { ApplicationResponse } from 'discord-api-spec';
import type { ApplicationRecord, UserRecord } from '../../store/records/core';
import { relationshipsReadAvailable } from '../oauth2/consent-scopes';
import { serializeUser } from './users';

/** Bits 0-30: what the 32-bit `flags` field can carry reliably. */
const RELIABLE_FLAG_BITS = (1n << 31n) - 1n;

/** The application's flags as the wire carries them: the reliable 32 bits, and the full set as a string. */
export function wireApplicationFlags(app: ApplicationRecord): { flags: number; flags_new: string } {
  const all = BigInt(app.flags);
  return { flags: Number(all & RELIABLE_FLAG_BITS), flags_new: all.toString() };
}

/**
 * The application object: the official description's `ApplicationResponse`, with the fields the
 * platform adds for its owner (`owner_id`, `redirect_uris`, the install count). Its install
 * params hold the scopes the application stored, which are the description's install scopes.
 */
export type WireApplication = Omit<ApplicationResponse, 'integration_types_config'> &
  Pick<ApplicationRecord, 'owner_id' | 'redirect_uris' | 'integration_types_config' | 'approximate_user_install_count'>;

/**
 * The application object. `verifyKey` is the application's Ed25519 public key (hex), the one
 * its interactions and event webhooks are signed for (`ensureEventWebhooks`).
 * @example serializeApplication(app, (await ensureEventWebhooks(ctx, app.id)).verify_key, bot)
 */
export function serializeApplication(app: ApplicationRecord, verifyKey: string, bot?: UserRecord): WireApplication {
  return {
    id: app.id,
    name: app.name,
    description: app.description,
    icon: null,
    // The platform's application types name only old game-store kinds: an application has none.
    type: null,
    bot_public: app.bot_public,
    bot_require_code_grant: app.bot_require_code_grant,
    owner_id: app.owner_id,
    ...wireApplicationFlags(app),
    verify_key: verifyKey,
    redirect_uris: app.redirect_uris,
    integration_types_config: app.integration_types_config,
    approximate_user_install_count: app.approximate_user_install_count,
    ...(app.tags?.length ? { tags: app.tags } : {}),
    ...(app.custom_install_url ? { custom_install_url: app.custom_install_url } : {}),
    // Stored scopes are the description's install scopes (the schema takes no others).
    ...(app.install_params ? { install_params: app.install_params as WireApplication['install_params'] } : {}),
    ...(bot ? { bot: serializeUser(bot) } : {}),
  };
}

/** What the private application object adds, read from the store by the caller. */
export interface PrivateApplicationParts {
  bot: UserRecord;
  /** The owner's user, or null for an application the sandbox made without one. */
  owner: UserRecord | null;
  /** The application's public key (hex), the one interactions and event webhooks are signed for. */
  verifyKey: string;
  interactionsEndpointUrl: string | null;
  /** Guilds the bot is a member of. */
  guildCount: number;
  /** Users who hold a token of the application. */
  authorizationCount: number;
}

/** Bit 10 of a user's flags: the user stands for a team (a team-owned application's `owner`). */
const TEAM_PSEUDO_USER = 1 << 10;

/**
 * The owner as the private application object shows it. An application with no owning user is
 * shown as the platform shows a team-owned one: a pseudo-user with the TEAM_PSEUDO_USER flag
 * (here named after the application, as the sandbox has no teams).
 */
function applicationOwner(app: ApplicationRecord, owner: UserRecord | null) {
  if (owner) return serializeUser(owner);
  return {
    ...serializeUser({
      id: app.id,
      username: `team${app.id}`,
      global_name: null,
      discriminator: '0',
      avatar: null,
      bot: false,
      premium_type: 0,
      primary_guild: null,
      provisional: false,
      created_at: app.created_at,
    }),
    public_flags: TEAM_PSEUDO_USER,
    flags: TEAM_PSEUDO_USER,
  };
}

/**
 * The application object as its own bot reads it (`GET /applications/@me`,
 * `/oauth2/applications/@me`): the application object with the owner, the bot, the signing key
 * and the counts. `eligible_oauth2_scopes` lists the restricted scopes it may ask for now.
 * @example serializePrivateApplication(app, { bot, owner, verifyKey, interactionsEndpointUrl: null, guildCount: 1, authorizationCount: 2 })
 */
export function serializePrivateApplication(app: ApplicationRecord, parts: PrivateApplicationParts) {
  return {
    ...serializeApplication(app, parts.verifyKey, parts.bot),
    owner: applicationOwner(app, parts.owner),
    team: null,
    rpc_origins: [],
    interactions_endpoint_url: parts.interactionsEndpointUrl,
    role_connections_verification_url: app.role_connections_verification_url ?? null,
    approximate_guild_count: parts.guildCount,
    approximate_user_authorization_count: parts.authorizationCount,
    explicit_content_filter: 0,
    eligible_oauth2_scopes: relationshipsReadAvailable(app) ? ['relationships.read'] : [],
  };
}
