/**
 * Responding to an interaction (`POST /interactions/{id}/{token}/callback`, or the body an
 * interactions endpoint answers with): once, within 3 s (platform clock). Which callback types
 * fit which interaction: messages (4, 5) and modals (9) for commands and components (a modal
 * not for a modal submit), 6 and 7 for components (and submits of modals opened from one),
 * 8 for autocomplete, PREMIUM_REQUIRED (10, deprecated: accepted for apps that sell SKUs) and
 * LAUNCH_ACTIVITY (12, apps with the EMBEDDED flag) for commands, components and modal
 * submits. PONG (1) answers only PINGs, which the sandbox sends to endpoints, never here.
 *
 * The response is claimed in one transaction first (so a second one is 40060 even while the
 * first is still creating its message); if the message cannot be made, the claim is undone:
 * a failed callback changes nothing.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { write } from '../../store/write';
import type { UploadedFile } from '../messages/attachments';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { launchActivity } from './launch';
import { createInteractionMessage, editInteractionMessage } from './messages';
import { checkResponseData, type CheckedResponse } from './response-data';
import { CALLBACK_TYPES, INTERACTION_TYPES, type InteractionRecord } from '../../store/records/interactions';
import { canStillRespond } from './tokens';
import { CHANNEL_MESSAGE_FLAGS } from '../../store/records/messages';
import type { ChannelMessage } from '../messages/wire';

/** The body of a callback: `{type, data?}`. */
export const InteractionResponseSchema = jsonObject({
  type: v.picklist([1, 4, 5, 6, 7, 8, 9, 10, 12], 'Value must be one of (1, 4, 5, 6, 7, 8, 9, 10, 12).'),
  data: v.optional(v.unknown()),
});
export type InteractionResponseInput = v.InferOutput<typeof InteractionResponseSchema>;

/** The callback types each interaction type may be answered with. */
function allowedCallbacks(interaction: InteractionRecord): number[] {
  const T = CALLBACK_TYPES;
  switch (interaction.type) {
    case INTERACTION_TYPES.APPLICATION_COMMAND:
      return [
        T.CHANNEL_MESSAGE_WITH_SOURCE,
        T.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
        T.MODAL,
        T.PREMIUM_REQUIRED,
        T.LAUNCH_ACTIVITY,
      ];
    case INTERACTION_TYPES.MESSAGE_COMPONENT:
      return [4, 5, 6, 7, 9, 10, 12];
    case INTERACTION_TYPES.APPLICATION_COMMAND_AUTOCOMPLETE:
      return [T.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT];
    case INTERACTION_TYPES.MODAL_SUBMIT:
      return interaction.message_id ? [4, 5, 6, 7, 10, 12] : [4, 5, 10, 12];
    default:
      return [T.PONG];
  }
}

/** What `with_response=true` answers: the interaction callback response object. */
export interface CallbackResult {
  interaction: {
    id: string;
    type: number;
    response_message_id?: string;
    response_message_loading?: boolean;
    response_message_ephemeral?: boolean;
    activity_instance_id?: string;
  };
  resource?: { type: number; message?: ChannelMessage; activity_instance?: { id: string } };
}

/** Undoes a claimed response whose message could not be made. */
async function unclaim(ctx: PlatformContext, id: string): Promise<void> {
  await write(ctx, ['interactions'], async (tx) => {
    const record = await tx.store('interactions').get(id);
    if (record)
      await tx.store('interactions').put({ ...record, response: null, modal: null, original_message_id: null });
  });
}

/**
 * Answers an interaction. Throws 400 50035 naming `type` for a callback type the interaction
 * cannot take, 400 40060 when it was already answered, 404 10062 after the 3 s window.
 * @example const result = await respondToInteraction(ctx, record, { type: 4, data: { content: 'hi' } }, { origin });
 */
