/**
 * `PUT /channels/{channel.id}/voice-status`: a voice channel's status, at most 500 characters.
 * It needs SET_VOICE_CHANNEL_STATUS, and also MANAGE_CHANNELS when the bot is not connected to
 * the channel: connected means its stored voice state is in that channel (the sandbox puts users
 * in voice with `PUT /sandbox/guilds/{id}/voice-states/{user_id}`). A change of status is
 * recorded in the guild's audit log: VOICE_CHANNEL_STATUS_UPDATE (192, `options.status`) when
 * set, VOICE_CHANNEL_STATUS_DELETE (193) when cleared.
 *
 * The status and the channel's voice start time are ephemeral fields (Request Channel Info),
 * never part of the channel object. Without voice connections, a status is what starts a
 * channel's voice session here: setting a status on a channel that has no start time starts it
 * (now, by the platform clock); clearing the status (null or "") ends it. Each field that
 * changes appends its event: VOICE_CHANNEL_STATUS_UPDATE, VOICE_CHANNEL_START_TIME_UPDATE.
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  canViewChannel,
  channelPermissions,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
} from '../guilds/access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from '../guilds/audit-log';
import { INTENTS } from '../core/intents';
import { VOICE_CHANNEL_STATUS_MAX } from '../core/limits';
import { PERMISSIONS } from '../core/permissions';
import { CHANNEL_TYPES, type ChannelRecord } from '../../store/records/core';

/** Channel types that have a voice status and start time. */
export const VOICE_CHANNEL_TYPES: ReadonlySet<number> = new Set([
  CHANNEL_TYPES.GUILD_VOICE,
  CHANNEL_TYPES.GUILD_STAGE_VOICE,
]);

/** A stored voice start time (epoch ms) on the wire: Unix seconds, or null. */
export function voiceStartTimeSeconds(channel: Pick<ChannelRecord, 'voice_start_time'>): number | null {
  return channel.voice_start_time == null ? null : Math.floor(channel.voice_start_time / 1000);
}

/**
 * Sets (or clears, with null or "") a voice channel's status.
 * @example await setVoiceChannelStatus(ctx, bot, channelId, 'Raid night');
 */
export async function setVoiceChannelStatus(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
  status: string | null,
): Promise<void> {
  if (status !== null && [...status].length > VOICE_CHANNEL_STATUS_MAX) {
    throw ApiError.invalidForm({ status: `Must be ${VOICE_CHANNEL_STATUS_MAX} or fewer in length.` });
  }
  const next = status === '' ? null : status;
  await write(
    ctx,
    ['channels', 'guilds', 'roles', 'members', 'voice_states', 'audit_log_entries'],
    async (tx, emit) => {
      const channel = await tx.store('channels').get(channelId);
      if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
      const view = await loadGuildView(txReader(tx), channel.guild_id, principal.user.id);
      requireMember(view);
      if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
      if (!VOICE_CHANNEL_TYPES.has(channel.type)) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
      const connected =
        (await tx.store('voice_states').get([channel.guild_id, principal.user.id]))?.channel_id === channel.id;
      requirePermissions(
        channelPermissions(view, channel),
        PERMISSIONS.SET_VOICE_CHANNEL_STATUS | (connected ? 0n : PERMISSIONS.MANAGE_CHANNELS),
      );
      const previousStart = channel.voice_start_time ?? null;
      const start = next === null ? null : (previousStart ?? ctx.clock.now());
      const updated: ChannelRecord = { ...channel, voice_status: next, voice_start_time: start };
      await tx.store('channels').put(updated);
      const audience = { guild_id: channel.guild_id, intent: INTENTS.GUILDS };
      if ((channel.voice_status ?? null) !== next) {
        emit({
          type: 'VOICE_CHANNEL_STATUS_UPDATE',
          data: { id: channel.id, guild_id: channel.guild_id, status: next },
          audience,
        });
        await appendAuditLogEntry(
          ctx,
          tx,
          next === null
            ? {
                guild_id: channel.guild_id,
                action_type: AUDIT_LOG_EVENTS.VOICE_CHANNEL_STATUS_DELETE,
                user_id: principal.user.id,
                target_id: channel.id,
              }
            : {
                guild_id: channel.guild_id,
                action_type: AUDIT_LOG_EVENTS.VOICE_CHANNEL_STATUS_UPDATE,
                user_id: principal.user.id,
                target_id: channel.id,
                options: { status: next },
              },
        );
      }
      if (previousStart !== start) {
        emit({
          type: 'VOICE_CHANNEL_START_TIME_UPDATE',
          data: { id: channel.id, guild_id: channel.guild_id, voice_start_time: voiceStartTimeSeconds(updated) },
          audience,
        });
      }
    },
  );
}
