/**
 * Launching the app's Activity in answer to an interaction (callback LAUNCH_ACTIVITY, or an entry
 * point command whose handler is PLATFORM_LAUNCH_ACTIVITY). Nothing runs on a server here: the
 * platform client is the host page, so the launch is an event it can act on. ACTIVITY_LAUNCH
 * goes over the gateway to the invoking user's sessions (`{application_id, instance_id,
 * interaction_id, user_id, channel_id, guild_id}`); the host opens the activity frame in that
 * channel, and may pass `instance_id` so frames of the launch share the instance. The
 * interaction keeps the instance id (`activity_instance_id` of the callback response).
 */
import type { Emit, WriteTx } from '../../store/write';
import type { InteractionRecord } from '../../store/records/interactions';

/** The gateway event a launch emits. */
export const ACTIVITY_LAUNCH_EVENT = 'ACTIVITY_LAUNCH';

/**
 * Emits ACTIVITY_LAUNCH in the caller's transaction and returns the new instance id.
 * @example record.activity_instance_id = await launchActivity(tx, emit, record);
 */
export async function launchActivity(_tx: WriteTx, emit: Emit, interaction: InteractionRecord): Promise<string> {
  const instanceId = `i-${crypto.randomUUID()}`;
  emit({
    type: ACTIVITY_LAUNCH_EVENT,
    data: {
      application_id: interaction.application_id,
      instance_id: instanceId,
      interaction_id: interaction.id,
      user_id: interaction.user_id,
      channel_id: interaction.channel_id,
      guild_id: interaction.guild_id,
    },
    audience: { user_ids: [interaction.user_id] },
  });
  return instanceId;
}
