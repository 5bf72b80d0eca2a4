/**
 * The platform database's one typed schema: every store, its key, its records and its indexes'
 * keys (the stores' key paths are in `platform-catalogue.ts`). Indexes are chosen so that each
 * read costs what it returns: a lobby's newest messages are one `getAll` over a key range,
 * whatever the lobby holds.
 */
import type { ReadTransaction, StoreName } from './port';
import type { LogWriteTransaction, Storage } from './storage';
import type { ClockState } from './records/clock';
import type { FaultsState, RateLimitSettings } from './records/faults';
import type { EventRecord } from './records/events';
import type { RequestRecord } from './records/requests';
import type { GuildSettingsRecord } from './records/guild-settings';
import type {
  ActivityJoinRecord,
  ClientDeviceRecord,
  ActivityInstanceRecord,
  EphemeralAttachmentRecord,
  ProxyTicketRecord,
  QuestRecord,
} from './records/activities';

export type { EventAudience, EventRecord } from './records/events';
import type {
  ApplicationRecord,
  ChannelRecord,
  GuildRecord,
  LobbyMemberRecord,
  LobbyMessageRecord,
  LobbyRecord,
  MemberRecord,
  RoleConnectionRecord,
  RoleRecord,
  UserRecord,
} from './records/core';
import type { PresenceRecord, SessionPresence } from './records/presence';
import type { EventWebhooksRecord, WebhookDeliveryRecord, WebhookSinkRecord } from './records/webhooks';
import type { RelationshipRecord } from './records/relationships';
import type { DmChannelRecord, StoredDmMessage } from './records/direct-messages';
import type { GroupDmChannelRecord, StoredGroupDmMessage } from './records/group-dms';
import type {
  AuditLogEntryRecord,
  EmojiImageRecord,
  EmojiRecord,
  GuildBanRecord,
  InviteRecord,
  ScheduledEventRecord,
  ScheduledEventUserRecord,
  VoiceStateRecord,
} from './records/guilds';
import type {
  AttachmentFileRecord,
  AutoModKeywordsRecord,
  ChannelMessageRecord,
  ForwardCounterRecord,
  MessageReactionRecord,
  PollVoteRecord,
  SearchIndexRecord,
} from './records/messages';
import type { EntitlementRecord, SkuRecord, SubscriptionRecord } from './records/monetization';
import type { DmVoiceStateRecord, LobbyVoiceStateRecord, VoiceTokenRecord } from './records/voice';
import type { ApplicationCommandRecord, CommandPermissionsRecord } from './records/commands';
import type { ThreadMemberRecord } from './records/threads';
import type { InteractionEndpointRecord, InteractionMessageRecord, InteractionRecord } from './records/interactions';
import type { ChannelWebhookRecord } from './records/channel-webhooks';

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
  /**
   * How a token that did not come from the consent step was issued: a provisional account's
   * token (by OpenID Connect, another external identity, or the bot token endpoint) or a child
   * application's token exchanged from its publisher's. Absent for ordinary OAuth2 tokens.
   */
  origin?: 'provisional_oidc' | 'provisional_external' | 'provisional_bot' | 'child';
  /** For a child token: the publisher (parent) application whose token it was exchanged from. */
  parent_application_id?: string;
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
  /** The authorize request's OpenID Connect `nonce`, echoed in the code's ID token (absent in older records). */
  nonce?: string | null;
}

/** A lobby message as stored: `order_key` sorts newest first within the lobby. */
export interface StoredLobbyMessage extends LobbyMessageRecord {
  order_key: string;
}

/**
 * A gateway session, persisted so that Resume works after the shared worker was restarted.
 * No token is stored (only its hash): a Resume re-authenticates its token and must name the
 * same user and application.
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
  /**
   * The last sequence number sent to the client, as of the record's last write (Identify,
   * Resume, a change of its hidden channels). Every later dispatch has its resume point in
   * `gateway_resume_batches`, which is what Resume reads.
   */
  seq: number;
  /** The event log position the session had considered everything up to, as of the same write. */
  log_seq: number;
  /** Channels delivered obfuscated, so that gaining view dispatches the full channel. */
  hidden_channel_ids: string[];
  created_at: number;
  /**
   * The SHA-256 of the token the session was identified (or last resumed) with, as the
   * `tokens` store (Bearer) or the application's `bot_token_hash` (bot) keys it: once that
   * credential is deleted the session ends and cannot be resumed. Absent on sessions stored
   * before it was recorded.
   */
  token_hash?: string;
  /** The presence the session set (Identify's `presence`, Presence Update), kept for a Resume. */
  presence?: SessionPresence;
}

