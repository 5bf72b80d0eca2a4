/**
 * What a gateway session receives of the events of guild channel messages (MESSAGE_CREATE,
 * MESSAGE_UPDATE, MESSAGE_DELETE, MESSAGE_DELETE_BULK, CHANNEL_PINS_UPDATE, TYPING_START, the
 * MESSAGE_REACTION_* and MESSAGE_POLL_VOTE_* events): nothing unless its user can view the
 * channel; and a bot session without the MESSAGE_CONTENT intent gets MESSAGE_CREATE /
 * MESSAGE_UPDATE with empty `content`, `embeds`, `attachments` and `components` (no `poll`),
 * except for its own messages and those that mention it. The dispatcher asks this per session,
 * so the log holds one copy of each event and a Resume replays it the same way.
 */
import type { EventRecord } from '../../store/schema';
import type { GuildView } from '../guilds/access';
import { canViewGuildChannel } from '../threads/visibility';
import type { ThreadMemberRecord } from '../../store/records/threads';
import { INTENTS } from '../core/intents';
import type { ChannelRecord, User } from '../../store/records/core';
import { withoutContent } from './wire';
import type { GuildMessageEvent } from '../../store/records/dispatches';

/** The events of a guild channel, which only sessions that can view the channel receive. */
type ChannelEvent = Extract<
  EventRecord,
  {
    type:
      | 'MESSAGE_CREATE'
      | 'MESSAGE_UPDATE'
      | 'MESSAGE_DELETE'
      | 'MESSAGE_DELETE_BULK'
      | 'CHANNEL_PINS_UPDATE'
      | 'TYPING_START'
      | 'MESSAGE_REACTION_ADD'
      | 'MESSAGE_REACTION_REMOVE'
      | 'MESSAGE_REACTION_REMOVE_ALL'
      | 'MESSAGE_REACTION_REMOVE_EMOJI'
      | 'MESSAGE_POLL_VOTE_ADD'
      | 'MESSAGE_POLL_VOTE_REMOVE';
  }
>;

const CHANNEL_EVENTS: ReadonlySet<EventRecord['type']> = new Set([
  'MESSAGE_CREATE',
  'MESSAGE_UPDATE',
  'MESSAGE_DELETE',
  'MESSAGE_DELETE_BULK',
  'CHANNEL_PINS_UPDATE',
  'TYPING_START',
  'MESSAGE_REACTION_ADD',
  'MESSAGE_REACTION_REMOVE',
  'MESSAGE_REACTION_REMOVE_ALL',
  'MESSAGE_REACTION_REMOVE_EMOJI',
  'MESSAGE_POLL_VOTE_ADD',
  'MESSAGE_POLL_VOTE_REMOVE',
]);

const isChannelEvent = (event: EventRecord): event is ChannelEvent => CHANNEL_EVENTS.has(event.type);

/** The guild state the check reads (the gateway's cached reader has it). */
export interface MessageVisibilityReader {
  view(guildId: string, userId: string): Promise<GuildView | undefined>;
  channels(guildId: string): Promise<ChannelRecord[]>;
  threadMember(threadId: string, userId: string): Promise<ThreadMemberRecord | undefined>;
}

/** The session as the check needs it. */
export interface MessageSessionInfo {
  kind: 'bot' | 'bearer';
  user_id: string;
  intents: number;
}

/**
 * The event as `session` receives it (unchanged for every other event), or null when the
 * session may not receive it.
 * @example const shown = await messageEventForSession(session.record, event, reader);
 */
export async function messageEventForSession(
  session: MessageSessionInfo,
  event: EventRecord,
  reader: MessageVisibilityReader,
): Promise<EventRecord | null> {
  const guildId = event.audience.guild_id;
  if (!isChannelEvent(event) || !guildId) return event;
  const [view, channels] = await Promise.all([reader.view(guildId, session.user_id), reader.channels(guildId)]);
  const channel = channels.find((c) => c.id === event.data.channel_id);
  // A thread's messages: as the thread is seen (its parent's overwrites, a private thread's members).
  if (!view || !channel || !(await canViewGuildChannel(reader, view, channel, channels))) return null;
  if (event.type !== 'MESSAGE_CREATE' && event.type !== 'MESSAGE_UPDATE') return event;
  if (session.kind !== 'bot' || (session.intents & INTENTS.MESSAGE_CONTENT) !== 0) return event;
  // Sent to a guild's sessions: a message of a guild channel.
  const message = event.data as GuildMessageEvent;
  const own = message.author?.id === session.user_id;
  const mentioned = (message.mentions ?? []).some((u: User) => u.id === session.user_id);
  return own || mentioned ? event : { ...event, data: withoutContent(message) };
}
