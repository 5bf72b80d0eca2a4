/**
 * Messages interactions create in DM contexts (the DM with the app's bot, or a DM between
 * users that a user-installed app answers in). Guild channel messages are created by
 * `messages/create.ts`; the sandbox keeps no other DM message history an app could write to,
 * so these live in `interaction_messages`, checked by the same rules (flags, V2 shape,
 * components, attachments and their limit, polls), their files served like any attachment.
 * MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE reach the DM's recipients.
 */
import { write } from '../../store/write';
import { attachmentPath, planAttachments, type UploadedFile } from '../messages/attachments';
import { checkMessageComponents } from './component-rules';
import type { PlatformContext } from '../core/context';
import { toStoredEmbed } from '../messages/embeds';
import { ApiError } from '../core/errors';
import type { InteractionMessageRecord, InteractionRecord } from '../../store/records/interactions';
import { messageOrderKey } from '../messages/keys';
import { CHANNEL_MESSAGE_FLAGS, type InteractionMetadata } from '../../store/records/messages';
import type { MessageCreateInput, MessageEditInput } from '../messages/schemas';
import { checkCreateShape, checkEditShape, checkFlags, toStoredPoll } from '../messages/shape';
import { loadUsers, serializeChannelMessage, userIdsOf, type ChannelMessage } from '../messages/wire';

const STORES = ['interaction_messages', 'attachment_files', 'users', 'dm_channels'] as const;

async function audienceOf(ctx: PlatformContext, channelId: string): Promise<string[]> {
  return (await ctx.db.get('dm_channels', channelId))?.recipient_ids ?? [];
}

/** Creates a message of an interaction in its DM channel. */
export async function createDmInteractionMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  options: {
    authorId: string;
    input: MessageCreateInput;
    files: readonly UploadedFile[];
    limit: number;
    allowedFlags: number;
    type: number;
    metadata: InteractionMetadata;
    origin: string;
  },
): Promise<ChannelMessage> {
  const { input, files } = options;
  const flags = input.flags ?? 0;
  checkFlags(flags, options.allowedFlags);
  checkCreateShape(input, files.length);
  const channelId = interaction.channel_id;
  const recipients = await audienceOf(ctx, channelId);
  return write(ctx, [...STORES], async (tx, emit) => {
    const now = ctx.clock.now();
    const id = ctx.ids.next();
    const plan = planAttachments({
      existing: [],
      requests: input.attachments ?? undefined,
      files,
      limit: options.limit,
      newId: () => ctx.ids.next(),
      url: (aid, name) => options.origin + attachmentPath(channelId, aid, name),
    });
    const attachments = plan.added.map((a) => a.meta);
    const components = checkMessageComponents(input.components ?? [], {
      componentsV2: (flags & CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2) !== 0,
      attachments,
    });
    const record: InteractionMessageRecord = {
      id,
      order_key: messageOrderKey(id),
      channel_id: channelId,
      guild_id: '',
      author_id: options.authorId,
      interaction_id: interaction.id,
      application_id: interaction.application_id,
      webhook_id: interaction.application_id,
      type: options.type,
      content: input.content ?? '',
      embeds: (input.embeds ?? []).map(toStoredEmbed),
      components,
      attachments,
      flags,
      tts: input.tts ?? false,
      mention_ids: [],
      mention_roles: [],
      mention_everyone: false,
      interaction_metadata: options.metadata,
      ...(input.poll ? { poll: toStoredPoll(input.poll, now) } : {}),
      edited_at: null,
      created_at: now,
    };
    await tx.store('interaction_messages').add(record);
    await Promise.all(
      plan.added.map((a) =>
        tx.store('attachment_files').add({
          id: a.meta.id,
          channel_id: channelId,
          message_id: id,
          filename: a.meta.filename,
          content_type: a.meta.content_type,
          size: a.meta.size,
          data: a.data,
        }),
      ),
    );
    const message = serializeChannelMessage(record, await loadUsers(tx, userIdsOf([record])));
    emit({ type: 'MESSAGE_CREATE', data: message, audience: { user_ids: recipients } });
    return message;
  });
}

