/**
 * Stored records of what the platform's client does for an activity beyond the public API:
 * quests (sandbox records, since the platform's quests are made by its own staff), activity
 * joins waiting for the activity to hear of them, each user's simulated device, proxy tickets,
 * the images an activity had the user upload, and the running activity instances.
 */
import type { Snowflake } from './core';

/** A quest an application takes part in (created through the sandbox control API). */
export interface QuestRecord {
  id: Snowflake;
  application_id: Snowflake;
  name: string;
  /** Where the quest's call to action leads (GET_QUEST's `external_cta_url`). */
  external_cta_url: string;
  /** Seconds of play the quest asks for, counted from QUEST_START_TIMER. */
  play_seconds: number;
  /** When the quest stops being offered (epoch ms), or null for never. */
  expires_at: number | null;
  created_at: number;
}

/**
 * A join the user made (the Join button of someone's activity, or an accepted activity invite)
 * that the activity has not been told of yet: one per user and application, the latest.
 */
export interface ActivityJoinRecord {
  user_id: Snowflake;
  application_id: Snowflake;
  /** The join secret the activity gets (`secrets.join` of the activity joined; '' when it set none). */
  secret: string;
  /** Whose activity was joined (the inviter for an invite). */
  from_user_id: Snowflake;
  /** The invite accepted, or null for the Join button. */
  invite_code: string | null;
  created_at: number;
}

/** Thermal states of a device (THERMAL_STATE_UPDATE): nominal, fair, serious, critical. */
export type ThermalState = 0 | 1 | 2 | 3;

/** The simulated device a user runs the platform's client on: what a browser cannot sense. */
export interface ClientDeviceRecord {
  user_id: Snowflake;
  thermal_state: ThermalState;
  updated_at: number;
}

/** A proxy ticket of an activity's frame, stored as its SHA-256 only. */
export interface ProxyTicketRecord {
  ticket_hash: string;
  application_id: Snowflake;
  user_id: Snowflake;
  expires_at: number;
  created_at: number;
}

/** An image the user uploaded for an activity (INITIATE_IMAGE_UPLOAD), served at its ephemeral URL. */
export interface EphemeralAttachmentRecord {
  id: Snowflake;
  application_id: Snowflake;
  user_id: Snowflake;
  filename: string;
  content_type: string;
  size: number;
  data: Blob;
  created_at: number;
}

/** A user taking part in an activity instance, as the activity's RPC shows them. */
export interface InstanceParticipantRecord {
  id: Snowflake;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  bot: boolean;
  flags: number;
  premium_type: number | null;
  nickname?: string;
}

/** One activity frame in an instance: which user runs it, and which connection holds it. */
export interface InstanceMemberRecord {
  frame_id: string;
  /** The connection (a page's socket to the server, or the browser's hub) whose end removes the frame. */
  holder: string;
  user: InstanceParticipantRecord;
}

/**
 * A running activity instance: one per application and channel (or lobby), ended (deleted)
 * with its last frame. Its members are in join order.
 */
export interface ActivityInstanceRecord {
  instance_id: string;
  application_id: Snowflake;
  channel_id: Snowflake;
  guild_id: Snowflake | null;
  /** A snowflake minted when the instance started (the public API's `launch_id`). */
  launch_id: Snowflake;
  members: InstanceMemberRecord[];
  created_at: number;
}
