/**
 * Creating messages in guild channels: `createMessage` is the one way a message comes to be,
 * for `POST /channels/{id}/messages` and for the interactions code (responses and follow-ups,
 * which pass their own type, flags, `interaction_metadata` and upload context, and authorize
 * the call themselves). One transaction checks access, slowmode, `enforce_nonce`, AutoMod and
 * the reference, stores the message and its files, and logs MESSAGE_CREATE; if anything fails,
 * nothing is stored.
 */
import type { PlatformDB } from '../../store/schema';
import type { WriteTx } from '../../store/write';
import { write } from '../../store/write';
import { attachmentPath, planAttachments, uploadLimitFor, type UploadContext, type UploadedFile } from './attachments';
import { checkMessageComponents } from '../interactions/component-rules';
import type { PlatformContext } from '../core/context';
import { toStoredEmbed } from './embeds';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { MESSAGE_NONCE_WINDOW_MS } from '../core/limits';
import {
  MESSAGE_READ_STORES,
  bypassesSlowmode,
  loadChannelAccess,
  requireChannelPermissions,
  type ChannelAccess,
} from './access';
import { automodText, requireAutoModAllows } from './automod';
import { messageAudience, messageEventData } from './events';
import { countForward, prepareForward, unknownReference } from './forwards';
import { messageOrderKey } from './keys';
import { mentionText, resolveMentions } from './mentions';
import {
  CHANNEL_MESSAGE_FLAGS,
  MESSAGE_REFERENCE_TYPES,
  MESSAGE_TYPES,
  type ChannelMessageRecord,
  type InteractionMetadata,
  type MessageReference,
} from '../../store/records/messages';
import { CREATE_MESSAGE_FLAGS, type MessageCreateInput } from './schemas';
import { noteGuildMessage } from './search-index';
import { noteThreadMessage, sendPermissionFor } from '../threads/thread-messages';
import { checkFlags, checkCreateShape, toStoredPoll } from './shape';
import { loadUsers, serializeChannelMessage, userIdsOf, type ChannelMessage } from './wire';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { grantedPrivilegedIntents } from '../accounts/privileged-intents';
import type { ApplicationRecord, User, UserRecord } from '../../store/records/core';
import { keyRange } from '../../store/port';
import { type PlatformStoreName } from '../../store/schema';

/** Every store a message write touches (the event log is added by `write`). */
export const MESSAGE_WRITE_STORES: PlatformStoreName[] = [
  ...MESSAGE_READ_STORES,
  'attachment_files',
  'message_search_indexes',
  'automod_keywords',
  'forward_counters',
];

/** Who sends: a user or a bot user, and the application it acts through (null for none). */
export interface MessageAuthor {
  user: UserRecord;
  application: ApplicationRecord | null;
}

/** A message to create. */
export interface CreateMessageOptions {
  channelId: string;
  author: MessageAuthor;
  /** The validated body (`MessageCreateSchema`). */
  input: MessageCreateInput;
  files?: readonly UploadedFile[];
  /** Check the author's permissions in the channel (default true; interaction responses pass false). */
  checkPermissions?: boolean;
  /** Whose upload limit applies (default `message`). */
  uploadContext?: UploadContext;
  /** The origin attachment URLs start with (the service worker's; default '' for same-origin paths). */
  origin?: string;
  /** The flags the caller may set (default: those of the create route). */
  allowedFlags?: number;
  type?: number;
  applicationId?: string | null;
  webhookId?: string | null;
  /** An incoming webhook's message: the author it shows (the webhook is no stored user). */
  webhookAuthor?: User;
  interactionMetadata?: InteractionMetadata;
}

/** Whether the author's application may read message content (users always can). */
async function authorReadsContent(ctx: PlatformContext, author: MessageAuthor): Promise<boolean> {
  if (!author.user.bot || !author.application) return true;
  return ((await grantedPrivilegedIntents(ctx.db, author.application)) & INTENTS.MESSAGE_CONTENT) !== 0;
}

