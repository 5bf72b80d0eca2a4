/**
 * SUBSCRIBE / UNSUBSCRIBE, the scopes each event needs, and how the platform's gateway
 * dispatches become the RPC events an activity subscribed to.
 */
import { ApiError } from '../platform/core/errors';
import type { CommandContext, RpcSession } from './context';
import { SUBSCRIBABLE_EVENTS, type RpcUser, type SubscribableEvent } from './protocol';
import { SUBSCRIBE_ARGS, validateRpc } from './schemas';
import type { GatewayDispatch } from '../gateway/protocol';
import type { User } from '../store/records/core';

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
 * SUBSCRIBE: checks the event (4004), its scopes (4006), its arguments (4000) and the guild,
 * channel or lobby they name (4003, 4005). GUILD_STATUS answers the guild's current status at once.
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
  ctx.subscribe(event, key);
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

/** A user of a dispatch as the RPC protocol shows it (a dispatch may carry no more than the id). */
function rpcUser(user: Pick<User, 'id'> & Partial<User> & { public_flags?: number }): RpcUser {
  return {
    id: String(user.id),
    username: String(user.username ?? ''),
    discriminator: String(user.discriminator ?? '0'),
    global_name: user.global_name ?? null,
    avatar: user.avatar ?? null,
    bot: user.bot === true,
    flags: typeof user.public_flags === 'number' ? user.public_flags : 0,
    premium_type: typeof user.premium_type === 'number' ? user.premium_type : null,
  };
}

/**
 * The RPC events a gateway dispatch (`type`, `data`) means for the session's user and
 * application. Events about other users or applications mean nothing to this activity.
 * SPEAKING_* come from the voice server, not the gateway: see `RpcHost.speaking`. What arrives
 * from a socket is read as the dispatch wire types it; fields are still checked where a
 * missing one would otherwise be reported.
 */
export function translatePlatformEvent(type: string, data: unknown, session: RpcSession): TranslatedEvent[] {
  if (typeof data !== 'object' || data === null) return [];
  const dispatch = { t: type, d: data } as GatewayDispatch;
  const me = session.user.id;
  switch (dispatch.t) {
    case 'USER_UPDATE':
      return dispatch.d.id === me ? [{ event: 'CURRENT_USER_UPDATE', key: '', data: rpcUser(dispatch.d) }] : [];
    case 'GUILD_MEMBER_UPDATE': {
      const member = dispatch.d;
      return member.user?.id === me
        ? [
            {
              event: 'CURRENT_GUILD_MEMBER_UPDATE',
              key: String(member.guild_id),
              data: {
                user_id: me,
                guild_id: String(member.guild_id),
                nick: member.nick ?? null,
                avatar: member.avatar ?? null,
                avatar_decoration_data: null,
                color_string: null,
              },
            },
          ]
        : [];
    }
    case 'ENTITLEMENT_CREATE': {
      const entitlement = dispatch.d;
      return entitlement.user_id === me && entitlement.application_id === session.application.id
        ? [{ event: 'ENTITLEMENT_CREATE', key: '', data: { entitlement } }]
        : [];
    }
    case 'RELATIONSHIP_ADD':
    case 'RELATIONSHIP_UPDATE':
    case 'RELATIONSHIP_REMOVE': {
      const relationship = dispatch.d;
      return relationship.user
        ? [
            {
              event: 'RELATIONSHIP_UPDATE',
              key: '',
              data: {
                type: dispatch.t === 'RELATIONSHIP_REMOVE' ? 0 : Number(relationship.type ?? 0),
                user: rpcUser(relationship.user),
              },
            },
          ]
        : [];
    }
    case 'VOICE_STATE_UPDATE': {
      const state = dispatch.d;
      const member = 'member' in state ? state.member : undefined;
      return state.channel_id && state.user_id
        ? [
            {
              event: 'VOICE_STATE_UPDATE',
              key: String(state.channel_id),
              data: {
                voice_state: {
                  mute: !!state.mute,
                  deaf: !!state.deaf,
                  self_mute: !!state.self_mute,
                  self_deaf: !!state.self_deaf,
                  suppress: !!state.suppress,
                },
                user: rpcUser(member?.user ?? { id: state.user_id }),
                nick: member?.nick ?? member?.user?.username ?? '',
                volume: 100,
                mute: !!state.self_mute,
                // Not in the platform's payload: it lets an SDK tell two channels' listeners apart.
                channel_id: String(state.channel_id),
              },
            },
          ]
        : [];
    }
    default:
      return [];
  }
}

/**
 * Guilds whose GUILD_STATUS a dispatch may change (presence or member changes); `'*'` for every
 * guild, when the user's own presence changed (that dispatch names no guild), or a session of
 * theirs just connected (READY: the session's own coming online is in what it read, not in a
 * dispatch).
 */
export function guildStatusChanges(type: string, data: unknown): string[] {
  const dispatch = { t: type, d: data ?? {} } as GatewayDispatch;
  switch (dispatch.t) {
    case 'READY':
      return ['*'];
    case 'PRESENCE_UPDATE':
      if (dispatch.d.guild_id === undefined) return ['*'];
      return typeof dispatch.d.guild_id === 'string' ? [dispatch.d.guild_id] : [];
    case 'GUILD_MEMBER_ADD':
    case 'GUILD_MEMBER_REMOVE':
      return typeof dispatch.d.guild_id === 'string' ? [dispatch.d.guild_id] : [];
    default:
      return [];
  }
}
