/**
 * Forwarding: a message whose `message_reference.type` is FORWARD gets a snapshot of the
 * referenced message (minimal, without a guild field; immutable). The sender must be able to
 * read that message's content: VIEW_CHANNEL and READ_MESSAGE_HISTORY in its channel and, for
 * an application's bot, the MESSAGE_CONTENT intent (or its own message, or one mentioning it);
 * otherwise 400 160014. The snapshot's files are copied, so they outlive the original.
 * Forwards are rate limited per user by count and by forwarded attachment bytes in a window of
 * the platform clock (values in limits.ts; the spec does not show them).
 */
import type { WriteTx } from '../../store/write';
import { attachmentPath } from './attachments';
import { ApiError } from '../core/errors';
import { FORWARD_ATTACHMENT_BYTES_PER_WINDOW_MAX, FORWARD_WINDOW_MS, FORWARDS_PER_WINDOW_MAX } from '../core/limits';
import { canReadContent, canReadHistory, loadChannelAccess, type ContentReader } from './access';
import {
  MESSAGE_TYPES,
  type AttachmentFileRecord,
  type MessageReference,
  type SnapshotMessage,
  type WireAttachment,
} from '../../store/records/messages';
import type { MessageReferenceInput } from './schemas';
import { loadUsers, snapshotOf } from './wire';
import { messageOrderKey } from './keys';

/** Message types that can be forwarded (basic messages only). */
const FORWARDABLE_TYPES: readonly number[] = [
  MESSAGE_TYPES.DEFAULT,
  MESSAGE_TYPES.REPLY,
  MESSAGE_TYPES.CHAT_INPUT_COMMAND,
  MESSAGE_TYPES.CONTEXT_MENU_COMMAND,
];

/** The 400 for a reference to a message that does not exist (or is not in the named channel). */
export function unknownReference(): ApiError {
  return ApiError.invalidForm({
    message_reference: { code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' },
  });
}

/** A forward ready to store: its reference, its snapshot and the copied files. */
export interface PreparedForward {
  reference: MessageReference;
  snapshot: SnapshotMessage;
  files: AttachmentFileRecord[];
  bytes: number;
}

/**
 * Reads and checks the forwarded message in the caller's transaction and snapshots it for the
 * new message `messageId` in `channelId`.
 */
export async function prepareForward(
  tx: WriteTx,
  input: {
    reference: MessageReferenceInput;
    reader: ContentReader;
    channelId: string;
    messageId: string;
    newId: () => string;
    origin: string;
  },
): Promise<PreparedForward> {
  const sourceChannelId = input.reference.channel_id!;
  const channel = await tx.store('channels').get(sourceChannelId);
  if (!channel?.guild_id) throw unknownReference();
  const access = await loadChannelAccess(tx, sourceChannelId, input.reader.userId);
  if (!access.view.member || !canReadHistory(access)) throw ApiError.of('CANNOT_FORWARD_UNREADABLE');
  const source = await tx.store('channel_messages').get([sourceChannelId, messageOrderKey(input.reference.message_id)]);
  if (!source) throw unknownReference();
  if (!canReadContent(input.reader, source)) throw ApiError.of('CANNOT_FORWARD_UNREADABLE');
  if (!FORWARDABLE_TYPES.includes(source.type) || source.poll) {
    throw ApiError.invalidForm({
      message_reference: {
        code: 'MESSAGE_REFERENCE_CANNOT_FORWARD',
        message: 'Only basic messages without a poll can be forwarded.',
      },
    });
  }
  const snapshot = structuredClone(snapshotOf(source, await loadUsers(tx, source.mention_ids)));
  const files: AttachmentFileRecord[] = [];
  const copies = new Map<string, WireAttachment>();
  for (const attachment of snapshot.attachments) {
    const file = await tx.store('attachment_files').get(attachment.id);
    if (!file) continue;
    const id = input.newId();
    const url = input.origin + attachmentPath(input.channelId, id, attachment.filename);
    files.push({ ...file, id, channel_id: input.channelId, message_id: input.messageId });
    copies.set(attachment.id, { ...attachment, id, url, proxy_url: url });
  }
  snapshot.attachments = snapshot.attachments.map((a) => copies.get(a.id) ?? a);
  snapshot.components = remapMedia(snapshot.components, copies) as unknown[];
  return {
    reference: { type: 1, message_id: source.id, channel_id: source.channel_id, guild_id: source.guild_id },
    snapshot,
    files,
    bytes: files.reduce((n, f) => n + f.size, 0),
  };
}

/** Points resolved media of the snapshot's components at the copied files. */
function remapMedia(value: unknown, copies: ReadonlyMap<string, WireAttachment>): unknown {
  if (Array.isArray(value)) return value.map((v) => remapMedia(v, copies));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = remapMedia(v, copies);
  const copy = typeof out.attachment_id === 'string' ? copies.get(out.attachment_id) : undefined;
  return copy ? { ...out, url: copy.url, proxy_url: copy.url, attachment_id: copy.id } : out;
}

/**
 * Counts a forward of `bytes` attachment bytes by `userId`: past the count or the bytes of the
 * current window, 429 with the seconds until the window ends.
 */
export async function countForward(tx: WriteTx, userId: string, bytes: number, now: number): Promise<void> {
  const store = tx.store('forward_counters');
  const current = await store.get(userId);
  const counter =
    current && now < current.window_start + FORWARD_WINDOW_MS
      ? current
      : { user_id: userId, window_start: now, count: 0, bytes: 0 };
  if (counter.count + 1 > FORWARDS_PER_WINDOW_MAX || counter.bytes + bytes > FORWARD_ATTACHMENT_BYTES_PER_WINDOW_MAX) {
    throw ApiError.rateLimited('RATE_LIMITED', (counter.window_start + FORWARD_WINDOW_MS - now) / 1000);
  }
  await store.put({ ...counter, count: counter.count + 1, bytes: counter.bytes + bytes });
}