/** Throws 403 unless the author may send this message in the channel. */
function requireSendPermissions(access: ChannelAccess, input: MessageCreateInput, fileCount: number): void {
  let required = sendPermissionFor(access.channel);
  if (input.tts) required |= PERMISSIONS.SEND_TTS_MESSAGES;
  if (fileCount > 0) required |= PERMISSIONS.ATTACH_FILES;
  if (input.poll) required |= PERMISSIONS.SEND_POLLS;
  if (input.message_reference && input.message_reference.type !== MESSAGE_REFERENCE_TYPES.FORWARD)
    required |= PERMISSIONS.READ_MESSAGE_HISTORY;
  requireChannelPermissions(access, required);
}

/**
 * Slowmode: a user (bots are not affected) who sent a message in the channel less than
 * `rate_limit_per_user` seconds ago gets 429 20016, unless their permissions bypass it
 * (`bypassesSlowmode`, dated).
 */
async function checkSlowmode(tx: WriteTx, access: ChannelAccess, author: MessageAuthor, now: number): Promise<void> {
  const seconds = access.channel.rate_limit_per_user ?? 0;
  if (seconds <= 0 || author.user.bot || bypassesSlowmode(access.permissions, now)) return;
  const range = keyRange.bound([access.channel.id, author.user.id, ''], [access.channel.id, author.user.id, '\uffff']);
  const [last] = await tx.store('channel_messages').index('by_author').getAll(range, 1);
  const wait = last ? last.created_at + seconds * 1000 - now : 0;
  if (wait > 0) throw ApiError.rateLimited('SLOWMODE_RATE_LIMITED', wait / 1000);
}

/** The author's message with this nonce in the channel within the window, if any (`enforce_nonce`). */
async function findByNonce(
  tx: WriteTx,
  channelId: string,
  authorId: string,
  nonce: string,
  now: number,
): Promise<ChannelMessageRecord | undefined> {
  const matches = await tx.store('channel_messages').index('by_nonce').getAll([channelId, authorId, nonce]);
  return matches
    .filter((m) => m.created_at > now - MESSAGE_NONCE_WINDOW_MS)
    .sort((a, b) => b.created_at - a.created_at)[0];
}

/**
 * Creates a message in a guild channel and logs MESSAGE_CREATE. With `enforce_nonce` and a
 * nonce the author used in the channel within the last 2 minutes (platform clock), the earlier
 * message is answered instead and nothing is created or logged.
 * @example const message = await createMessage(ctx, { channelId, author: { user, application }, input: { content: 'hi' } });
 */
