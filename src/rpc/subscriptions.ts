/**
 * SUBSCRIBE / UNSUBSCRIBE, the scopes each event needs, and how the platform's gateway
 * dispatches become the RPC events an activity subscribed to.
 */
import { ApiError } from '../platform/core/errors';
import type { CommandContext, RpcSession } from './context';
import { SUBSCRIBABLE_EVENTS, type RpcUser, type SubscribableEvent } from './protocol';
import { SUBSCRIBE_ARGS, validateRpc } from './schemas';
import { claimActivityJoin, currentThermalState, questEnrollmentEvent, questStatusEvent } from './client-commands';

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

/** An RPC event a platform dispatch turns into, for the subscriptions of `key`. */
export interface TranslatedEvent {
  event: SubscribableEvent;
  key: string;
  data: unknown;
}

function rpcUser(user: Record<string, unknown>): RpcUser {
  return {
    id: String(user.id),
    username: String(user.username ?? ''),
    discriminator: String(user.discriminator ?? '0'),
    global_name: (user.global_name as string | null | undefined) ?? null,
    avatar: (user.avatar as string | null | undefined) ?? null,
    bot: user.bot === true,
    flags: typeof user.public_flags === 'number' ? user.public_flags : 0,
    premium_type: typeof user.premium_type === 'number' ? user.premium_type : null,
  };
}

/**
 * The RPC events a gateway dispatch (`type`, `data`) means for the session's user and
 * application. Events about other users or applications mean nothing to this activity.
 * SPEAKING_* come from the voice server, not the gateway: see `RpcHost.speaking`.
 */
export function translatePlatformEvent(type: string, data: unknown, session: RpcSession): TranslatedEvent[] {
  if (typeof data !== 'object' || data === null) return [];
  const d = data as Record<string, any>;
  const me = session.user.id;
  switch (type) {
    case 'USER_UPDATE':
      return d.id === me ? [{ event: 'CURRENT_USER_UPDATE', key: '', data: rpcUser(d) }] : [];
    case 'GUILD_MEMBER_UPDATE':
      return d.user?.id === me
        ? [
            {
              event: 'CURRENT_GUILD_MEMBER_UPDATE',
              key: String(d.guild_id),
              data: {
                user_id: me,
                guild_id: String(d.guild_id),
                nick: d.nick ?? null,
                avatar: d.avatar ?? null,
                avatar_decoration_data: null,
                color_string: null,
              },
            },
          ]
        : [];
    case 'ENTITLEMENT_CREATE':
      return d.user_id === me && d.application_id === session.application.id
        ? [{ event: 'ENTITLEMENT_CREATE', key: '', data: { entitlement: d } }]
        : [];
    case 'RELATIONSHIP_ADD':
    case 'RELATIONSHIP_UPDATE':
    case 'RELATIONSHIP_REMOVE':
      return d.user
        ? [
            {
              event: 'RELATIONSHIP_UPDATE',
              key: '',
              data: { type: type === 'RELATIONSHIP_REMOVE' ? 0 : Number(d.type ?? 0), user: rpcUser(d.user) },
            },
          ]
        : [];
    case 'THERMAL_STATE_UPDATE':
      return d.user_id === me
        ? [{ event: 'THERMAL_STATE_UPDATE', key: '', data: { thermal_state: d.thermal_state } }]
        : [];
    case 'QUEST_ENROLLMENT_STATUS_UPDATE': {
      if (d.user_id !== me || d.application_id !== session.application.id || !d.is_enrolled || !d.enrolled_at)
        return [];
      const data = questEnrollmentEvent(String(d.quest_id), String(d.enrolled_at));
      // Subscriptions of this quest and of every quest.
      return [String(d.quest_id), ''].map((key) => ({ event: 'QUEST_ENROLLMENT_STATUS_UPDATE' as const, key, data }));
    }
    case 'VOICE_STATE_UPDATE':
      return d.channel_id && d.user_id
        ? [
            {
              event: 'VOICE_STATE_UPDATE',
              key: String(d.channel_id),
              data: {
                voice_state: {
                  mute: !!d.mute,
                  deaf: !!d.deaf,
                  self_mute: !!d.self_mute,
                  self_deaf: !!d.self_deaf,
                  suppress: !!d.suppress,
                },
                user: rpcUser(d.member?.user ?? { id: d.user_id }),
                nick: d.member?.nick ?? d.member?.user?.username ?? '',
                volume: 100,
                mute: !!d.self_mute,
                // Not in the platform's payload: it lets an SDK tell two channels' listeners apart.
                channel_id: String(d.channel_id),
              },
            },
          ]
        : [];
    default:
      return [];
  }
}

/**
 * Guilds whose GUILD_STATUS a dispatch may change (presence or guild updates); `'*'` for every
 * guild, when the user's own presence changed (that dispatch names no guild), or a session of
 * theirs just connected (READY: the session's own coming online is in what it read, not in a
 * dispatch).
 */
export function guildStatusChanges(type: string, data: unknown): string[] {
  const d = (data ?? {}) as Record<string, unknown>;
  if (type === 'READY' || (type === 'PRESENCE_UPDATE' && d.guild_id === undefined)) return ['*'];
  if (
    (type === 'PRESENCE_UPDATE' || type === 'GUILD_MEMBER_ADD' || type === 'GUILD_MEMBER_REMOVE') &&
    typeof d.guild_id === 'string'
  )
    return [d.guild_id];
  if (type === 'GUILD_UPDATE' && typeof d.id === 'string') return [d.id];
  return [];
}
