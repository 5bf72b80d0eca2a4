/**
 * The one typed IndexedDB schema (idb `DBSchema`): every store, key and index the platform
 * uses. Indexes are chosen so that each read costs what it returns: a lobby's newest messages
 * are one `getAll` over a key range, whatever the lobby holds.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import type { ClockState } from '../platform/clock';
import type {
  ApplicationRecord, ChannelRecord, GuildRecord, LobbyMemberRecord, LobbyMessageRecord, LobbyRecord,
  MemberRecord, RoleRecord, UserRecord,
} from '../platform/records';
import type { PresenceRecord } from '../platform/presence';

/** A stored OAuth2 or bot credential. The token itself is never stored: its SHA-256 is the key. */
export interface TokenRecord {
  hash: string;
  kind: 'access' | 'refresh';
  application_id: string;
  user_id: string;
  scopes: string[];
  /** Epoch ms after which the token is refused; null for tokens that do not expire. */
  expires_at: number | null;
  /** The hash of the other half of an access/refresh pair. */
  pair_hash: string | null;
  created_at: number;
  /**
   * Issued to a public client (an authorization code redeemed with PKCE and no client secret):
   * the pair may then be refreshed and revoked with the client id alone.
   */
  public_client?: boolean;
}

/** A single-use authorization code, bound to its client, redirect URI, scopes and PKCE challenge. */
export interface AuthCodeRecord {
  hash: string;
  application_id: string;
  user_id: string;
  scopes: string[];
  redirect_uri: string | null;
  code_challenge: string | null;
  code_challenge_method: 'S256' | 'plain' | null;
  expires_at: number;
}

/** Who may see an event: the gateway filters dispatches with it. */
export interface EventAudience {
  /** Users who receive it whatever their intents (lobby members, the user concerned). */
  user_ids?: string[];
  /** Guild events reach sessions whose user is in the guild and whose intents include `intent`. */
  guild_id?: string;
  intent?: number;
  /** Events that concern one application only (entitlements, lobby events of its lobbies). */
  application_id?: string;
}

/** One entry of the durable event log: appended in the same transaction as the change. */
export interface EventRecord {
  seq?: number;
  /** The gateway dispatch name (`LOBBY_MESSAGE_CREATE`) or webhook event type. */
  type: string;
  data: unknown;
  audience: EventAudience;
  /** Where it is delivered: the gateway, the webhook outbox, or both. */
  channels: ('gateway' | 'webhook')[];
  created_at: number;
}

/** A lobby message as stored: `order_key` sorts newest first within the lobby. */
export interface StoredLobbyMessage extends LobbyMessageRecord {
  order_key: string;
}

/**
 * A gateway session, persisted so that Resume works after the shared worker was restarted.
 * No token is stored: a Resume re-authenticates its token and must name the same user and
 * application.
 */
export interface GatewaySessionRecord {
  session_id: string;
  kind: 'bot' | 'bearer';
  user_id: string;
  application_id: string;
  intents: number;
  capabilities: number;
  /** `[shard_id, num_shards]` from Identify, or null. */
  shard: [number, number] | null;
  large_threshold: number;
  /** Whether guild events reach it: always for a bot, with the `guilds` scope for an OAuth2 token. */
  guild_events: boolean;
  /** Whether channels the bot cannot view arrive obfuscated (Identify capability or app setting). */
  obfuscation: boolean;
  /** The last sequence number sent to the client. */
  seq: number;
  /** The event log position the session has considered everything up to. */
  log_seq: number;
  /**
   * Resume points, oldest first: `[s, after, skip]` says that replaying the log after `after`,
   * skipping the first `skip` dispatches, continues right after dispatch `s`.
   */
  marks: [number, number, number][];
  /** Channels delivered obfuscated, so that gaining view dispatches the full channel. */
  hidden_channel_ids: string[];
  created_at: number;
}

/** When an application last requested all members of a guild (platform clock, epoch ms). */
export interface GatewayRateLimitRecord {
  application_id: string;
  guild_id: string;
  at: number;
}

/** Key/value entries of the `meta` store. */
export interface MetaValues {
  clock: ClockState;
  snowflake: { next_process: number; floor: number };
}

/** The platform database. */
export interface PlatformDB extends DBSchema {
  meta: { key: keyof MetaValues; value: MetaValues[keyof MetaValues] };
  users: { key: string; value: UserRecord };
  applications: { key: string; value: ApplicationRecord; indexes: { by_bot_token: string; by_bot_user: string } };
  tokens: { key: string; value: TokenRecord; indexes: { by_user: string; by_application_user: [string, string] } };
  auth_codes: { key: string; value: AuthCodeRecord; indexes: { by_application_user: [string, string] } };
  guilds: { key: string; value: GuildRecord };
  roles: { key: string; value: RoleRecord; indexes: { by_guild: string } };
  channels: { key: string; value: ChannelRecord; indexes: { by_guild: string } };
  members: { key: [string, string]; value: MemberRecord; indexes: { by_user: string } };
  lobbies: { key: string; value: LobbyRecord; indexes: { by_secret: [string, string]; by_idle_deadline: number } };
  lobby_members: {
    key: [string, string];
    value: LobbyMemberRecord;
    indexes: { by_user_application: [string, string] };
  };
  lobby_messages: { key: [string, string]; value: StoredLobbyMessage };
  events: { key: number; value: EventRecord };
  gateway_sessions: { key: string; value: GatewaySessionRecord };
  gateway_rate_limits: { key: [string, string]; value: GatewayRateLimitRecord };
  presences: { key: string; value: PresenceRecord };
}

/** An open platform database. */
export type PlatformDatabase = IDBPDatabase<PlatformDB>;

/** Every store, for transactions that touch all of them (reset). */
export const ALL_STORES = [
  'meta', 'users', 'applications', 'tokens', 'auth_codes', 'guilds', 'roles', 'channels', 'members',
  'lobbies', 'lobby_members', 'lobby_messages', 'events',
  'gateway_sessions', 'gateway_rate_limits',
  'presences',
] as const;
