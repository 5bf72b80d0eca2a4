/**
 * SUBSCRIBE / UNSUBSCRIBE and the scopes each event needs (how the platform's dispatches become
 * the events an activity subscribed to is `platform-dispatches.ts`).
 */
import { ApiError } from '../platform/core/errors';
import type { CommandContext, RpcSession } from './context';
import { SUBSCRIBABLE_EVENTS, type SubscribableEvent } from './protocol';
import { SUBSCRIBE_ARGS, validateRpc } from './schemas';
import { claimActivityJoin, currentThermalState, questStatusEvent } from './client-commands';

/** Scopes each event needs (the platform's public embedded-app SDK documents them per event). */
export const EVENT_SCOPES: Readonly<Record<SubscribableEvent, readonly string[]>> = {
  GUILD_STATUS: ['guilds'],
  VOICE_STATE_UPDATE: ['rpc.voice.read'],
  SPEAKING_START: ['rpc.voice.read'],
  SPEAKING_STOP: ['rpc.voice.read'],
  CURRENT_USER_UPDATE: ['identify'],
  CURRENT_GUILD_MEMBER_UPDATE: ['identify', 'guilds.members.read'],
  ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE: [],
  ENTITLEMENT_CREATE: [],
  ACTIVITY_LAYOUT_MODE_UPDATE: [],
  ORIENTATION_UPDATE: [],
  RELATIONSHIP_UPDATE: ['relationships.read'],
  THERMAL_STATE_UPDATE: [],
  ACTIVITY_JOIN: [],
  QUEST_ENROLLMENT_STATUS_UPDATE: ['identify'],
};

function rpcError(name: Parameters<typeof ApiError.of>[0], detail: string): ApiError {
  return ApiError.of(name, `${ApiError.of(name).message}: ${detail}`);
}

/** Throws 4006 unless the session holds every scope in `scopes`. */
export function requireScopes(session: RpcSession | null, scopes: readonly string[], what: string): void {
  if (!session)
    throw rpcError('RPC_INVALID_PERMISSIONS', `${what} needs an authenticated session: send AUTHENTICATE first`);
  const missing = scopes.filter((s) => !session.scopes.has(s));
  if (missing.length > 0) throw rpcError('RPC_INVALID_PERMISSIONS', `${what} needs the scope(s) ${missing.join(', ')}`);
}

/** Throws 4006 unless the session holds at least one of `scopes` (none asked: nothing to check). */
export function requireAnyScope(session: RpcSession | null, scopes: readonly string[] | undefined, what: string): void {
  if (!scopes || scopes.length === 0 || !session) return;
  if (!scopes.some((s) => session.scopes.has(s)))
    throw rpcError('RPC_INVALID_PERMISSIONS', `${what} needs one of the scopes ${scopes.join(', ')}`);
}

function subscribableEvent(evt: string | null): SubscribableEvent {
  if (!evt) throw rpcError('RPC_INVALID_EVENT', 'evt is required');
  if (!(SUBSCRIBABLE_EVENTS as readonly string[]).includes(evt))
    throw rpcError('RPC_INVALID_EVENT', `${evt} is not an event an activity can subscribe to`);
  return evt as SubscribableEvent;
}

/**
 * Which guild, channel or lobby a subscription is for: '' when the event has no arguments.
 * SPEAKING_* without a channel or lobby are for the frame's own channel (`frameChannel`).
 */
function subscriptionKey(event: SubscribableEvent, args: Record<string, unknown>, frameChannel: string): string {
  const value = (name: string) => (typeof args[name] === 'string' ? (args[name] as string) : '');
  switch (event) {
    case 'GUILD_STATUS':
    case 'CURRENT_GUILD_MEMBER_UPDATE':
      return value('guild_id');
    case 'VOICE_STATE_UPDATE':
      return value('channel_id');
    case 'SPEAKING_START':
    case 'SPEAKING_STOP':
      return value('lobby_id') ? `lobby:${value('lobby_id')}` : `channel:${value('channel_id') || frameChannel}`;
    case 'QUEST_ENROLLMENT_STATUS_UPDATE':
      return value('quest_id');
    default:
      return '';
  }
}