/**
 * A resume point of a gateway session: replaying the log after `after`, skipping the first
 * `skip` dispatches derived from the event after it, continues right after dispatch `s`. Stored
 * in `gateway_resume_batches`; the `gateway_resume_marks` store (one record per dispatch,
 * versions 15 to 18) is no longer written.
 */
export interface GatewayResumeMark {
  session_id: string;
  s: number;
  after: number;
  skip: number;
  /**
   * For a session that obfuscates channels: the channels it had been sent obfuscated at this
   * point, so that a Resume from here reveals again what the replayed events reveal.
   */
  hidden?: string[];
}

/** One session's resume points in a {@link GatewayResumeBatch}: those its batch numbered. */
export interface GatewayResumePart {
  session_id: string;
  /**
   * The oldest point the session may still resume from as of this batch (its client has
   * acknowledged everything before it by a heartbeat).
   */
  from: number;
  /** Its points, by increasing `s`. */
  points: Omit<GatewayResumeMark, 'session_id'>[];
}

/**
 * The resume points of every session one write of the gateway numbered (a batch of events, an
 * Identify, a request's answers): one record, so that storing them costs one put however many
 * sessions a message goes to. `keys` indexes some parts by `[session_id, its first s]` (the
 * session's anchors); a part left out of it lies in one of the start's batches `n + 1` to
 * `n + GATEWAY_RESUME_ANCHOR_EVERY - 1` after the session's anchor (`by_start_batch`).
 */
export interface GatewayResumeBatch {
  id?: number;
  parts: GatewayResumePart[];
  keys: [string, number][];
  /** The start of the gateway that wrote it (absent before version 21, when every part had a key). */
  start?: string;
  /** Its place among that start's batches: 1, 2, 3... */
  n?: number;
}

/** When a requester last asked for all members of a guild (platform clock, epoch ms). */
export interface GatewayRateLimitRecord {
  /**
   * Whose bucket (`allMembersRequester`): the application id for its bot, and
   * `<application_id>:<user_id>` for a user's Bearer session. The name is the store's key path
   * from when only bots had buckets.
   */
  application_id: string;
  guild_id: string;
  at: number;
}

/**
 * An external identity (an OIDC subject, a game's own account id...) linked to one user of one
 * application: a provisional account, or the full account it was merged into.
 */
export interface ExternalIdentityRecord {
  application_id: string;
  /** Who vouches for it: `bot` for the bot token endpoint, else `<external_auth_type> <issuer>`. */
  provider: string;
  /** Its id at the provider: the ID token's `sub`, or the bot endpoint's `external_user_id`. */
  subject: string;
  user_id: string;
  /** The external auth type it was last authenticated with (`OIDC`, `DISCORD_BOT_ISSUED_ACCESS_TOKEN`...). */
  auth_type: string;
  /** When a ban replaced the link: the banned account. Merges are refused while its ban holds. */
  banned_user_id: string | null;
  /** A provisional account that replaced a banned account's link is restricted cross-platform. */
  restricted_cross_platform: boolean;
  created_at: number;
}

/** An application's identity provider for one external auth type (the developer portal's "External Auth"). */
export interface IdentityProviderConfigRecord {
  application_id: string;
  auth_type: string;
  issuer: string;
  audience: string;
  /**
   * Configured (or edited) under the stricter issuer hostname checks, with redirects blocked.
   * False only for integrations configured before those checks: unaffected until edited.
   */
  strict: boolean;
  updated_at: number;
}

/** A test identity provider the sandbox runs itself, with its signing key. */
export interface SandboxIdentityProviderRecord {
  id: string;
  issuer: string;
  /** The `aud` its ID tokens carry unless asked otherwise. */
  audience: string;
  alg: 'RS256' | 'ES256';
  kid: string;
  /** Sandbox-only test key material: the private key as a JWK, so any worker can sign. */
  private_jwk: JsonWebKey;
  public_jwk: JsonWebKey;
  created_at: number;
}

/** A platform ban of a user. */
export interface BanRecord {
  user_id: string;
  /** A permanent ban is never lifted. */
  permanent: boolean;
  created_at: number;
}

