/**
 * The gateway events of guild channel messages: MESSAGE_CREATE / MESSAGE_UPDATE carry the
 * message with `guild_id` (and the author's `member` on create), MESSAGE_DELETE its ids, and
 * CHANNEL_PINS_UPDATE the channel's newest pin time. All go to the guild: messages with the
 * GUILD_MESSAGES intent, pins with GUILDS. The gateway then keeps them to sessions that can
 * view the channel and empties the content for apps that may not read it (message-visibility.ts).
 */
import type { EventAudience } from '../../store/schema';
import { INTENTS } from '../core/intents';
import { serializeMember } from '../guilds/wire';
import type { MemberRecord, UserRecord } from '../../store/records/core';
import type { ChannelMessage } from './wire';

/** Who hears of a message in a guild channel. */
export function messageAudience(guildId: string): EventAudience {
  return { guild_id: guildId, intent: INTENTS.GUILD_MESSAGES };
}

/** Who hears of a channel's pins changing. */
export function pinsAudience(guildId: string): EventAudience {
  return { guild_id: guildId, intent: INTENTS.GUILDS };
}

/** The data of MESSAGE_CREATE / MESSAGE_UPDATE; a create carries the author's member without its user (that is `author`). */
export function messageEventData(
  message: ChannelMessage,
  guildId: string,
  author?: { member: MemberRecord; user: UserRecord } | null,
) {
  if (!author) return { ...message, guild_id: guildId };
  const { user: _user, ...member } = serializeMember(author.member, author.user);
  return { ...message, guild_id: guildId, member };
}

/** The data of CHANNEL_PINS_UPDATE. */
export function pinsUpdateData(guildId: string, channelId: string, lastPinAt: number | null) {
  return {
    guild_id: guildId,
    channel_id: channelId,
    last_pin_timestamp: lastPinAt === null ? null : new Date(lastPinAt).toISOString(),
  };
}
