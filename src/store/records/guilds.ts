/**
 * What the guild-level features store: invites (channel invites, lobby channel invites),
 * emoji (an application's own, and a guild's), scheduled events, voice states and audit log
 * entries. Snowflakes are decimal strings; times are epoch milliseconds by the platform clock.
 */
import type { Snowflake } from './core';

/** A guild invite to one channel. */
export interface InviteRecord {
  code: string;
  guild_id: Snowflake;
  channel_id: Snowflake;
  inviter_id: Snowflake;
  /** Seconds before it expires, 0 for never. */
  max_age: number;
  /** Uses before it is used up, 0 for unlimited. */
  max_uses: number;
  uses: number;
  temporary: boolean;
  /** When it stops working (created_at + max_age), or null for never. */
  expires_at: number | null;
  /** Users allowed to see and accept it (the target users file), or null for anyone. */
  target_user_ids: Snowflake[] | null;
  /** When the target users were last set (the job the job-status route reports on). */
  target_users_updated_at: number | null;
  /** Roles granted to whoever accepts it. */
  role_ids: Snowflake[];
  /** Set on the single-use invites made for a lobby's linked channel. */
  lobby_id: Snowflake | null;
  /** The application an activity invite invites to (target type EMBEDDED_APPLICATION); absent otherwise. */
  target_application_id?: Snowflake;
  /** An activity invite's join secret: the inviter's `secrets.join` when it was made ('' when none). */
  join_secret?: string;
  created_at: number;
}

/**
 * A custom emoji: an application's own (`application_id` set) or a guild's (`guild_id` set).
 * The other owner field is absent, so each index holds only its own kind.
 */
export interface EmojiRecord {
  id: Snowflake;
  application_id?: Snowflake;
  guild_id?: Snowflake;
  name: string;
  /** Roles allowed to use a guild emoji (empty: everyone). */
  roles: Snowflake[];
  /** Who uploaded it (the bot user when uploaded through the API). */
  user_id: Snowflake;
  animated: boolean;
  created_at: number;
}

/** An emoji's uploaded image as a data URI (the sandbox has no CDN: the image stays here). */
export interface EmojiImageRecord {
  emoji_id: Snowflake;
  data_uri: string;
}

/** A guild scheduled event. */
export interface ScheduledEventRecord {
  id: Snowflake;
  guild_id: Snowflake;
  channel_id: Snowflake | null;
  creator_id: Snowflake;
  name: string;
  description: string | null;
  scheduled_start_time: number;
  scheduled_end_time: number | null;
  /** 2 GUILD_ONLY: the only privacy level. */
  privacy_level: 2;
  /** 1 SCHEDULED, 2 ACTIVE, 3 COMPLETED, 4 CANCELED. */
  status: 1 | 2 | 3 | 4;
  /** 1 STAGE_INSTANCE, 2 VOICE, 3 EXTERNAL. */
  entity_type: 1 | 2 | 3;
  entity_metadata: { location: string } | null;
  created_at: number;
}

/**
 * A user interested in a scheduled event (the platform's RSVP), keyed `[event id, order_key]`
 * where `order_key` is the user id padded to 20 digits, so a page by user id is one bounded read.
 */
export interface ScheduledEventUserRecord {
  guild_scheduled_event_id: Snowflake;
  guild_id: Snowflake;
  user_id: Snowflake;
  order_key: string;
}

/** A user's voice connection in a guild (at most one per guild). */
export interface VoiceStateRecord {
  guild_id: Snowflake;
  user_id: Snowflake;
  channel_id: Snowflake;
  session_id: string;
  self_mute: boolean;
  self_deaf: boolean;
  self_video: boolean;
  suppress: boolean;
  request_to_speak_timestamp: number | null;
  joined_at: number;
}

/** One audit log entry; `order_key` sorts a guild's entries newest first. */
export interface AuditLogEntryRecord {
  id: Snowflake;
  guild_id: Snowflake;
  order_key: string;
  action_type: number;
  user_id: Snowflake | null;
  target_id: string | null;
  changes?: { key: string; old_value?: unknown; new_value?: unknown }[];
  options?: Record<string, string>;
  reason?: string;
  created_at: number;
}

/**
 * A user banned from a guild (the platform's guild ban, apart from the platform-wide account
 * bans of `bans`): keyed `[guild_id, user_id]`; `reason` is the audit log reason given.
 */
export interface GuildBanRecord {
  guild_id: Snowflake;
  user_id: Snowflake;
  reason: string | null;
  created_at: number;
}
