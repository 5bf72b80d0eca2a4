/**
 * Which dispatches one event of the log becomes for one session.
 *
 * Audience (`EventRecord.audience`): an event names the users it concerns (`user_ids`: they
 * receive it whatever their intents, e.g. lobby members; a bot among them needs `bot_intent`
 * when one is named, as a DM needs DIRECT_MESSAGES), and/or a guild and the intent needed
 * (`guild_id` + `intent`: sessions whose user is in the guild and that asked for the intent).
 * An `application_id` restricts it to sessions of that application, `client` to the platform's
 * own client sessions (capability CAPABILITY_PLATFORM_CLIENT). A GUILD_MEMBER_UPDATE
 * about the session's own user needs no intent, as on the platform.
 *
 * Obfuscation (sessions of bots that opted in): channels the bot cannot view are sent in their
 * obfuscated form and remembered as hidden. When a permission change (overwrite, the bot's
 * roles, a role's permissions) lets the bot view a hidden channel, the session gets a
 * CHANNEL_UPDATE with the full channel: a CHANNEL_UPDATE of the channel itself is simply no
 * longer obfuscated; a role change is followed by a CHANNEL_UPDATE derived here, per session,
 * for each hidden channel that became visible. Deriving per session keeps the log free of
 * per-bot copies and works the same when a Resume replays the log. Each channel revealed so
 * is followed by THREAD_LIST_SYNC with its active threads.
 */
import { canViewChannel, type GuildView } from '../platform/guilds/access';
import { serializeChannel } from '../platform/guilds/wire';
import { INTENTS } from '../platform/core/intents';
import { messageEventForSession } from '../platform/messages/visibility';
import { threadEventShown, threadListSync } from '../platform/threads/visibility';
import { isDispatchEvent, type DispatchEventRecord, type EventRecord } from '../store/records/events';
import type { Channel } from '../store/records/core';
import type { GuildReader } from './guild-reader';
import { obfuscateChannel } from './obfuscation';
import { CAPABILITY_PLATFORM_CLIENT, type Dispatch } from './protocol';
import { onShard, type GatewaySession } from './session';

/** Events after which the bot may view channels it could not view before. */
const PERMISSION_EVENTS: ReadonlySet<EventRecord['type']> = new Set([
  'GUILD_MEMBER_UPDATE',
  'GUILD_ROLE_CREATE',
  'GUILD_ROLE_UPDATE',
  'GUILD_ROLE_DELETE',
]);

/** The guild an event is about, from its audience or its data. */
export function eventGuildId(event: EventRecord): string | undefined {
  if (event.audience.guild_id) return event.audience.guild_id;
  if (event.type === 'GUILD_CREATE' || event.type === 'GUILD_DELETE') return event.data?.id;
  const data = event.data as { guild_id?: unknown } | null;
  return typeof data?.guild_id === 'string' ? data.guild_id : undefined;
}

/** True for a GUILD_MEMBER_UPDATE about the session's own user. */
function isSelfMemberUpdate(event: EventRecord, userId: string): boolean {
  return event.type === 'GUILD_MEMBER_UPDATE' && event.data?.user?.id === userId;
}

/** True when the session may receive the event as it is (before obfuscation). */
async function addressed(session: GatewaySession, event: EventRecord, reader: GuildReader): Promise<boolean> {
  const r = session.record;
  const { audience } = event;
  if (audience.application_id && audience.application_id !== r.application_id) return false;
  if (audience.client && (r.capabilities & CAPABILITY_PLATFORM_CLIENT) === 0) return false;
  if (!onShard(r.shard, eventGuildId(event))) return false;
  if (audience.user_ids?.includes(r.user_id))
    return r.kind !== 'bot' || audience.bot_intent === undefined || (r.intents & audience.bot_intent) !== 0;
  if (!audience.guild_id || !r.guild_events) return false;
  if (!(await reader.member(audience.guild_id, r.user_id))) return false;
  return audience.intent === undefined || (r.intents & audience.intent) !== 0 || isSelfMemberUpdate(event, r.user_id);
}

/** The channel as this session may see it, updating the session's hidden set. */
export function channelForSession(session: GatewaySession, view: GuildView | undefined, channel: Channel): Channel {
  if (view && canViewChannel(view, channel)) {
    session.hidden.delete(channel.id);
    return channel;
  }
  session.hidden.add(channel.id);
  return obfuscateChannel(channel);
}

