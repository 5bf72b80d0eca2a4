/**
 * An interaction as the sandbox shows it after the fact: what it was, where, and how the app
 * answered (callback type, messages, modal, activity instance). Never the token or its hash.
 */
import type { InteractionRecord } from '../../store/records/interactions';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';

/** The stored interaction for `GET /sandbox/interactions/{id}`. */
export function serializeStoredInteraction(record: InteractionRecord) {
  return {
    id: record.id,
    application_id: record.application_id,
    type: record.type,
    context: record.context,
    user_id: record.user_id,
    guild_id: record.guild_id,
    channel_id: record.channel_id,
    data: record.data,
    authorizing_integration_owners: record.authorizing_integration_owners,
    created_at: new Date(record.created_at).toISOString(),
    response: record.response && {
      type: record.response.type,
      at: new Date(record.response.at).toISOString(),
      loading: record.response.loading,
      ephemeral: record.response.ephemeral,
    },
    original_message_id: record.original_message_id,
    followup_message_ids: record.followup_message_ids,
    modal: record.modal,
    activity_instance_id: record.activity_instance_id,
  };
}

/** A stored interaction as the sandbox shows it; 404 (10062) for an unknown one. */
export async function getStoredInteraction(ctx: PlatformContext, interactionId: string) {
  const record = await ctx.db.get('interactions', interactionId);
  if (!record) throw ApiError.of('UNKNOWN_INTERACTION');
  return serializeStoredInteraction(record);
}
