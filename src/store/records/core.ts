/**
 * The records the platform stores and answers with. Stored forms (`*Record`) keep what the
 * platform needs; the API forms are what routes serialize. Field rules of the spec are noted
 * on the fields they govern. Snowflakes and bit sets are decimal strings.
 */
import type { GuildRoleResponse, MessageReactionResponse, UserResponse } from 'discord-api-spec';
import type { UrlMapping } from '../../wire/paths';
import type { ThreadMetadataRecord } from './threads';

/** Snowflake id, as a decimal string. */
export type Snowflake = string;
/** A metadata dictionary of a lobby or lobby member (at most 1000 characters in all). */
export type Metadata = Record<string, string>;

/** A user (human, bot or provisional account). */
export interface UserRecord {
  id: Snowflake;
  username: string;
  global_name: string | null;
  discriminator: '0';
  avatar: string | null;
  bot: boolean;
  /** Stored premium tier; the API answers 0 unless the app is approved for `identify.premium` and the user granted it. */
  premium_type: 0 | 1 | 2 | 3;
  /** Guild tag: a badge of 1 to 4 characters. */
  primary_guild: {
    identity_guild_id: Snowflake | null;
    identity_enabled: boolean;
    tag: string | null;
    badge: string | null;
  } | null;
  provisional: boolean;
  created_at: number;
  /**
   * User flags in the platform's public bit positions (`public_flags` and `flags` on the wire);
   * absent in records written before the field existed, which means 0.
   */
  flags?: number;
  /** The account's email address (answered with the `email` scope); absent or null: none. */
  email?: string | null;
  /** Whether the email address is verified; absent: verified when there is one. */
  verified?: boolean;
  /** The language the user chose in the client (`locale` of `/users/@me`); absent: `en-US`. */
  locale?: string;
  /** Whether two-factor authentication is on; absent: off. */
  mfa_enabled?: boolean;
  /** An uploaded avatar as a data URI (`avatar` holds its hash); absent: the CDN draws one. */
  avatar_data?: string | null;
  /** The profile banner's hash, and the uploaded image as a data URI; absent: none. */
  banner?: string | null;
  banner_data?: string | null;
}

/** Application flags in their public bit positions (CONTRACT §4). */
export const APPLICATION_FLAGS = {
  APPLICATION_AUTO_MODERATION_RULE_CREATE_BADGE: 1 << 6,
  GATEWAY_PRESENCE: 1 << 12,
  GATEWAY_PRESENCE_LIMITED: 1 << 13,
  GATEWAY_GUILD_MEMBERS: 1 << 14,
  GATEWAY_GUILD_MEMBERS_LIMITED: 1 << 15,
  VERIFICATION_PENDING_GUILD_LIMIT: 1 << 16,
  EMBEDDED: 1 << 17,
  GATEWAY_MESSAGE_CONTENT: 1 << 18,
  GATEWAY_MESSAGE_CONTENT_LIMITED: 1 << 19,
  APPLICATION_COMMAND_BADGE: 1 << 23,
} as const;

/** One role connection metadata record of an application (the platform's public shape). */
export interface RoleConnectionMetadataRecord {
  /** 1-4 integer comparisons, 5-6 datetime comparisons, 7-8 boolean equal / not equal. */
  type: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
  key: string;
  name: string;
  name_localizations?: Record<string, string> | null;
  description: string;
  description_localizations?: Record<string, string> | null;
}

/** A user's role connection to an application, keyed `[application_id, user_id]`. */
export interface RoleConnectionRecord {
  application_id: Snowflake;
  user_id: Snowflake;
  platform_name: string | null;
  platform_username: string | null;
  metadata: Record<string, string>;
}

/** Installation contexts: 0 guild install, 1 user install. */
export type IntegrationType = 0 | 1;

/** An application with its bot and secrets. */
export interface ApplicationRecord {
  id: Snowflake;
  name: string;
  description: string;
  owner_id: Snowflake | null;
  bot_user_id: Snowflake;
  bot_public: boolean;
  bot_require_code_grant: boolean;
  /**
   * Full flag set as a decimal string (`flags_new` on the wire). The wire's `flags` is a 32-bit
   * integer: only bits up to 2^30 are reliable there.
   */
  flags: string;
  /** SHA-256 of the bot token and of the client secret (hex); the secrets themselves are never stored. */
  bot_token_hash: string;
  client_secret_hash: string;
  redirect_uris: string[];
  /** Default scopes and permissions per supported installation context. */
  integration_types_config: Partial<
    Record<`${IntegrationType}`, { oauth2_install_params?: { scopes: string[]; permissions: string } }>
  >;
  /** Users who installed the app in the user context; answered as the approximate user install count. */
  approximate_user_install_count: number;
  /** Approvals the platform grants per application (sandbox-settable). */
  approvals: { identify_premium: boolean; sdk_terms_accepted: boolean; privileged_intents_approved: boolean };
  /** Whether the bot opted in to channel obfuscation in its settings. */
  channel_obfuscation: boolean;
  /** The activity proxy's URL mappings (`src/platform/activities/url-mappings.ts`); absent until set. */
  url_mappings?: UrlMapping[];
  /** Set by `PATCH /applications/@me`; absent: none. */
  tags?: string[];
  custom_install_url?: string | null;
  role_connections_verification_url?: string | null;
  install_params?: { scopes: string[]; permissions: string } | null;
  /** The application's role connection metadata records (at most 5); absent: none. */
  role_connections_metadata?: RoleConnectionMetadataRecord[];
  created_at: number;
}

