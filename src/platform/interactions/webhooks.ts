/**
 * The interaction webhooks (`/webhooks/{application.id}/{interaction.token}`): follow-up
 * messages, and reading, editing and deleting the original response (`@original`) and the
 * follow-ups. The token authorizes (answered once, 15 minutes). Apps installed only as user
 * apps (`authorizing_integration_owners` holds only "1") may create at most 5 follow-ups per
 * interaction (40094 after). Editing a deferred original response replaces its loading message
 * and may create a poll; a follow-up sent right after a deferral edits the loading message
 * instead (the platform's deprecated backwards-compatible behaviour).
 */
import { write } from '../../store/write';
import type { UploadedFile } from '../messages/attachments';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  createInteractionMessage,
  deleteInteractionMessage,
  editInteractionMessage,
  getInteractionMessage,
} from './messages';
import { CALLBACK_TYPES, type InteractionRecord } from '../../store/records/interactions';
import { checkPremiumButtons } from './response-data';
import { USER_INSTALL_FOLLOWUPS_MAX } from '../core/limits';
import type { MessageCreateInput, MessageEditInput } from '../messages/schemas';
import type { ChannelMessage } from '../messages/wire';

/** `@original` or a message id of this interaction; 404 10008 for any other message. */
function messageOf(interaction: InteractionRecord, messageId: string): string {
  if (messageId === '@original') {
    if (!interaction.original_message_id) throw ApiError.of('UNKNOWN_MESSAGE');
    return interaction.original_message_id;
  }
  if (messageId !== interaction.original_message_id && !interaction.followup_message_ids.includes(messageId))
    throw ApiError.of('UNKNOWN_MESSAGE');
  return messageId;
}

/** The original response is still a deferred one's loading message. */
const loading = (interaction: InteractionRecord) =>
  interaction.response?.type === CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE && interaction.response.loading;

/** Marks the loading message as replaced. */
async function settle(ctx: PlatformContext, interaction: InteractionRecord): Promise<void> {
  await write(ctx, ['interactions'], async (tx) => {
    const current = await tx.store('interactions').get(interaction.id);
    if (current?.response)
      await tx.store('interactions').put({ ...current, response: { ...current.response, loading: false } });
  });
}

/**
 * Edits a message of the interaction. On a deferred response's loading message the
 * placeholder text goes (unless new content is given) and a poll may be created; AutoMod
 * checks the new content like any edit (400 200000 when it blocks it).
 */
export async function editInteractionWebhookMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  messageId: string,
  input: MessageEditInput,
  files: readonly UploadedFile[],
  origin: string,
): Promise<ChannelMessage> {
  const id = messageOf(interaction, messageId);
  await checkPremiumButtons(ctx, interaction.application_id, input.components, '');
  const original = id === interaction.original_message_id;
  const replacingLoading = original && loading(interaction);
  const deferred = original && interaction.response?.type === CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE;
  const edit: MessageEditInput = replacingLoading ? { ...input, content: input.content ?? null } : input;
  const message = await editInteractionMessage(ctx, interaction, id, {
    input: edit,
    files,
    allowPoll: deferred,
    origin,
  });
  if (replacingLoading) await settle(ctx, interaction);
  return message;
}

/**
 * Creates a follow-up. Right after a deferral (the loading message not yet replaced) it edits
 * the loading message instead, keeping its ephemeral state.
 */
export async function createFollowup(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  input: MessageCreateInput,
  files: readonly UploadedFile[],
  origin: string,
): Promise<ChannelMessage> {
  await checkPremiumButtons(ctx, interaction.application_id, input.components, '');
  if (loading(interaction) && interaction.original_message_id) {
    const {
      flags: _ignored,
      nonce: _n,
      enforce_nonce: _e,
      tts: _t,
      message_reference: _r,
      sticker_ids: _s,
      ...edit
    } = input;
    return editInteractionWebhookMessage(ctx, interaction, '@original', edit, files, origin);
  }
  // Counted before and claimed after: the message code's own transaction cannot hold ours.
  if (interaction.user_install_only && interaction.followup_message_ids.length >= USER_INSTALL_FOLLOWUPS_MAX)
    throw ApiError.of('INTERACTION_FOLLOWUPS_MAX');
  const message = await createInteractionMessage(ctx, interaction, { input, files, followup: true, origin });
  await write(ctx, ['interactions'], async (tx) => {
    const current = await tx.store('interactions').get(interaction.id);
    if (current)
      await tx
        .store('interactions')
        .put({ ...current, followup_message_ids: [...current.followup_message_ids, message.id] });
  });
  return message;
}

/** Reads a message of the interaction. */
export async function getInteractionWebhookMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  messageId: string,
): Promise<ChannelMessage> {
  return getInteractionMessage(ctx, interaction, messageOf(interaction, messageId));
}

/**
 * Deletes a message of the interaction (the original response, or a follow-up). A deleted
 * follow-up still counts towards the 5 of a user-installed app.
 */
export async function deleteInteractionWebhookMessage(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  messageId: string,
): Promise<void> {
  await deleteInteractionMessage(ctx, interaction, messageOf(interaction, messageId));
}