export async function respondToInteraction(
  ctx: PlatformContext,
  interaction: InteractionRecord,
  body: InteractionResponseInput,
  options: { files?: readonly UploadedFile[]; origin: string },
): Promise<CallbackResult> {
  if (!allowedCallbacks(interaction).includes(body.type)) {
    throw ApiError.invalidForm({
      type: {
        code: 'INTERACTION_CALLBACK_TYPE_INVALID',
        message: `Callback type ${body.type} cannot answer an interaction of type ${interaction.type}.`,
      },
    });
  }
  const checked: CheckedResponse = await checkResponseData(ctx, interaction, body);
  const ephemeral = ((checked.flags ?? 0) & CHANNEL_MESSAGE_FLAGS.EPHEMERAL) !== 0;
  const claimed = await write(ctx, ['interactions', 'users'], async (tx, emit) => {
    const now = ctx.clock.now();
    const current = await tx.store('interactions').get(interaction.id);
    if (!current) throw ApiError.of('UNKNOWN_INTERACTION');
    if (current.response !== null) throw ApiError.of('INTERACTION_ALREADY_ACKNOWLEDGED');
    if (!canStillRespond(current, now)) throw ApiError.of('UNKNOWN_INTERACTION');
    const next: InteractionRecord = {
      ...current,
      response: {
        type: body.type,
        at: now,
        loading: body.type === CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
        ephemeral,
      },
      modal: checked.modal ?? null,
      original_message_id:
        body.type === CALLBACK_TYPES.DEFERRED_UPDATE_MESSAGE || body.type === CALLBACK_TYPES.UPDATE_MESSAGE
          ? current.message_id
          : null,
    };
    if (body.type === CALLBACK_TYPES.LAUNCH_ACTIVITY) next.activity_instance_id = await launchActivity(tx, emit, next);
    await tx.store('interactions').put(next);
    return next;
  });
  const result: CallbackResult = { interaction: { id: interaction.id, type: interaction.type } };
  if (claimed.activity_instance_id && body.type === CALLBACK_TYPES.LAUNCH_ACTIVITY) {
    result.interaction.activity_instance_id = claimed.activity_instance_id;
    result.resource = { type: body.type, activity_instance: { id: claimed.activity_instance_id } };
    return result;
  }
  let message: ChannelMessage | undefined;
  try {
    if (body.type === CALLBACK_TYPES.CHANNEL_MESSAGE_WITH_SOURCE) {
      message = await createInteractionMessage(ctx, claimed, {
        input: checked.create!,
        files: options.files,
        followup: false,
        origin: options.origin,
      });
    } else if (body.type === CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) {
      // The loading message the platform client shows until the app edits it.
      const application = await ctx.db.get('applications', interaction.application_id);
      message = await createInteractionMessage(ctx, claimed, {
        input: { content: `${application?.name ?? 'The app'} is thinking…`, flags: checked.flags ?? 0 },
        followup: false,
        origin: options.origin,
        allowedFlags: CHANNEL_MESSAGE_FLAGS.EPHEMERAL,
      });
    } else if (body.type === CALLBACK_TYPES.UPDATE_MESSAGE) {
      message = await editInteractionMessage(ctx, claimed, interaction.message_id!, {
        input: checked.edit!,
        files: options.files,
        allowPoll: false,
        origin: options.origin,
      });
    }
  } catch (error) {
    await unclaim(ctx, interaction.id);
    throw error;
  }
  if (message && body.type !== CALLBACK_TYPES.UPDATE_MESSAGE) {
    const messageId = message.id;
    await write(ctx, ['interactions'], async (tx) => {
      const current = await tx.store('interactions').get(interaction.id);
      if (current) await tx.store('interactions').put({ ...current, original_message_id: messageId });
    });
  }
  if (message) {
    result.interaction.response_message_id = message.id;
    result.interaction.response_message_loading = body.type === CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE;
    result.interaction.response_message_ephemeral = (message.flags & CHANNEL_MESSAGE_FLAGS.EPHEMERAL) !== 0;
    if (body.type !== CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE)
      result.resource = { type: body.type, message };
  }
  return result;
}
