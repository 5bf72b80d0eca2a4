/**
 * Group DMs (channel type 3) an application's bot creates with users' OAuth2 tokens (the
 * `gdm.join` scope), and their messages, stored like the DMs' so that the newest N are one
 * bounded read.
 */
import type { Snowflake, User } from './core';

/** A group DM as stored; its members are the owner (the creating application's bot) and the users added. */
export interface GroupDmChannelRecord {
  id: Snowflake;
  /** The application whose bot created it (never null for a group DM). */
  application_id: Snowflake;
  /** The creator: the application's bot user. */
  owner_id: Snowflake;
  name: string | null;
  /** The icon's hash, and the data URI it was uploaded as. */
  icon: string | null;
  icon_data: string | null;
  /** Every member, the owner first, for the by-member index (multiEntry). */
  member_ids: Snowflake[];
  /** Nicknames given to members when they were added, by user id. */
  nicks: Record<Snowflake, string>;
  last_message_id: Snowflake | null;
  created_at: number;
}

/** A message of a group DM as stored: `order_key` sorts newest first within the channel. */
export interface StoredGroupDmMessage {
  id: Snowflake;
  order_key: string;
  channel_id: Snowflake;
  author_id: Snowflake;
  /** The application whose token or bot sent it. */
  application_id: Snowflake;
  content: string;
  nonce?: string | number;
  created_at: number;
}

/** A group DM on the wire: `recipients` are the members other than the viewer. */
export interface GroupDmChannel {
  id: Snowflake;
  type: 3;
  last_message_id: Snowflake | null;
  flags: 0;
  recipients: User[];
  name: string | null;
  icon: string | null;
  owner_id: Snowflake;
  application_id: Snowflake;
  managed: true;
}
