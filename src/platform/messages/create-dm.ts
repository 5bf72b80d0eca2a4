/**
 * Create DM (`POST /users/@me/channels` with `{recipient_id}`), as the public docs have it: a
 * bot opens the DM channel it shares with a user, and the same channel is answered for the same
 * pair every time (the DM channel of two users is one, whoever opened it: the Social SDK's game
 * DMs between friends live in the same store). Opening one sends no event: the platform sends
 * CHANNEL_CREATE for new guild channels only, and a DM reaches each side with its first message.
 */
import { write } from '../../store/write';
import type { DmChannel, DmChannelRecord } from '../../store/records/direct-messages';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { Principal } from '../oauth2/auth';
import { dmPair, findDmChannel, serializeDmChannel } from './direct-messages';

/**
 * The caller's DM channel with `recipientId`, made if there is none yet. An unknown user is
 * 404 10013; the caller itself, or another bot, is 403 50007 (a bot cannot message them).
 * @example const channel = await createDm(ctx, botOf(c), userId);
 */
export async function createDm(ctx: PlatformContext, principal: Principal, recipientId: string): Promise<DmChannel> {
  const me = principal.user;
  return write(ctx, ['users', 'dm_channels'], async (tx) => {
    const recipient = await tx.store('users').get(recipientId);
    if (!recipient) throw ApiError.of('UNKNOWN_USER');
    if (recipient.id === me.id || (me.bot && recipient.bot)) throw ApiError.of('CANNOT_MESSAGE_USER');
    const existing = await findDmChannel(tx, me.id, recipient.id);
    if (existing) return serializeDmChannel(existing, [recipient]);
    const [low, high] = dmPair(me.id, recipient.id);
    const channel: DmChannelRecord = {
      id: ctx.ids.next(),
      user_low: low,
      user_high: high,
      recipient_ids: [low, high],
      last_message_id: null,
      created_at: ctx.clock.now(),
    };
    await tx.store('dm_channels').add(channel);
    return serializeDmChannel(channel, [recipient]);
  });
}
