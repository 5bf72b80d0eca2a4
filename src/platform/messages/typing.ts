/**
 * Trigger Typing Indicator (`POST /channels/{channel.id}/typing`), as the platform's public API
 * has it (the spec does not show it): 204, and TYPING_START `{channel_id, guild_id, user_id,
 * timestamp, member}` to the guild's sessions with the GUILD_MESSAGE_TYPING intent that can view
 * the channel (the message visibility rule), or `{channel_id, user_id, timestamp}` to the other
 * user of a DM channel. Clients show the indicator for TYPING_INDICATOR_MS (limits.ts), or until
 * the typist's message arrives; nothing is stored but the event.
 */
import { write } from '../../store/write';
import { ApiError } from '../core/errors';
import type { PlatformContext } from '../core/context';
import { INTENTS } from '../core/intents';
import { PERMISSIONS } from '../core/permissions';
import type { Principal } from '../oauth2/auth';
import { requireScopeOfResource } from '../oauth2/route-access';
import { serializeMember } from '../guilds/wire';
import { loadChannelAccess, MESSAGE_READ_STORES, requireChannelPermissions } from './access';

/**
 * Tells the channel that the caller is typing. A guild channel needs VIEW_CHANNEL and
 * SEND_MESSAGES (403 otherwise) and, for a user's token, `messages.write`; a DM channel or a group
 * DM, that the caller is one of its users (404 10003 otherwise) and `dm_channels.messages.write`
 * (the group DM's other members hear it, a bot with DIRECT_MESSAGE_TYPING).
 * @example await triggerTyping(ctx, principal, channelId);
 */
export async function triggerTyping(ctx: PlatformContext, principal: Principal, channelId: string): Promise<void> {
  const user = principal.user;
  await write(ctx, [...MESSAGE_READ_STORES, 'dm_channels', 'group_dm_channels'], async (tx, emit) => {
    const timestamp = Math.floor(ctx.clock.now() / 1000);
    const group = await tx.store('group_dm_channels').get(channelId);
    if (group) {
      if (!group.member_ids.includes(user.id)) throw ApiError.of('UNKNOWN_CHANNEL');
      requireScopeOfResource(principal, 'dm_channels.messages.write');
      emit({
        type: 'TYPING_START',
        data: { channel_id: channelId, user_id: user.id, timestamp },
        audience: {
          user_ids: group.member_ids.filter((id) => id !== user.id),
          bot_intent: INTENTS.DIRECT_MESSAGE_TYPING,
        },
      });
      return;
    }
    const dm = await tx.store('dm_channels').get(channelId);
    if (dm) {
      if (!dm.recipient_ids.includes(user.id)) throw ApiError.of('UNKNOWN_CHANNEL');
      requireScopeOfResource(principal, 'dm_channels.messages.write');
      emit({
        type: 'TYPING_START',
        data: { channel_id: channelId, user_id: user.id, timestamp },
        audience: { user_ids: dm.recipient_ids.filter((id) => id !== user.id) },
      });
      return;
    }
    requireScopeOfResource(principal, 'messages.write');
    const access = await loadChannelAccess(tx, channelId, user.id);
    requireChannelPermissions(access, PERMISSIONS.SEND_MESSAGES);
    const guildId = access.view.guild.id;
    emit({
      type: 'TYPING_START',
      data: {
        channel_id: channelId,
        guild_id: guildId,
        user_id: user.id,
        timestamp,
        member: serializeMember(access.view.member!, user),
      },
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MESSAGE_TYPING },
    });
  });
}