/** A guild. */
export interface GuildRecord {
  id: Snowflake;
  name: string;
  icon: string | null;
  banner: string | null;
  owner_id: Snowflake;
  features: string[];
  created_at: number;
  /** Server boost level 0-3 (raises the upload limit from level 2); absent means 0. */
  premium_tier?: number;
  /** How many boosts the guild has (`premium_subscription_count`); absent means 0. */
  premium_subscription_count?: number;
  /** The icon and banner images set by Modify Guild, as data URIs (`icon` / `banner` hold their hashes). */
  icon_data?: string | null;
  banner_data?: string | null;
}

/** Gradient role colors; `color` on the role is deprecated but still returned and honored. */
export interface RoleColors {
  primary_color: number;
  secondary_color: number | null;
  tertiary_color: number | null;
}

/** A guild role. The @everyone role's id equals the guild's id. */
export interface RoleRecord {
  id: Snowflake;
  guild_id: Snowflake;
  name: string;
  permissions: string;
  position: number;
  color: number;
  colors: RoleColors;
  hoist: boolean;
  managed: boolean;
  mentionable: boolean;
  icon: string | null;
  unicode_emoji: string | null;
  /** Role flags (IN_PROMPT 1 << 0); absent in records written before the field existed, which means 0. */
  flags?: number;
}

/** Channel types the sandbox creates. */
export const CHANNEL_TYPES = {
  GUILD_TEXT: 0,
  DM: 1,
  GUILD_VOICE: 2,
  GROUP_DM: 3,
  GUILD_CATEGORY: 4,
  GUILD_ANNOUNCEMENT: 5,
  GUILD_STAGE_VOICE: 13,
  GUILD_FORUM: 15,
} as const;

/** Set on channels the bot cannot view (obfuscated). */
export const CHANNEL_OBFUSCATED = 1 << 17;
/** The name of an obfuscated channel. */
export const OBFUSCATED_CHANNEL_NAME = '___hidden___';

/** A permission overwrite as stored and serialized (bit sets as decimal strings). */
export interface OverwriteRecord {
  id: Snowflake;
  type: 0 | 1;
  allow: string;
  deny: string;
}

/** A guild channel (or DM). */
export interface ChannelRecord {
  id: Snowflake;
  type: number;
  guild_id: Snowflake | null;
  name: string | null;
  parent_id: Snowflake | null;
  position: number;
  flags: number;
  permission_overwrites: OverwriteRecord[];
  topic: string | null;
  /** Age-restricted; absent means false. */
  nsfw?: boolean;
  /** Optional and nullable; not null for group DMs. */
  application_id?: Snowflake | null;
  /** Slowmode: seconds a user waits between two messages (0-21600); absent means 0. */
  rate_limit_per_user?: number;
  /** Voice and stage channels: bits per second; absent means the default, 64000. */
  bitrate?: number;
  /** Voice and stage channels: how many users may be in it, 0 for no limit; absent means 0. */
  user_limit?: number;
  /** Ephemeral voice fields (Request Channel Info); never part of the channel object on the wire. */
  voice_status?: string | null;
  voice_start_time?: number | null;
  /** Threads (types 10-12): who started it, its metadata and counters (absent on other channels). */
  owner_id?: Snowflake;
  thread_metadata?: ThreadMetadataRecord;
  member_count?: number;
  message_count?: number;
  total_message_sent?: number;
  last_message_id?: Snowflake | null;
  /** Threads: the last activity (creation, a message, an unarchive), from which auto-archive counts (epoch ms). */
  thread_activity_at?: number;
}

/** The role object: the stored role without its guild (`color` is deprecated but still sent). */
export type Role = GuildRoleResponse;

/**
 * The channel object of a guild channel. The ephemeral voice fields (`status`,
 * `voice_start_time`) are never part of it: Request Channel Info answers them.
 */
export type Channel = Omit<
  ChannelRecord,
  'voice_status' | 'voice_start_time' | 'thread_metadata' | 'thread_activity_at'
> & { rtc_region?: string | null; thread_metadata?: ThreadMetadata };

/** A thread's metadata on the wire (times as ISO-8601). */
export interface ThreadMetadata {
  archived: boolean;
  auto_archive_duration: 60 | 1440 | 4320 | 10080;
  archive_timestamp: string;
  locked: boolean;
  invitable?: boolean;
  create_timestamp: string;
}