/** A connection of a user's account to another service. */
export interface ConnectionRecord {
  user_id: string;
  /** The account's id at the connected service. */
  id: string;
  type: string;
  name: string;
  verified: boolean;
  /** 0 only the user sees it, 1 everyone does. */
  visibility: 0 | 1;
  /** Made before the platform stopped returning new game-publisher connections. */
  legacy: boolean;
  created_at: number;
}

/** An approved publisher (parent) / game (child) application pair for child token exchange. */
export interface ApplicationLinkRecord {
  parent_application_id: string;
  child_application_id: string;
  approved_at: number;
}

/**
 * A fixture set: a named JSON value a tool keeps in the sandbox (the ids of the world it seeded),
 * so that every browser and program joining the sandbox finds the same world. A reset empties it.
 */
export interface FixtureSetRecord {
  name: string;
  value: Record<string, unknown>;
  updated_at: number;
}

/** Key/value entries of the `meta` store. */
export interface MetaValues {
  clock: ClockState;
  /**
   * The next process id to hand out, and the last millisecond any context has reserved for its
   * snowflakes (`high_water`); `floor` is what records written before reservations kept.
   */
  snowflake: { next_process: number; high_water?: number; floor?: number };
  /** The platform's own OpenID Connect signing key (`oidc-provider.ts`). */
  oidc_signing_key: PlatformSigningKeyRecord;
  /** Faults injected through the sandbox control API (`platform/faults`); a reset forgets them. */
  faults: FaultsState;
  /** The sandbox's HTTP rate-limit setting; absent: the host's default. A reset forgets it. */
  rate_limits: RateLimitSettings;
}

/**
 * The key the platform signs its ID tokens with. The private key is a non-extractable
 * WebCrypto key stored as it is (IndexedDB keeps a CryptoKey), like the webhook signing keys:
 * once stored it can sign and nothing else.
 */
export interface PlatformSigningKeyRecord {
  kid: string;
  alg: 'RS256';
  private_key: CryptoKey;
  public_jwk: JsonWebKey;
  created_at: number;
}