/** The guild must be one the user is in: anything else is an invalid guild. */
async function checkGuild(ctx: CommandContext, guildId: string) {
  try {
    return await ctx.platform.guildStatus(ctx.session!.access_token, guildId);
  } catch (error) {
    if (error instanceof ApiError && error.code === ApiError.of('RPC_INVALID_PERMISSIONS').code)
      throw rpcError('RPC_INVALID_GUILD', 'the user is not in this guild');
    throw error;
  }
}

/** `lookup` must succeed: a refusal to see what it asks for is an invalid channel, saying `why`. */
async function requireVisible(lookup: Promise<unknown>, why: string): Promise<void> {
  try {
    await lookup;
  } catch (error) {
    if (error instanceof ApiError && error.code === ApiError.of('RPC_INVALID_PERMISSIONS').code)
      throw rpcError('RPC_INVALID_CHANNEL', why);
    throw error;
  }
}

/** The channel must be one the user can view: anything else is an invalid channel. */
function checkChannel(ctx: CommandContext, channelId: string): Promise<void> {
  return requireVisible(
    ctx.platform.channel(ctx.session!.access_token, channelId),
    'the user cannot view this channel',
  );
}

/** The lobby must be one the user is a member of: anything else is an invalid channel (a lobby call is its channel). */
function checkLobby(ctx: CommandContext, lobbyId: string): Promise<void> {
  return requireVisible(
    ctx.platform.lobby(ctx.session!.access_token, lobbyId),
    'the user is not a member of this lobby',
  );
}

/**
 * What an event is now, dispatched when the activity subscribes, as the platform's client does:
 * the device's thermal state, the quest's enrollment (when enrolled: the public SDK's schema
 * takes nothing else), and a join the user made before the activity listened.
 */
async function currentState(ctx: CommandContext, event: SubscribableEvent, key: string): Promise<unknown> {
  if (event === 'THERMAL_STATE_UPDATE') return { thermal_state: await currentThermalState(ctx) };
  if (event === 'QUEST_ENROLLMENT_STATUS_UPDATE' && key) return questStatusEvent(ctx, key);
  if (event === 'ACTIVITY_JOIN') return claimActivityJoin(ctx);
  return null;
}

/**
 * SUBSCRIBE: checks the event (4004), its scopes (4006), its arguments (4000) and the guild,
 * channel or lobby they name (4003, 4005). GUILD_STATUS answers the guild's current status at
 * once, and so do THERMAL_STATE_UPDATE, QUEST_ENROLLMENT_STATUS_UPDATE (for one quest) and
 * ACTIVITY_JOIN (a join waiting for the activity) when there is something to say.
 */
export async function subscribe(ctx: CommandContext, evt: string | null, rawArgs: unknown): Promise<{ evt: string }> {
  const event = subscribableEvent(evt);
  requireScopes(ctx.session, EVENT_SCOPES[event], `SUBSCRIBE ${event}`);
  const args = validateRpc(SUBSCRIBE_ARGS[event], rawArgs) as Record<string, unknown>;
  const key = subscriptionKey(event, args, ctx.frame.channel_id);
  if (event === 'GUILD_STATUS') {
    const status = await checkGuild(ctx, key);
    ctx.subscribe(event, key);
    ctx.dispatch(event, status, key);
    return { evt: event };
  }
  if (event === 'CURRENT_GUILD_MEMBER_UPDATE') await checkGuild(ctx, key);
  if (event === 'VOICE_STATE_UPDATE' || key.startsWith('channel:'))
    await checkChannel(ctx, key.replace(/^channel:/, ''));
  if (key.startsWith('lobby:')) await checkLobby(ctx, key.slice('lobby:'.length));
  const now = await currentState(ctx, event, key);
  ctx.subscribe(event, key);
  if (now) ctx.dispatch(event, now, key);
  return { evt: event };
}

/** UNSUBSCRIBE: stops the event (for the guild or channel named); unknown events are 4004. */
export async function unsubscribe(ctx: CommandContext, evt: string | null, rawArgs: unknown): Promise<{ evt: string }> {
  const event = subscribableEvent(evt);
  const args = validateRpc(SUBSCRIBE_ARGS[event], rawArgs) as Record<string, unknown>;
  ctx.unsubscribe(event, subscriptionKey(event, args, ctx.frame.channel_id));
  return { evt: event };
}