/** A guild member. */
export interface MemberRecord {
  guild_id: Snowflake;
  user_id: Snowflake;
  nick: string | null;
  roles: Snowflake[];
  joined_at: number;
  avatar: string | null;
  banner: string | null;
  bio: string | null;
  flags: number;
  /** Server mute and deafen (MUTE_MEMBERS / DEAFEN_MEMBERS); absent on members stored before they existed. */
  mute?: boolean;
  deaf?: boolean;
  /** When the member's timeout ends (epoch ms), or null / absent when not timed out. */
  communication_disabled_until?: number | null;
  /** Whether the member has yet to pass the guild's membership screening; absent: passed. */
  pending?: boolean;
  /** When the member started boosting the guild (epoch ms); absent or null: not boosting. */
  premium_since?: number | null;
  /** The member's own avatar and banner images as data URIs (`avatar` / `banner` hold their hashes). */
  avatar_data?: string | null;
  banner_data?: string | null;
}

/** A lobby. */
export interface LobbyRecord {
  id: Snowflake;
  application_id: Snowflake;
  /** The join secret, unique per application; null for lobbies created by a bot. */
  secret: string | null;
  metadata: Metadata | null;
  idle_timeout_seconds: number;
  /** When an empty lobby is removed (epoch ms): set when its last member leaves, null while it has members. */
  idle_deadline: number | null;
  linked_channel_id: Snowflake | null;
  member_count: number;
  created_at: number;
  /** Lobby flags (a bit set set at creation or by the bot); absent on lobbies stored before it existed. */
  flags?: number;
}

/** A lobby member. */
export interface LobbyMemberRecord {
  lobby_id: Snowflake;
  user_id: Snowflake;
  application_id: Snowflake;
  metadata: Metadata | null;
  flags: number;
  joined_at: number;
}

/** A message in a lobby. */
export interface LobbyMessageRecord {
  id: Snowflake;
  lobby_id: Snowflake;
  channel_id: Snowflake;
  author_id: Snowflake;
  application_id: Snowflake;
  content: string;
  metadata: Metadata | null;
  /** Set by the application's server through the moderation-metadata endpoint; absent until then. */
  moderation_metadata?: Metadata | null;
  created_at: number;
}

/** The lobby object on the wire. */
export interface Lobby {
  id: Snowflake;
  application_id: Snowflake;
  metadata: Metadata | null;
  members: LobbyMember[];
  /** The guild channel linked to the lobby, while one is. */
  linked_channel?: Channel;
  flags?: number;
}

/** A lobby member on the wire. */
export interface LobbyMember {
  id: Snowflake;
  metadata: Metadata | null;
  flags: number;
}

/**
 * The user object on the wire: the official description's `UserResponse` (every field it
 * requires), with `premium_type`, which the platform answers for the `identify.premium` scope.
 */
export type User = UserResponse & { premium_type?: number };

/** A message on the wire (the fields the platform sets so far). */
export interface Message {
  id: Snowflake;
  type: number;
  channel_id: Snowflake;
  lobby_id?: Snowflake;
  author: User;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  flags: number;
  metadata?: Metadata | null;
  application_id?: Snowflake;
  /** A direct message's recipient. */
  recipient_id?: Snowflake;
  /** What the application's server set with the moderation-metadata endpoints (only that application sees it). */
  moderation_metadata?: Metadata | null;
  /** A direct message's reactions, as the reader sees them (left out when there are none). */
  reactions?: MessageReactionResponse[];
}

/** Subscription statuses named by the spec. */
export const SUBSCRIPTION_STATUS = { ACTIVE: 0, ENDING: 2, INACTIVE: 1 } as const;
/** Entitlement types: subscription entitlements are PURCHASE (1), no longer APPLICATION_SUBSCRIPTION (8). */
export const ENTITLEMENT_TYPE = { PURCHASE: 1, APPLICATION_SUBSCRIPTION: 8 } as const;
/** Message flag for components V2. */
export const MESSAGE_FLAGS = { IS_COMPONENTS_V2: 1 << 15 } as const;
/** Attachment flag for spoilers. */
export const ATTACHMENT_FLAGS = { IS_SPOILER: 1 << 3 } as const;
/** Entry point command handlers. */
export const ENTRY_POINT_HANDLER = { APP_HANDLER: 1, PLATFORM_LAUNCH_ACTIVITY: 2 } as const;
/** Application command type of an entry point. */
export const APPLICATION_COMMAND_TYPE = { CHAT_INPUT: 1, USER: 2, MESSAGE: 3, PRIMARY_ENTRY_POINT: 4 } as const;
/** Interaction callback types the spec names. */
export const INTERACTION_CALLBACK_TYPE = { PREMIUM_REQUIRED: 10, LAUNCH_ACTIVITY: 12 } as const;
/** Audit log events the spec names. */
export const AUDIT_LOG_EVENT = { VOICE_CHANNEL_STATUS_UPDATE: 192, VOICE_CHANNEL_STATUS_DELETE: 193 } as const;
/** Audit log events of guild channels and their incoming webhooks (the platform's public values). */
export const CHANNEL_AUDIT_LOG_EVENT = {
  CHANNEL_CREATE: 10,
  CHANNEL_UPDATE: 11,
  CHANNEL_DELETE: 12,
  WEBHOOK_CREATE: 50,
  WEBHOOK_UPDATE: 51,
  WEBHOOK_DELETE: 52,
} as const;
