/**
 * Crosspost Message (`POST /channels/{channel.id}/messages/{message.id}/crosspost`), as the
 * platform's public API has it: a message of an announcement channel (type 5; other channels are
 * 400 50024) is published, once (400 40033 after that). The author needs SEND_MESSAGES, anyone
 * else MANAGE_MESSAGES. The message gets the CROSSPOSTED flag (1 << 0), is answered and logged
 * as MESSAGE_UPDATE. Channel following is not implemented, so no followed channel receives a copy.
 */
import { write } from '../../store/write';
import { CHANNEL_TYPES } from '../../store/records/core';
import { CHANNEL_MESSAGE_FLAGS } from '../../store/records/messages';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PERMISSIONS } from '../core/permissions';
import type { Principal } from '../oauth2/auth';
import { MESSAGE_READ_STORES, loadChannelAccess, requireChannelPermissions, requireView } from './access';
import { messageAudience, messageEventData } from './events';
import { messageOrderKey } from './keys';
import { contentReaderOf, messagesForReader } from './reads';
import { loadUsers, serializeChannelMessage, userIdsOf, type ChannelMessage } from './wire';

/**
 * Publishes a message of an announcement channel and answers it.
 * @example const message = await crosspostMessage(ctx, principal, channelId, messageId);
 */
export async function crosspostMessage(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  messageId: string,
): Promise<ChannelMessage> {
  const reader = await contentReaderOf(ctx, principal);
  return write(ctx, [...MESSAGE_READ_STORES], async (tx, emit) => {
    const access = await loadChannelAccess(tx, channelId, principal.user.id);
    requireView(access);
    if (access.channel.type !== CHANNEL_TYPES.GUILD_ANNOUNCEMENT) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    const record = await tx.store('channel_messages').get([channelId, messageOrderKey(messageId)]);
    if (!record) throw ApiError.of('UNKNOWN_MESSAGE');
    const own = record.author_id === principal.user.id;
    requireChannelPermissions(access, own ? PERMISSIONS.SEND_MESSAGES : PERMISSIONS.MANAGE_MESSAGES);
    if (record.flags & CHANNEL_MESSAGE_FLAGS.CROSSPOSTED) throw ApiError.of('ALREADY_CROSSPOSTED');
    const next = { ...record, flags: record.flags | CHANNEL_MESSAGE_FLAGS.CROSSPOSTED };
    await tx.store('channel_messages').put(next);
    const shared = serializeChannelMessage(next, await loadUsers(tx, userIdsOf([next])), { now: reader.now });
    emit({
      type: 'MESSAGE_UPDATE',
      data: messageEventData(shared, record.guild_id),
      audience: messageAudience(record.guild_id),
    });
    return (await messagesForReader(tx, [next], reader))[0];
  });
}