/** Edits a message of an interaction in its DM channel (the rules of `editMessage`: V2 flag one way, polls only where allowed). */
export async function editDmInteractionMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  messageId: string,
  options: {
    input: MessageEditInput;
    files: readonly UploadedFile[];
    limit: number;
    allowPoll: boolean;
    origin: string;
  },
): Promise<ChannelMessage> {
  const { input, files } = options;
  const recipients = await audienceOf(ctx, interaction.channel_id);
  return write(ctx, [...STORES], async (tx, emit) => {
    const now = ctx.clock.now();
    const current = await tx.store('interaction_messages').get(messageId);
    if (!current || current.interaction_id !== interaction.id) throw ApiError.of('UNKNOWN_MESSAGE');
    const { flags, v2 } = checkEditShape(input, current, { allowPoll: options.allowPoll });
    const plan = planAttachments({
      existing: current.attachments,
      requests: input.attachments ?? undefined,
      files,
      limit: options.limit,
      newId: () => ctx.ids.next(),
      url: (aid, name) => options.origin + attachmentPath(current.channel_id, aid, name),
    });
    const attachments = [...plan.kept, ...plan.added.map((a) => a.meta)];
    const next: InteractionMessageRecord = {
      ...current,
      flags,
      content: input.content === undefined ? current.content : (input.content ?? ''),
      embeds: input.embeds === undefined ? current.embeds : (input.embeds ?? []).map(toStoredEmbed),
      components: checkMessageComponents(
        input.components === undefined ? current.components : (input.components ?? []),
        { componentsV2: v2, attachments },
      ),
      attachments,
      ...(input.poll ? { poll: toStoredPoll(input.poll, now) } : {}),
      edited_at: now,
    };
    if (
      next.content.trim() === '' &&
      next.embeds.length === 0 &&
      next.components.length === 0 &&
      attachments.length === 0 &&
      !next.poll
    )
      throw ApiError.of('CANNOT_SEND_EMPTY_MESSAGE');
    await tx.store('interaction_messages').put(next);
    await Promise.all(plan.removed.map((a) => tx.store('attachment_files').delete(a.id)));
    await Promise.all(
      plan.added.map((a) =>
        tx.store('attachment_files').add({
          id: a.meta.id,
          channel_id: current.channel_id,
          message_id: current.id,
          filename: a.meta.filename,
          content_type: a.meta.content_type,
          size: a.meta.size,
          data: a.data,
        }),
      ),
    );
    const message = serializeChannelMessage(next, await loadUsers(tx, userIdsOf([next])));
    emit({ type: 'MESSAGE_UPDATE', data: message, audience: { user_ids: recipients } });
    return message;
  });
}

/** Deletes a message of an interaction in its DM channel, with its files. */
export async function deleteDmInteractionMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  messageId: string,
): Promise<void> {
  const recipients = await audienceOf(ctx, interaction.channel_id);
  await write(ctx, [...STORES], async (tx, emit) => {
    const current = await tx.store('interaction_messages').get(messageId);
    if (!current || current.interaction_id !== interaction.id) throw ApiError.of('UNKNOWN_MESSAGE');
    await tx.store('interaction_messages').delete(messageId);
    await Promise.all(current.attachments.map((a) => tx.store('attachment_files').delete(a.id)));
    emit({
      type: 'MESSAGE_DELETE',
      data: { id: current.id, channel_id: current.channel_id },
      audience: { user_ids: recipients },
    });
  });
}

/** A message of an interaction in its DM channel. */
export async function getDmInteractionMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  messageId: string,
): Promise<ChannelMessage> {
  const record = await ctx.db.get('interaction_messages', messageId);
  if (!record || record.interaction_id !== interaction.id) throw ApiError.of('UNKNOWN_MESSAGE');
  const tx = ctx.db.read(['users']);
  return serializeChannelMessage(record, await loadUsers(tx as never, userIdsOf([record])));
}
