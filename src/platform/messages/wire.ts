/**
 * Messages of guild channels on the wire. With IS_COMPONENTS_V2 only the attachments a Media
 * Gallery, Thumbnail or File component exposes are shown, and `attachment://` media resolve to
 * the attachment. Without read access to the content (the MESSAGE_CONTENT rule) `content`,
 * `embeds`, `attachments` and `components` are empty and `poll` is left out.
 */
import { serializeAttachment } from './attachments';
import { serializeEmbed } from './embeds';
import { exposedAttachmentNames } from '../interactions/component-rules';
import { wireComponents } from './component-wire';
import { wireReactions } from './reaction-wire';
import { pollResults } from './poll-results';
import {
  CHANNEL_MESSAGE_FLAGS,
  type ChannelMessage,
  type ChannelMessageRecord,
  type SnapshotMessage,
  type StoredPoll,
} from '../../store/records/messages';
import type { MessageTx } from './access';
import type { User, UserRecord } from '../../store/records/core';
import { deletedUser, serializeUser } from '../accounts/users';

export type { ChannelMessage };

/** The users a message names (author and mentions), to load before serializing it. */
export function userIdsOf(records: readonly ChannelMessageRecord[]): string[] {
  return [...new Set(records.flatMap((r) => [r.author_id, ...r.mention_ids]))];
}

/** Loads users by id in the caller's transaction. */
export async function loadUsers(tx: MessageTx, ids: readonly string[]): Promise<Map<string, UserRecord>> {
  const users = await Promise.all(ids.map((id) => tx.store('users').get(id)));
  return new Map(ids.flatMap((id, i) => (users[i] ? [[id, users[i]!] as const] : [])));
}

/** The attachments and components as shown: V2 messages show only exposed attachments. */
function visibleParts(record: Pick<ChannelMessageRecord, 'flags' | 'attachments' | 'components'>) {
  const v2 = (record.flags & CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2) !== 0;
  const exposed = v2 ? exposedAttachmentNames(record.components) : null;
  const attachments = record.attachments
    .filter((a) => exposed === null || exposed.has(a.filename))
    .map(serializeAttachment);
  return { attachments, components: wireComponents(record.components, record.attachments) };
}

/**
 * The message object. `nonce` is only answered where the platform echoes it (the create
 * response and MESSAGE_CREATE); `referenced` is the replied-to message when known;
 * `myReactions` says which reactions are the reader's (`me`; none when not given), `myVotes`
 * which poll answers the reader voted for, and `now` when the poll's expiry is judged (a poll
 * ended early is finalized whatever `now`).
 * @example serializeChannelMessage(record, users, { includeNonce: true })
 */
export function serializeChannelMessage(
  record: ChannelMessageRecord,
  users: ReadonlyMap<string, UserRecord>,
  options: {
    includeNonce?: boolean;
    referenced?: ChannelMessage | null;
    myReactions?: ReadonlySet<string>;
    myVotes?: ReadonlySet<number>;
    now?: number;
  } = {},
): ChannelMessage {
  const user = (id: string) => {
    const u = users.get(id);
    return u ? serializeUser(u) : deletedUser(id);
  };
  const { attachments, components } = visibleParts(record);
  const message: ChannelMessage = {
    id: record.id,
    type: record.type,
    channel_id: record.channel_id,
    author: record.webhook_author ?? user(record.author_id),
    content: record.content,
    timestamp: new Date(record.created_at).toISOString(),
    edited_timestamp: record.edited_at === null ? null : new Date(record.edited_at).toISOString(),
    tts: record.tts,
    mention_everyone: record.mention_everyone,
    mentions: record.mention_ids.map(user),
    mention_roles: record.mention_roles,
    attachments,
    embeds: record.embeds.map(serializeEmbed),
    components,
    pinned: record.pinned_at !== undefined,
    flags: record.flags,
  };
  if (options.includeNonce && record.nonce !== undefined) message.nonce = record.nonce;
  if (record.application_id) message.application_id = record.application_id;
  if (record.webhook_id) message.webhook_id = record.webhook_id;
  if (record.message_reference) message.message_reference = record.message_reference;
  if (record.message_snapshots) message.message_snapshots = record.message_snapshots;
  if (options.referenced !== undefined) message.referenced_message = options.referenced;
  if (record.interaction_metadata) message.interaction_metadata = record.interaction_metadata;
  const reactions = wireReactions(record.reactions, options.myReactions);
  if (reactions) message.reactions = reactions;
  if (record.poll)
    message.poll = {
      ...wirePoll(record.poll),
      results: pollResults(record.poll, options.myVotes ?? new Set(), options.now ?? Number.NEGATIVE_INFINITY),
    };
  return message;
}

/** A poll as answered: an answer's emoji names both its id and its name (null for what it lacks). */
function wirePoll({ vote_counts: _counts, ended_at: _ended, ...poll }: StoredPoll): StoredPoll {
  const answers = poll.answers.map(({ answer_id, poll_media: { emoji, ...media } }) => ({
    answer_id,
    poll_media: emoji ? { ...media, emoji: { ...emoji, id: emoji.id ?? null, name: emoji.name ?? null } } : media,
  }));
  return { ...poll, answers };
}

/**
 * The minimal message a forward snapshots: no author, no guild field, taken now and never
 * updated. A forward of a forward snapshots the original (nesting depth 1).
 */
export function snapshotOf(record: ChannelMessageRecord, users: ReadonlyMap<string, UserRecord>): SnapshotMessage {
  if (record.message_snapshots?.[0]) return record.message_snapshots[0].message;
  const { attachments, components } = visibleParts(record);
  return {
    type: record.type,
    content: record.content,
    embeds: record.embeds.map(serializeEmbed),
    attachments,
    timestamp: new Date(record.created_at).toISOString(),
    edited_timestamp: record.edited_at === null ? null : new Date(record.edited_at).toISOString(),
    flags: record.flags & ~CHANNEL_MESSAGE_FLAGS.HAS_SNAPSHOT,
    mentions: record.mention_ids.flatMap((id) => (users.get(id) ? [serializeUser(users.get(id)!)] : [])),
    mention_roles: record.mention_roles,
    stickers: [],
    sticker_items: [],
    components,
  };
}

/** The message as an application without access to its content receives it. */
export function withoutContent<T extends ChannelMessage>(message: T): T {
  const { poll: _poll, ...rest } = message;
  const snapshots = message.message_snapshots?.map((s) => ({
    message: { ...s.message, content: '', embeds: [], attachments: [], components: [] },
  }));
  return {
    ...rest,
    content: '',
    embeds: [],
    attachments: [],
    components: [],
    ...(snapshots ? { message_snapshots: snapshots } : {}),
  } as unknown as T;
}
