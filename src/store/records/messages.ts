/**
 * Messages of guild channels as stored and on the wire, and the stored forms that go with
 * them: attachment files, guild search indexes, AutoMod keyword rules and forward counters.
 * Type declarations only; the operations live in `messages/create.ts` and its neighbours.
 */
import type { MessageReactionResponse, MessageResponse } from 'discord-api-spec';
import type { Snowflake, User } from './core';

/** Message types the platform creates (the platform's public values). */
export const MESSAGE_TYPES = { DEFAULT: 0, REPLY: 19, CHAT_INPUT_COMMAND: 20, CONTEXT_MENU_COMMAND: 23 } as const;

/** Message flags (the platform's public bit values). */
export const CHANNEL_MESSAGE_FLAGS = {
  /** Set by the platform once a message of an announcement channel was crossposted. */
  CROSSPOSTED: 1 << 0,
  SUPPRESS_EMBEDS: 1 << 2,
  EPHEMERAL: 1 << 6,
  SUPPRESS_NOTIFICATIONS: 1 << 12,
  IS_VOICE_MESSAGE: 1 << 13,
  /** Set by the platform on a forward: the message carries a snapshot. */
  HAS_SNAPSHOT: 1 << 14,
  IS_COMPONENTS_V2: 1 << 15,
} as const;

/** Message reference types: a reply (DEFAULT) or a FORWARD, which snapshots the message. */
export const MESSAGE_REFERENCE_TYPES = { DEFAULT: 0, FORWARD: 1 } as const;

/** An embed as stored and answered (`type` is always `rich` for embeds sent through the API). */
export interface Embed {
  type: 'rich';
  title?: string;
  description?: string;
  url?: string;
  timestamp?: string;
  color?: number;
  footer?: { text: string; icon_url?: string };
  image?: { url: string };
  thumbnail?: { url: string };
  author?: { name: string; url?: string; icon_url?: string };
  fields?: { name: string; value: string; inline?: boolean }[];
}

/** A component as stored: validated JSON, with every `id` assigned. */
export type StoredComponent = { type: number; id: number } & Record<string, unknown>;

/** An attachment of a message (the file itself is in the `attachments` store). */
export interface AttachmentMeta {
  id: Snowflake;
  filename: string;
  title?: string;
  description?: string;
  content_type: string;
  size: number;
  /** Where the service worker serves the file (same origin). */
  url: string;
  /** Marked a spoiler by the request's `is_spoiler` (the `SPOILER_` filename prefix also marks one). */
  is_spoiler: boolean;
  duration_secs?: number;
  waveform?: string;
}

/** An attachment on the wire: `flags` carries IS_SPOILER (1 << 3). */
export interface WireAttachment {
  id: Snowflake;
  filename: string;
  title?: string;
  description?: string;
  content_type: string;
  size: number;
  url: string;
  proxy_url: string;
  flags: number;
  duration_secs?: number;
  waveform?: string;
}

/** The stored file of an attachment, served at its `url`. */
export interface AttachmentFileRecord {
  id: Snowflake;
  channel_id: Snowflake;
  message_id: Snowflake;
  filename: string;
  content_type: string;
  size: number;
  data: Blob;
}

/**
 * `message.interaction_metadata`: present on messages created by an interaction response or
 * follow-up; its user is a nested user object (there is no `user_id`). Set by the interactions
 * code; stored and answered as given.
 */
export interface InteractionMetadata {
  id: Snowflake;
  type: number;
  user: User;
  authorizing_integration_owners: Record<string, Snowflake>;
  original_response_message_id?: Snowflake;
  target_user?: User;
  target_message_id?: Snowflake;
  interacted_message_id?: Snowflake;
  triggering_interaction_metadata?: Omit<InteractionMetadata, 'triggering_interaction_metadata'>;
}

/** A message reference as stored and answered. */
export interface MessageReference {
  type: 0 | 1;
  message_id: Snowflake;
  channel_id: Snowflake;
  guild_id?: Snowflake;
}

/** The minimal message a forward keeps (no author, no guild field). */
export interface SnapshotMessage {
  type: number;
  content: string;
  embeds: Embed[];
  attachments: WireAttachment[];
  timestamp: string;
  edited_timestamp: string | null;
  flags: number;
  mentions: User[];
  mention_roles: Snowflake[];
  stickers: never[];
  sticker_items: never[];
  components: unknown[];
}

/**
 * A poll as stored with its message. Users vote through a sandbox control (the platform's client
 * route for it is not public); each vote is a `poll_votes` record, and the poll keeps the count
 * per answer id. `ended_at` is set when its author ended it early.
 */
