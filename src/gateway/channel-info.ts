/**
 * Request Channel Info (opcode 43), answered by a CHANNEL_INFO dispatch with the requested
 * ephemeral fields (`status`, `voice_start_time`) of the guild's voice channels that the
 * session's user can view. These fields are never part of the channel object.
 * `voice_start_time` is a Unix timestamp in seconds, or null while nobody started the channel.
 */
import type * as v from 'valibot';
import type { PlatformContext } from '../platform/core/context';
import { ApiError } from '../platform/core/errors';
import { canViewChannel, dbReader, loadGuildView } from '../platform/guilds/access';
import { VOICE_CHANNEL_TYPES, voiceStartTimeSeconds } from '../platform/voice/channel-status';
import type { RequestChannelInfoSchema } from './payload-schemas';
import type { Dispatch } from './protocol';
import type { GatewaySession } from './session';

/**
 * The CHANNEL_INFO answer, or nothing when the session's user is not in the guild.
 * @example await requestChannelInfo(ctx, session, { guild_id, fields: ['status'] })
 */
export async function requestChannelInfo(
  ctx: PlatformContext,
  session: GatewaySession,
  request: v.InferOutput<typeof RequestChannelInfoSchema>,
): Promise<Dispatch[]> {
  if (!session.record.guild_events) return [];
  const view = await loadGuildView(dbReader(ctx.db), request.guild_id, session.record.user_id).catch((error) => {
    if (error instanceof ApiError) return null;
    throw error;
  });
  if (!view?.member) return [];
  const channels = await ctx.db.getAllFromIndex('channels', 'by_guild', request.guild_id);
  const fields = new Set(request.fields);
  return [
    {
      t: 'CHANNEL_INFO',
      d: {
        guild_id: request.guild_id,
        channels: channels
          .filter((c) => VOICE_CHANNEL_TYPES.has(c.type) && canViewChannel(view, c))
          .map((c) => ({
            id: c.id,
            ...(fields.has('status') ? { status: c.voice_status ?? null } : {}),
            ...(fields.has('voice_start_time') ? { voice_start_time: voiceStartTimeSeconds(c) } : {}),
          })),
      },
    },
  ];
}