/** The platform database. */
export type PlatformDB = {
  meta: { key: keyof MetaValues; value: MetaValues[keyof MetaValues] };
  users: { key: string; value: UserRecord; indexes: { by_username: string } };
  applications: { key: string; value: ApplicationRecord; indexes: { by_bot_token: string; by_bot_user: string } };
  tokens: { key: string; value: TokenRecord; indexes: { by_user: string; by_application_user: [string, string] } };
  auth_codes: { key: string; value: AuthCodeRecord; indexes: { by_application_user: [string, string] } };
  guilds: { key: string; value: GuildRecord };
  roles: { key: string; value: RoleRecord; indexes: { by_guild: string } };
  channels: { key: string; value: ChannelRecord; indexes: { by_guild: string } };
  members: { key: [string, string]; value: MemberRecord; indexes: { by_user: string } };
  lobbies: {
    key: string;
    value: LobbyRecord;
    indexes: { by_secret: [string, string]; by_idle_deadline: number; by_linked_channel: string };
  };
  lobby_members: {
    key: [string, string];
    value: LobbyMemberRecord;
    indexes: { by_user_application: [string, string] };
  };
  lobby_messages: { key: [string, string]; value: StoredLobbyMessage };
  events: { key: number; value: EventRecord };
  gateway_sessions: { key: string; value: GatewaySessionRecord };
  gateway_resume_marks: { key: [string, number]; value: GatewayResumeMark };
  gateway_resume_batches: {
    key: number;
    value: GatewayResumeBatch;
    indexes: { by_session_point: [string, number]; by_start_batch: [string, number] };
  };
  gateway_rate_limits: { key: [string, string]; value: GatewayRateLimitRecord };
  presences: { key: string; value: PresenceRecord };
  external_identities: { key: [string, string, string]; value: ExternalIdentityRecord; indexes: { by_user: string } };
  identity_provider_configs: { key: [string, string]; value: IdentityProviderConfigRecord };
  sandbox_identity_providers: { key: string; value: SandboxIdentityProviderRecord; indexes: { by_issuer: string } };
  bans: { key: string; value: BanRecord };
  connections: { key: [string, string]; value: ConnectionRecord };
  application_links: { key: [string, string]; value: ApplicationLinkRecord; indexes: { by_child: string } };
  event_webhooks: { key: string; value: EventWebhooksRecord };
  webhook_deliveries: {
    key: string;
    value: WebhookDeliveryRecord;
    indexes: { by_event: [number, string]; by_next_attempt: number };
  };
  /** The outbox's position in the event log (one entry, key `cursor`). */
  webhook_outbox: { key: 'cursor'; value: { seq: number } };
  webhook_sinks: { key: string; value: WebhookSinkRecord };
  /** One side of a relationship; `application_id` is '' for the platform-wide one. */
  relationships: {
    key: [string, string, string];
    value: RelationshipRecord;
    indexes: { by_pair: [string, string]; by_type: [string, string, number] };
  };
  dm_channels: { key: string; value: DmChannelRecord; indexes: { by_pair: [string, string]; by_recipient: string } };
  dm_messages: { key: [string, string]; value: StoredDmMessage };
  /** Group DMs, by member and by creating application (its active group DMs are counted). */
  group_dm_channels: {
    key: string;
    value: GroupDmChannelRecord;
    indexes: { by_member: string; by_application: string };
  };
  /** Keyed `[channel_id, order_key]`: newest first within a group DM. */
  group_dm_messages: { key: [string, string]; value: StoredGroupDmMessage };
  invites: { key: string; value: InviteRecord; indexes: { by_channel: string; by_guild: string } };
  /** Application emoji (`by_application`) and guild emoji (`by_guild`) in one store. */
  emojis: {
    key: string;
    value: EmojiRecord;
    indexes: { by_application: string; by_guild: string; by_application_name: [string, string] };
  };
  /** Each emoji's image (a data URI), apart so that listing emoji reads no image. */
  emoji_images: { key: string; value: EmojiImageRecord };
  /** Guild bans, keyed `[guild_id, user_id]`: a guild's bans are one key range. */
  guild_bans: { key: [string, string]; value: GuildBanRecord };
  guild_scheduled_events: { key: string; value: ScheduledEventRecord; indexes: { by_guild: string } };
  /** A user's role connection to an application, keyed `[application_id, user_id]`. */
  role_connections: { key: [string, string]; value: RoleConnectionRecord };
  /** Keyed `[application_id, guild_id, command_id]`: an application's command permissions in a guild are one range. */
  application_command_permissions: { key: [string, string, string]; value: CommandPermissionsRecord };
  /** Keyed `[event id, padded user id]`: an event's users in id order; `by_guild_user` finds a leaver's. */
  guild_scheduled_event_users: {
    key: [string, string];
    value: ScheduledEventUserRecord;
    indexes: { by_guild_user: [string, string] };
  };
  voice_states: { key: [string, string]; value: VoiceStateRecord; indexes: { by_channel: string } };
  /** Keyed `[guild_id, order_key]`: a guild's newest entries are one bounded `getAll`. */
  audit_log_entries: {
    key: [string, string];
    value: AuditLogEntryRecord;
    indexes: { by_guild_action: [string, number, string] };
  };
  /** Keyed `[channel_id, order_key]`: a channel's newest messages are one bounded `getAll`. */
  channel_messages: {
    key: [string, string];
    value: ChannelMessageRecord;
    indexes: {
      by_guild: [string, string];
      by_author: [string, string, string];
      by_nonce: [string, string, string];
      by_pin: [string, string];
    };
  };
  /** Keyed `[channel_id, message_id, emoji_key, type, user_key]`: one emoji's users in id order. */
  message_reactions: { key: [string, string, string, string, string]; value: MessageReactionRecord };
  /** Keyed `[channel_id, message_id, answer_key, user_key]`: one answer's voters in id order. */
  poll_votes: { key: [string, string, string, string]; value: PollVoteRecord };
  attachment_files: { key: string; value: AttachmentFileRecord };
  message_search_indexes: { key: string; value: SearchIndexRecord };
  automod_keywords: { key: string; value: AutoModKeywordsRecord };
  forward_counters: { key: string; value: ForwardCounterRecord };
  skus: { key: string; value: SkuRecord; indexes: { by_application: string } };
  /** Indexed by `order_key` (the padded id) per application, user and guild: creation order. */
  entitlements: {
    key: string;
    value: EntitlementRecord;
    indexes: {
      by_application: [string, string];
      by_user: [string, string, string];
      by_guild: [string, string, string];
    };
  };
  /** `by_due` holds only ongoing subscriptions (inactive ones have a null `due_at`). */
  subscriptions: { key: string; value: SubscriptionRecord; indexes: { by_user: [string, string]; by_due: number } };
  quest_enrollments: { key: [string, string]; value: QuestEnrollmentRecord };
  privileged_intent_applications: { key: string; value: PrivilegedIntentApplicationRecord };
  /** Keyed `[server_id, user_id]`; `by_token` finds the record of a voice Identify's token hash. */
  voice_tokens: { key: [string, string]; value: VoiceTokenRecord; indexes: { by_token: string } };
  /** Keyed `[application_id, user_id]`: one lobby call per user and application. */
  lobby_voice_states: { key: [string, string]; value: LobbyVoiceStateRecord; indexes: { by_lobby: string } };
  /** Keyed `[application_id, user_id]`: one DM call per user and application; `by_channel` tells who is in a call. */
  dm_voice_states: { key: [string, string]; value: DmVoiceStateRecord; indexes: { by_channel: string } };
  fixture_sets: { key: string; value: FixtureSetRecord };
  /** `by_scope` lists an app's global (scope '') or guild commands; `by_name` keeps names unique per type and scope. */
  application_commands: {
    key: string;
    value: ApplicationCommandRecord;
    indexes: { by_scope: [string, string]; by_name: [string, string, number, string] };
  };
  /** `by_token` finds an interaction by its token's hash; `by_user` the modals a user was shown. */
  interactions: { key: string; value: InteractionRecord; indexes: { by_token: string; by_user: [string, string] } };
  /** Messages interactions created in DM contexts. */
  interaction_messages: { key: string; value: InteractionMessageRecord };
  interaction_endpoints: { key: string; value: InteractionEndpointRecord };
  /** Requests that committed a write, by fingerprint or Idempotency-Key (`by_at` for pruning). */
  request_records: { key: string; value: RequestRecord; indexes: { by_at: number } };
  /** Quests by application (`by_application`), for GET_QUEST. */
  quests: { key: string; value: QuestRecord; indexes: { by_application: string } };
  /** Keyed `[user_id, application_id]`: the latest join an activity has not heard of yet. */
  activity_joins: { key: [string, string]; value: ActivityJoinRecord };
  client_devices: { key: string; value: ClientDeviceRecord };
  /** Keyed by the ticket's hash; `by_user_application` finds a user's tickets of an application. */
  proxy_tickets: { key: string; value: ProxyTicketRecord; indexes: { by_user_application: [string, string] } };
  ephemeral_attachments: { key: string; value: EphemeralAttachmentRecord };
  /** Running activity instances by id; `by_application_channel` finds the one of a channel. */
  activity_instances: {
    key: string;
    value: ActivityInstanceRecord;
    indexes: { by_application_channel: [string, string] };
  };
  /** A guild's widget, welcome screen, onboarding and incident actions, by guild id. */
  guild_settings: { key: string; value: GuildSettingsRecord };
  /** Keyed `[thread_id, user_id]`: a thread's members in user id order; `by_user` a user's threads. */
  thread_members: { key: [string, string]; value: ThreadMemberRecord; indexes: { by_user: string } };
  /** Incoming webhooks by id; `by_channel` and `by_guild` list them. */
  channel_webhooks: { key: string; value: ChannelWebhookRecord; indexes: { by_channel: string; by_guild: string } };
};

/** A user's enrollment in a quest of an application. */
export interface QuestEnrollmentRecord {
  quest_id: string;
  user_id: string;
  application_id: string;
  quest_name: string;
  enrolled_at: number;
  /** When the activity started the quest's timer (QUEST_START_TIMER), or absent. */
  timer_started_at?: number;
}

/** An application's latest privileged intents application and the sandbox's decision. */
export interface PrivilegedIntentApplicationRecord {
  application_id: string;
  applied_at: number;
  decision: 'approved' | 'denied';
}

/** The name of a store of the platform database. */
export type PlatformStoreName = StoreName<PlatformDB>;

/** The platform database, over whichever engine the host has. */
export type PlatformStorage = Storage<PlatformDB, 'events', EventRecord>;

/** A read-only transaction over some of the platform's stores. */
export type ReadTx<N extends PlatformStoreName = PlatformStoreName> = ReadTransaction<PlatformDB, N>;

/** A read-write transaction over some of the platform's stores (and the event log). */
export type WriteTx<N extends PlatformStoreName = PlatformStoreName> = LogWriteTransaction<PlatformDB, N, EventRecord>;
