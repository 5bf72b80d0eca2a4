/**
 * Editing and deleting messages of guild channels. The author edits content, embeds,
 * components and attachments (keeping, dropping or adding files; `description` and
 * `is_spoiler` of kept ones); others with MANAGE_MESSAGES may only change flags. An edit AutoMod
 * blocks is 400 200000 (this is also how an edited deferred interaction response is checked).
 * Deleting is the author's, or MANAGE_MESSAGES'. MESSAGE_UPDATE / MESSAGE_DELETE are logged in
 * the same transaction.
 */
import { forgetThreadMessage } from '../threads/thread-messages';
import { write } from '../../store/write';
import { attachmentPath, planAttachments, uploadLimitFor, type UploadContext, type UploadedFile } from './attachments';
import { MESSAGE_WRITE_STORES, type MessageAuthor } from './create';
import { checkMessageComponents } from '../interactions/component-rules';
import type { PlatformContext } from '../core/context';
import { toStoredEmbed } from './embeds';
import { ApiError } from '../core/errors';
import { loadChannelAccess, requireChannelPermissions, requireView } from './access';
import { automodText, requireAutoModAllows } from './automod';
import { messageAudience, messageEventData } from './events';
import { messageOrderKey } from './keys';
import { myReactionKeys } from './reaction-wire';
import { myPollVotes, pollVotesRange } from './poll-results';
import { messageReactionsRange } from './reactions-store';
import { mentionText, resolveMentions } from './mentions';
import type { ChannelMessageRecord } from '../../store/records/messages';
import type { MessageEditInput } from './schemas';
import { checkEditShape, toStoredPoll } from './shape';
import { loadUsers, serializeChannelMessage, userIdsOf, type ChannelMessage } from './wire';
import { PERMISSIONS, hasPermission } from '../core/permissions';

/** A message edit. */
export interface EditMessageOptions {
  channelId: string;
  messageId: string;
  editor: MessageAuthor;
  input: MessageEditInput;
  files?: readonly UploadedFile[];
  /** Check the editor's permissions in the channel (default true; interaction responses pass false). */
  checkPermissions?: boolean;
  /** Accept `poll` (editing a deferred interaction response). */
  allowPoll?: boolean;
  uploadContext?: UploadContext;
  origin?: string;
}

/** True when the edit changes more than flags (only the author may). */
function editsContent(input: MessageEditInput, fileCount: number): boolean {
  return (
    fileCount > 0 ||
    (['content', 'embeds', 'components', 'attachments', 'poll', 'allowed_mentions'] as const).some(
      (k) => input[k] !== undefined,
    )
  );
}

/**
 * Edits a message and logs MESSAGE_UPDATE.
 * @example await editMessage(ctx, { channelId, messageId, editor: { user, application }, input: { content: 'fixed' } });
 */
