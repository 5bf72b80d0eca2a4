/**
 * Direct messages between two users: the DM channel of a pair (type 1, created by its first
 * message) and its messages, stored like lobby messages so that the newest N are one bounded
 * read whatever the conversation holds.
 */
import type { Metadata, Snowflake, User } from './core';
import type { StoredReaction } from './messages';

/** The DM channel of two users; `user_low` / `user_high` are the pair in snowflake order. */
export interface DmChannelRecord {
  id: Snowflake;
  user_low: Snowflake;
  user_high: Snowflake;
  /** Both users, for the by-user index (multiEntry). */
  recipient_ids: [Snowflake, Snowflake];
  last_message_id: Snowflake | null;
  created_at: number;
}

/** A direct message as stored: `order_key` sorts newest first within the channel. */
export interface StoredDmMessage {
  id: Snowflake;
  order_key: string;
  channel_id: Snowflake;
  author_id: Snowflake;
  recipient_id: Snowflake;
  /** The application (game) it was sent from: moderation metadata is the business of that application only. */
  application_id: Snowflake;
  content: string;
  metadata: Metadata | null;
  /** Set by the application's server (moderation-metadata endpoint); null until then. */
  moderation_metadata: Metadata | null;
  /** The message's reactions, one per emoji in first-added order (absent when none). */
  reactions?: StoredReaction[];
  created_at: number;
}

/** A DM channel on the wire: `recipients` are the users other than the viewer. */
export interface DmChannel {
  id: Snowflake;
  type: 1;
  last_message_id: Snowflake | null;
  flags: 0;
  recipients: User[];
}