/** The event as its dispatch: a log entry of the gateway is named and shaped as its dispatch. */
function asDispatch(event: DispatchEventRecord): Dispatch {
  return { t: event.type, d: event.data } as Dispatch;
}

/** The dispatch of `event` with the channels the bot cannot view obfuscated. */
async function obfuscated(
  session: GatewaySession,
  event: DispatchEventRecord,
  reader: GuildReader,
): Promise<Dispatch[]> {
  const guildId = eventGuildId(event);
  const view = guildId ? await reader.view(guildId, session.record.user_id) : undefined;
  if (event.type === 'GUILD_CREATE' && Array.isArray(event.data.channels)) {
    return [
      {
        t: event.type,
        d: { ...event.data, channels: event.data.channels.map((c) => channelForSession(session, view, c)) },
      },
    ];
  }
  if (
    guildId &&
    (event.type === 'CHANNEL_CREATE' || event.type === 'CHANNEL_UPDATE' || event.type === 'CHANNEL_DELETE')
  ) {
    // A guild channel: a private channel (a group DM the bot is in) is shown to its members whole.
    const wasHidden = session.hidden.has(event.data.id);
    const channel = channelForSession(session, view, event.data as Channel);
    if (event.type === 'CHANNEL_DELETE') session.hidden.delete(event.data.id);
    const out = [{ t: event.type, d: channel } as Dispatch];
    // Access gained to a channel: its active threads follow.
    if (event.type === 'CHANNEL_UPDATE' && wasHidden && !session.hidden.has(channel.id) && view && guildId)
      out.push({
        t: 'THREAD_LIST_SYNC',
        d: await threadListSync(reader, view, await reader.channels(guildId), [channel.id]),
      });
    return out;
  }
  return [asDispatch(event)];
}
/** CHANNEL_UPDATEs with the full channel for each hidden channel the bot can now view. */
async function revealed(session: GatewaySession, event: EventRecord, reader: GuildReader): Promise<Dispatch[]> {
  const guildId = eventGuildId(event);
  if (!guildId || session.hidden.size === 0 || (session.record.intents & INTENTS.GUILDS) === 0) return [];
  const view = await reader.view(guildId, session.record.user_id);
  if (!view?.member) return [];
  // The member update carries the roles as they are after it; the store may already be further.
  const roles =
    event.type === 'GUILD_MEMBER_UPDATE' && isSelfMemberUpdate(event, session.record.user_id)
      ? event.data.roles
      : undefined;
  const out: Dispatch[] = [];
  const channels = await reader.channels(guildId);
  for (const channel of channels) {
    if (session.hidden.has(channel.id) && canViewChannel(view, channel, roles)) {
      session.hidden.delete(channel.id);
      out.push({ t: 'CHANNEL_UPDATE', d: serializeChannel(channel) });
    }
  }
  // Access gained to channels: their active threads follow.
  if (out.length > 0)
    out.push({
      t: 'THREAD_LIST_SYNC',
      d: await threadListSync(
        reader,
        view,
        channels,
        out.map((d) => (d.d as Channel).id),
      ),
    });
  return out;
}

/**
 * The dispatches `event` becomes for `session`, in order (none when the session may not see
 * it). Updates the session's hidden channels.
 * @example const dispatches = await dispatchesFor(session, event, new GuildReader(db));
 */
export async function dispatchesFor(
  session: GatewaySession,
  event: EventRecord,
  reader: GuildReader,
): Promise<Dispatch[]> {
  const out: Dispatch[] = [];
  // The gateway's own bookkeeping (SESSIONS_INVALIDATED) is acted on, never sent; webhook-only events neither.
  if (!isDispatchEvent(event)) return out;
  // Messages reach only sessions that can view their channel, without content for bots that may not read it.
  const shown =
    (await addressed(session, event, reader)) && (await threadEventShown(session.record, event, reader))
      ? await messageEventForSession(session.record, event, reader)
      : null;
  const deliver = shown !== null && isDispatchEvent(shown);
  if (!session.record.obfuscation) return deliver ? [asDispatch(shown)] : out;
  if (deliver) out.push(...(await obfuscated(session, shown, reader)));
  if (
    PERMISSION_EVENTS.has(event.type) &&
    (event.type !== 'GUILD_MEMBER_UPDATE' || isSelfMemberUpdate(event, session.record.user_id))
  ) {
    const guildId = eventGuildId(event);
    if (guildId && session.record.guild_events && (await reader.member(guildId, session.record.user_id))) {
      out.push(...(await revealed(session, event, reader)));
    }
  }
  return out;
}