export async function editMessage(ctx: PlatformContext, options: EditMessageOptions): Promise<ChannelMessage> {
  const { input, editor } = options;
  const files = options.files ?? [];
  const origin = options.origin ?? '';
  return write(ctx, MESSAGE_WRITE_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadChannelAccess(tx, options.channelId, editor.user.id);
    const guildId = access.view.guild.id;
    if (options.checkPermissions ?? true) requireView(access);
    const current = await tx.store('channel_messages').get([options.channelId, messageOrderKey(options.messageId)]);
    if (!current) throw ApiError.of('UNKNOWN_MESSAGE');
    const content = editsContent(input, files.length);
    if (current.author_id !== editor.user.id) {
      if (content) throw ApiError.of('CANNOT_EDIT_OTHERS_MESSAGE');
      requireChannelPermissions(access, PERMISSIONS.MANAGE_MESSAGES);
    }
    const { flags, v2 } = checkEditShape(input, current, { allowPoll: options.allowPoll ?? false });
    const limit = uploadLimitFor({
      context: options.uploadContext ?? 'message',
      now,
      premiumType: editor.user.premium_type,
      boostTier: access.view.guild.premium_tier,
    });
    const plan = planAttachments({
      existing: current.attachments,
      requests: input.attachments ?? undefined,
      files,
      limit,
      newId: () => ctx.ids.next(),
      url: (id, name) => origin + attachmentPath(options.channelId, id, name),
    });
    const attachments = [...plan.kept, ...plan.added.map((a) => a.meta)];
    const components = checkMessageComponents(
      input.components === undefined ? current.components : (input.components ?? []),
      { componentsV2: v2, attachments },
    );
    const next: ChannelMessageRecord = {
      ...current,
      flags,
      content: input.content === undefined ? current.content : (input.content ?? ''),
      embeds: input.embeds === undefined ? current.embeds : (input.embeds ?? []).map(toStoredEmbed),
      components,
      attachments,
      ...(input.poll ? { poll: toStoredPoll(input.poll, now) } : {}),
      edited_at: content ? now : current.edited_at,
    };
    const empty =
      next.content.trim() === '' &&
      next.embeds.length === 0 &&
      components.length === 0 &&
      attachments.length === 0 &&
      !next.poll &&
      !next.message_snapshots;
    if (empty) throw ApiError.of('CANNOT_SEND_EMPTY_MESSAGE');
    if (content) {
      const text = mentionText(next.content, components);
      await requireAutoModAllows(tx, guildId, automodText(next.content, text, next.embeds));
      Object.assign(
        next,
        await resolveMentions(tx, {
          text,
          allowed: input.allowed_mentions,
          guildId,
          roles: access.view.roles,
          canMentionEveryone: hasPermission(access.permissions, PERMISSIONS.MENTION_EVERYONE),
        }),
      );
    }
    await tx.store('channel_messages').put(next);
    await Promise.all(plan.removed.map((a) => tx.store('attachment_files').delete(a.id)));
    await Promise.all(
      plan.added.map((a) =>
        tx.store('attachment_files').add({
          id: a.meta.id,
          channel_id: options.channelId,
          message_id: current.id,
          filename: a.meta.filename,
          content_type: a.meta.content_type,
          size: a.meta.size,
          data: a.data,
        }),
      ),
    );
    const users = await loadUsers(tx, userIdsOf([next]));
    // The log holds one copy for every session: its reactions say `me` of nobody.
    const message = serializeChannelMessage(next, users);
    emit({ type: 'MESSAGE_UPDATE', data: messageEventData(message, guildId), audience: messageAudience(guildId) });
    const myReactions = await myReactionKeys(tx, next, options.editor.user.id);
    const myVotes = await myPollVotes(tx, next, options.editor.user.id);
    return serializeChannelMessage(next, users, { myReactions, myVotes, now: ctx.clock.now() });
  });
}

/**
 * Deletes a message with its files and logs MESSAGE_DELETE: the author's own, or anyone's with
 * MANAGE_MESSAGES.
 */
export async function deleteMessage(
  ctx: PlatformContext,
  options: { channelId: string; messageId: string; actor: MessageAuthor; checkPermissions?: boolean },
): Promise<void> {
  await write(ctx, MESSAGE_WRITE_STORES, async (tx, emit) => {
    const access = await loadChannelAccess(tx, options.channelId, options.actor.user.id);
    const check = options.checkPermissions ?? true;
    if (check) requireView(access);
    const key: [string, string] = [options.channelId, messageOrderKey(options.messageId)];
    const message = await tx.store('channel_messages').get(key);
    if (!message) throw ApiError.of('UNKNOWN_MESSAGE');
    if (check && message.author_id !== options.actor.user.id)
      requireChannelPermissions(access, PERMISSIONS.MANAGE_MESSAGES);
    const fileIds = [
      ...message.attachments.map((a) => a.id),
      ...(message.message_snapshots ?? []).flatMap((s) => s.message.attachments.map((a) => a.id)),
    ];
    await tx.store('channel_messages').delete(key);
    await tx.store('message_reactions').delete(messageReactionsRange(message.channel_id, message.id));
    if (message.poll) await tx.store('poll_votes').delete(pollVotesRange(message.channel_id, message.id));
    await Promise.all(fileIds.map((id) => tx.store('attachment_files').delete(id)));
    await forgetThreadMessage(tx, access.channel);
    emit({
      type: 'MESSAGE_DELETE',
      data: { id: message.id, channel_id: message.channel_id, guild_id: message.guild_id },
      audience: messageAudience(message.guild_id),
    });
  });
}
