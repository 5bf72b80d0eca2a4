/**
 * The messages of an interaction: its original response and follow-ups, created, edited, read
 * and deleted as the app's bot without the channel permission checks (the token authorizes),
 * with `interaction_metadata` (the nested user, the authorizing owners, and on follow-ups the
 * original response's id) in place of the deprecated `interaction`, and the interaction upload
 * limit (10 MiB from 2025-01-16, 25 MiB before). Guild channel messages go through the message
 * code (AutoMod, mentions, MESSAGE_CREATE); DM ones through `interactions/dm-messages.ts`.
 */
import { createMessage } from '../messages/create';
import type { PlatformContext } from '../core/context';
import type { UploadedFile } from '../messages/attachments';
import { ApiError } from '../core/errors';
import { attachmentSizeLimitOf } from './limits';
import {
  createDmInteractionMessage,
  deleteDmInteractionMessage,
  editDmInteractionMessage,
  getDmInteractionMessage,
} from './dm-messages';
import type { InteractionRecord } from '../../store/records/interactions';
import { INTERACTION_TYPES } from '../../store/records/interactions';
import { deleteMessage, editMessage } from '../messages/edits';
import { messageOrderKey } from '../messages/keys';
import { CHANNEL_MESSAGE_FLAGS, type InteractionMetadata } from '../../store/records/messages';
import type { MessageCreateInput, MessageEditInput } from '../messages/schemas';
import { loadUsers, serializeChannelMessage, userIdsOf, type ChannelMessage } from '../messages/wire';
import { serializeUser } from '../accounts/users';

/** Flags an interaction response or follow-up may set (public docs). */
export const INTERACTION_MESSAGE_FLAGS =
  CHANNEL_MESSAGE_FLAGS.SUPPRESS_EMBEDS |
  CHANNEL_MESSAGE_FLAGS.EPHEMERAL |
  CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2 |
  CHANNEL_MESSAGE_FLAGS.IS_VOICE_MESSAGE |
  CHANNEL_MESSAGE_FLAGS.SUPPRESS_NOTIFICATIONS;

/** The app and its bot user, the author of every message of the interaction. */
async function authorOf(ctx: PlatformContext, interaction: InteractionRecord) {
  const application = await ctx.db.get('applications', interaction.application_id);
  const user = application && (await ctx.db.get('users', application.bot_user_id));
  if (!application || !user) throw ApiError.of('UNKNOWN_APPLICATION');
  return { application, user };
}

/** `interaction_metadata` of a message the interaction creates. */
export async function interactionMetadata(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  followup: boolean,
): Promise<InteractionMetadata> {
  const user = await ctx.db.get('users', interaction.user_id);
  if (!user) throw ApiError.of('UNKNOWN_USER');
  const data = interaction.data as { target_id?: string; resolved?: { users?: Record<string, unknown> } };
  const metadata: InteractionMetadata = {
    id: interaction.id,
    type: interaction.type,
    user: serializeUser(user),
    authorizing_integration_owners: interaction.authorizing_integration_owners,
  };
  if (followup && interaction.original_message_id)
    metadata.original_response_message_id = interaction.original_message_id;
  if (data.target_id) {
    const target = data.resolved?.users?.[data.target_id];
    if (target) metadata.target_user = target as InteractionMetadata['target_user'];
    else metadata.target_message_id = data.target_id;
  }
  if (interaction.type === INTERACTION_TYPES.MESSAGE_COMPONENT && interaction.message_id)
    metadata.interacted_message_id = interaction.message_id;
  return metadata;
}

/** Creates the original response or a follow-up. */
export async function createInteractionMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  options: {
    input: MessageCreateInput;
    files?: readonly UploadedFile[];
    followup: boolean;
    allowedFlags?: number;
    origin: string;
  },
): Promise<ChannelMessage> {
  const author = await authorOf(ctx, interaction);
  const metadata = await interactionMetadata(ctx, interaction, options.followup);
  const files = options.files ?? [];
  const allowedFlags = options.allowedFlags ?? INTERACTION_MESSAGE_FLAGS;
  if (interaction.dm) {
    return createDmInteractionMessage(ctx, interaction, {
      authorId: author.user.id,
      input: options.input,
      files,
      limit: await attachmentSizeLimitOf(ctx, interaction),
      allowedFlags,
      type: interaction.message_type,
      metadata,
      origin: options.origin,
    });
  }
  return createMessage(ctx, {
    channelId: interaction.channel_id,
    author,
    input: options.input,
    files,
    checkPermissions: false,
    uploadContext: 'interaction',
    origin: options.origin,
    allowedFlags,
    type: interaction.message_type,
    applicationId: interaction.application_id,
    webhookId: interaction.application_id,
    interactionMetadata: metadata,
  });
}

/** Edits a message of the interaction (the original response or a follow-up, or the component's message). */
export async function editInteractionMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  messageId: string,
  options: { input: MessageEditInput; files?: readonly UploadedFile[]; allowPoll: boolean; origin: string },
): Promise<ChannelMessage> {
  const files = options.files ?? [];
  if (interaction.dm) {
    return editDmInteractionMessage(ctx, interaction, messageId, {
      input: options.input,
      files,
      limit: await attachmentSizeLimitOf(ctx, interaction),
      allowPoll: options.allowPoll,
      origin: options.origin,
    });
  }
  const editor = await authorOf(ctx, interaction);
  return editMessage(ctx, {
    channelId: interaction.channel_id,
    messageId,
    editor,
    input: options.input,
    files,
    checkPermissions: false,
    allowPoll: options.allowPoll,
    uploadContext: 'interaction',
    origin: options.origin,
  });
}

/** Deletes a message of the interaction. */
export async function deleteInteractionMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  messageId: string,
): Promise<void> {
  if (interaction.dm) return deleteDmInteractionMessage(ctx, interaction, messageId);
  await deleteMessage(ctx, {
    channelId: interaction.channel_id,
    messageId,
    actor: await authorOf(ctx, interaction),
    checkPermissions: false,
  });
}

/** Reads a message of the interaction. */
export async function getInteractionMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  messageId: string,
): Promise<ChannelMessage> {
  if (interaction.dm) return getDmInteractionMessage(ctx, interaction, messageId);
  const record = await ctx.db.get('channel_messages', [interaction.channel_id, messageOrderKey(messageId)]);
  if (!record) throw ApiError.of('UNKNOWN_MESSAGE');
  const tx = ctx.db.read(['users']);
  return serializeChannelMessage(record, await loadUsers(tx as never, userIdsOf([record])));
}