export interface StoredPoll {
  question: { text: string };
  answers: { answer_id: number; poll_media: { text?: string; emoji?: { id?: string | null; name?: string | null } } }[];
  expiry: string;
  allow_multiselect: boolean;
  layout_type: number;
  /** Votes per answer id (answers nobody voted for are absent). */
  vote_counts?: Record<string, number>;
  ended_at?: number;
}

/**
 * One user's vote for one answer of a poll, keyed `[channel_id, message_id, answer_key, user_key]`
 * (both zero-padded) so that an answer's voters are one bounded read in user id order.
 */
export interface PollVoteRecord {
  channel_id: Snowflake;
  message_id: Snowflake;
  answer_key: string;
  user_key: string;
  answer_id: number;
  user_id: Snowflake;
  created_at: number;
}

/** A reaction's emoji as the message object and the reaction events carry it: a unicode emoji has a null id. */
export interface ReactionEmoji {
  id: Snowflake | null;
  name: string;
  animated?: boolean;
}

/**
 * One emoji's reaction on a message, as the message record keeps it: the counts of normal and
 * burst (super) reactions; who reacted is in the `message_reactions` store.
 */
export interface StoredReaction {
  /** The emoji's identity: the unicode emoji itself, or the custom emoji's id. */
  key: string;
  emoji: ReactionEmoji;
  normal: number;
  burst: number;
  burst_colors: string[];
}

/**
 * One user's reaction on a message (guild channel or DM), keyed
 * `[channel_id, message_id, emoji_key, type, user_key]` so that the users of one emoji are one
 * bounded read in user id order (`user_key` is the zero-padded user id, `type` "0" normal or "1"
 * burst).
 */
export interface MessageReactionRecord {
  channel_id: Snowflake;
  message_id: Snowflake;
  emoji_key: string;
  type: '0' | '1';
  user_key: string;
  user_id: Snowflake;
  created_at: number;
}

/** A message of a guild channel as stored: `order_key` sorts newest first within the channel. */
export interface ChannelMessageRecord {
  id: Snowflake;
  order_key: string;
  channel_id: Snowflake;
  guild_id: Snowflake;
  author_id: Snowflake;
  /** The application of a bot author or of the interaction that created it. */
  application_id: Snowflake | null;
  webhook_id: Snowflake | null;
  /** A webhook's message: its author as sent (the webhook, under the execution's name); absent otherwise. */
  webhook_author?: User;
  type: number;
  content: string;
  embeds: Embed[];
  components: StoredComponent[];
  attachments: AttachmentMeta[];
  flags: number;
  tts: boolean;
  mention_ids: Snowflake[];
  mention_roles: Snowflake[];
  mention_everyone: boolean;
  /** As sent; `nonce_key` indexes it for `enforce_nonce`. Absent when none was sent. */
  nonce?: string | number;
  nonce_key?: string;
  message_reference?: MessageReference;
  message_snapshots?: { message: SnapshotMessage }[];
  interaction_metadata?: InteractionMetadata;
  poll?: StoredPoll;
  /** The message's reactions, one per emoji in the order each was first added (absent when none). */
  reactions?: StoredReaction[];
  /** Set while pinned: when, and the key of the channel's pins index (newest pin first). */
  pinned_at?: number;
  pin_key?: string;
  edited_at: number | null;
  created_at: number;
}

/** The message object of a guild channel message: the fields the official `MessageResponse` requires, with their types. */
export interface ChannelMessage
  extends Pick<
    MessageResponse,
    | 'id'
    | 'channel_id'
    | 'content'
    | 'timestamp'
    | 'edited_timestamp'
    | 'tts'
    | 'mention_everyone'
    | 'mention_roles'
    | 'pinned'
    | 'flags'
  > {
  type: number;
  author: User;
  mentions: User[];
  attachments: WireAttachment[];
  embeds: Embed[];
  components: unknown[];
  nonce?: string | number;
  application_id?: Snowflake;
  webhook_id?: Snowflake;
  message_reference?: MessageReference;
  message_snapshots?: { message: SnapshotMessage }[];
  referenced_message?: ChannelMessage | null;
  interaction_metadata?: InteractionMetadata;
  poll?: unknown;
  reactions?: MessageReactionResponse[];
}

/** When a guild's message search index is ready (sandbox-forced or a fixed time after its first message). */
export interface SearchIndexRecord {
  guild_id: Snowflake;
  ready_at: number;
}

/** A guild's AutoMod keyword rule: messages containing one of the keywords are blocked. */
export interface AutoModKeywordsRecord {
  guild_id: Snowflake;
  keywords: string[];
  updated_at: number;
}

/** Forwards a user sent in the current window, and the attachment bytes they carried. */
export interface ForwardCounterRecord {
  user_id: Snowflake;
  window_start: number;
  count: number;
  bytes: number;
}
