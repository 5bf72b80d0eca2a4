/**
 * What a gateway session receives of the events of guild channel messages (MESSAGE_CREATE,
 * MESSAGE_UPDATE, MESSAGE_DELETE, CHANNEL_PINS_UPDATE, TYPING_START): nothing unless its user can view the
 * channel; and a bot session without the MESSAGE_CONTENT intent gets MESSAGE_CREATE /
 * MESSAGE_UPDATE with empty `content`, `embeds`, `attachments` and `components` (no `poll`),
 * except for its own messages and those that mention it. The dispatcher asks this per session,
 * so the log holds one copy of each event and a Resume replays it the same way.
 */
import type { EventRecord } from '../../store/schema';
import { canViewChannel, type GuildView } from '../guilds/access';
import { INTENTS } from '../core/intents';
import type { ChannelRecord, User } from '../core/records';
import { withoutContent, type ChannelMessage } from './wire';

const CHANNEL_EVENTS = new Set([
  'MESSAGE_CREATE',
  'MESSAGE_UPDATE',
  'MESSAGE_DELETE',
  'CHANNEL_PINS_UPDATE',
  'TYPING_START',
]);
const CONTENT_EVENTS = new Set(['MESSAGE_CREATE', 'MESSAGE_UPDATE']);

/** The guild state the check reads (the gateway's cached reader has it). */
export interface MessageVisibilityReader {
  view(guildId: string, userId: string): Promise<GuildView | undefined>;
  channels(guildId: string): Promise<ChannelRecord[]>;
}

/** The session as the check needs it. */
export interface MessageSessionInfo {
  kind: 'bot' | 'bearer';
  user_id: string;
  intents: number;
}

/**
 * The data `session` receives for `event`: `{data}` (unchanged for every other event), or null
 * when the session may not receive it.
 * @example const shown = await messageEventForSession(session.record, event, reader);
 */
export async function messageEventForSession(
  session: MessageSessionInfo,
  event: EventRecord,
  reader: MessageVisibilityReader,
): Promise<{ data: unknown } | null> {
  const guildId = event.audience.guild_id;
  if (!CHANNEL_EVENTS.has(event.type) || !guildId) return { data: event.data };
  const data = event.data as Partial<ChannelMessage> & { channel_id: string };
  const [view, channels] = await Promise.all([reader.view(guildId, session.user_id), reader.channels(guildId)]);
  const channel = channels.find((c) => c.id === data.channel_id);
  if (!view || !channel || !canViewChannel(view, channel)) return null;
  if (!CONTENT_EVENTS.has(event.type) || session.kind !== 'bot' || (session.intents & INTENTS.MESSAGE_CONTENT) !== 0)
    return { data: event.data };
  const own = data.author?.id === session.user_id;
  const mentioned = (data.mentions ?? []).some((u: User) => u.id === session.user_id);
  return { data: own || mentioned ? event.data : withoutContent(data as ChannelMessage) };
}