export async function createMessage(ctx: PlatformContext, options: CreateMessageOptions): Promise<ChannelMessage> {
  const { input, author, channelId } = options;
  const files = options.files ?? [];
  const flags = input.flags ?? 0;
  checkFlags(flags, options.allowedFlags ?? CREATE_MESSAGE_FLAGS);
  checkCreateShape(input, files.length);
  const check = options.checkPermissions ?? true;
  const forward = input.message_reference?.type === MESSAGE_REFERENCE_TYPES.FORWARD;
  const contentIntent = forward ? await authorReadsContent(ctx, author) : true;
  const origin = options.origin ?? '';
  return write(ctx, MESSAGE_WRITE_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadChannelAccess(tx, channelId, author.user.id);
    const guildId = access.view.guild.id;
    if (check) {
      requireSendPermissions(access, input, files.length);
      await checkSlowmode(tx, access, author, now);
    }
    const nonceKey = input.nonce === undefined || input.nonce === null ? undefined : String(input.nonce);
    if (input.enforce_nonce && nonceKey !== undefined) {
      const earlier = await findByNonce(tx, channelId, author.user.id, nonceKey, now);
      if (earlier)
        return serializeChannelMessage(earlier, await loadUsers(tx, userIdsOf([earlier])), { includeNonce: true });
    }
    const id = ctx.ids.next();
    await noteThreadMessage(tx, emit, access.channel, check ? access.permissions : null, id, now);
    const newId = () => ctx.ids.next();
    const limit = uploadLimitFor({
      context: options.uploadContext ?? 'message',
      now,
      premiumType: author.user.premium_type,
      boostTier: access.view.guild.premium_tier,
    });
    const plan = planAttachments({
      existing: [],
      requests: input.attachments ?? undefined,
      files,
      limit,
      newId,
      url: (aid, name) => origin + attachmentPath(channelId, aid, name),
    });
    const attachments = plan.added.map((a) => a.meta);
    const v2 = (flags & CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2) !== 0;
    const components = checkMessageComponents(input.components ?? [], { componentsV2: v2, attachments });
    const content = input.content ?? '';
    const embeds = (input.embeds ?? []).map(toStoredEmbed);
    const text = mentionText(content, components);
    await requireAutoModAllows(tx, guildId, automodText(content, text, embeds));

    let reference: MessageReference | undefined;
    let snapshots: ChannelMessageRecord['message_snapshots'];
    let replied: ChannelMessageRecord | undefined;
    const fileRecords = plan.added.map((a) => ({
      id: a.meta.id,
      channel_id: channelId,
      message_id: id,
      filename: a.meta.filename,
      content_type: a.meta.content_type,
      size: a.meta.size,
      data: a.data,
    }));
    if (input.message_reference && forward) {
      const prepared = await prepareForward(tx, {
        reference: input.message_reference,
        reader: { userId: author.user.id, contentIntent },
        channelId,
        messageId: id,
        newId,
        origin,
      });
      await countForward(tx, author.user.id, prepared.bytes, now);
      reference = prepared.reference;
      snapshots = [{ message: prepared.snapshot }];
      fileRecords.push(...prepared.files);
    } else if (input.message_reference) {
      const ref = input.message_reference;
      replied =
        ref.channel_id === undefined || ref.channel_id === channelId
          ? await tx.store('channel_messages').get([channelId, messageOrderKey(ref.message_id)])
          : undefined;
      if (!replied && ref.fail_if_not_exists) throw unknownReference();
      if (replied)
        reference = {
          type: MESSAGE_REFERENCE_TYPES.DEFAULT,
          message_id: replied.id,
          channel_id: channelId,
          guild_id: guildId,
        };
    }
    const mentions = await resolveMentions(tx, {
      text,
      allowed: input.allowed_mentions,
      guildId,
      roles: access.view.roles,
      repliedUserId: replied?.author_id,
      canMentionEveryone: !check || hasPermission(access.permissions, PERMISSIONS.MENTION_EVERYONE),
    });
    const record: ChannelMessageRecord = {
      id,
      order_key: messageOrderKey(id),
      channel_id: channelId,
      guild_id: guildId,
      author_id: author.user.id,
      application_id: options.applicationId ?? null,
      webhook_id: options.webhookId ?? null,
      ...(options.webhookAuthor ? { webhook_author: options.webhookAuthor } : {}),
      type: options.type ?? (replied ? MESSAGE_TYPES.REPLY : MESSAGE_TYPES.DEFAULT),
      content,
      embeds,
      components,
      attachments,
      flags: flags | (snapshots ? CHANNEL_MESSAGE_FLAGS.HAS_SNAPSHOT : 0),
      tts: input.tts ?? false,
      ...mentions,
      ...(nonceKey !== undefined ? { nonce: input.nonce!, nonce_key: nonceKey } : {}),
      ...(reference ? { message_reference: reference } : {}),
      ...(snapshots ? { message_snapshots: snapshots } : {}),
      ...(options.interactionMetadata ? { interaction_metadata: options.interactionMetadata } : {}),
      ...(input.poll ? { poll: toStoredPoll(input.poll, now) } : {}),
      edited_at: null,
      created_at: now,
    };
    await tx.store('channel_messages').add(record);
    await Promise.all(fileRecords.map((f) => tx.store('attachment_files').add(f)));
    await noteGuildMessage(tx, guildId, now);
    const users = await loadUsers(tx, userIdsOf(replied ? [record, replied] : [record]));
    const referenced = replied ? serializeChannelMessage(replied, users) : undefined;
    const message = serializeChannelMessage(record, users, { includeNonce: true, referenced });
    const member = access.view.member;
    emit({
      type: 'MESSAGE_CREATE',
      data: messageEventData(message, guildId, member ? { member, user: author.user } : null),
      audience: messageAudience(guildId),
    });
    return message;
  });
}
