/**
 * Identify: who the token belongs to, whether the intents are valid and granted, and the new
 * session's READY followed by one GUILD_CREATE per guild, all read from one snapshot of the
 * store together with the log position the session starts dispatching after. The session counts
 * as connected for presence before that snapshot, so what it reads shows its user online.
 *
 * Presences: GUILD_CREATE lists the presences of the guild's members who are not offline for
 * sessions with GUILD_PRESENCES (and those members with them), none otherwise; READY of a
 * user's session (OAuth2) lists their friends' presences, as the platform's client gets them;
 * a bot's READY has none.
 */
import type * as v from 'valibot';
import { authenticate, type Principal } from '../platform/oauth2/auth';
import { wireApplicationFlags } from '../platform/accounts/applications';
import type { PlatformContext } from '../platform/core/context';
import { ApiError } from '../platform/core/errors';
import { serializeChannel, serializeGuild, serializeMember } from '../platform/guilds/wire';
import type { VoiceStateRecord } from '../store/records/guilds';
import { serializeVoiceState } from '../platform/voice/states';
import { ALL_INTENTS, INTENTS, PRIVILEGED_INTENTS } from '../platform/core/intents';
import { GATEWAY_LARGE_THRESHOLD_DEFAULT } from '../platform/core/limits';
import type { MemberRecord, UserRecord } from '../store/records/core';
import { serializeCurrentUser } from '../platform/accounts/users';
import type { GatewaySessionRecord } from '../store/schema';
import { channelForSession } from './dispatcher';
import type { IdentifySchema } from './payload-schemas';
import { type PresenceRecord } from '../store/records/presence';
import { listedPresences, shownPresence, type WirePresence } from '../platform/presence/shown';
import { friendIds } from '../platform/presence/write';
import { grantedPrivilegedIntents } from '../platform/accounts/privileged-intents';
import { CAPABILITY_CHANNEL_OBFUSCATION, GATEWAY_CLOSE_CODES, type Dispatch, type GatewayCloseCode } from './protocol';
import { onShard, sessionFromRecord, type GatewaySession } from './session';
import { credentialExists, credentialHash } from './session-credentials';
import type { SessionPresences } from './session-presence';
import { keyRange, type KeyRange } from '../store/port';
import { isThreadType } from '../store/records/threads';
import { activeThreadsFor } from '../platform/threads/lists';

/** The URL a client reconnects to for Resume, where the gateway is no WebSocket of its own (the browser). */
export const RESUME_GATEWAY_URL = '/gateway';

/** Identify's result: the session and its first dispatches, or the close code to close with. */
export type IdentifyOutcome =
  | { ok: true; session: GatewaySession; dispatches: Dispatch[] }
  | { ok: false; code: GatewayCloseCode; reason?: string };

/**
 * The caller a gateway token names (raw bot token, `Bot …` or `Bearer …`), or null when it is
 * unknown, expired or malformed.
 */
export async function authenticateGatewayToken(ctx: PlatformContext, token: string): Promise<Principal | null> {
  try {
    return await authenticate(ctx, token, true);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** Validates Identify's `intents`; bots must send them, OAuth2 sessions default to none. */
function parseIntents(value: unknown, principal: Principal): number | null {
  if (value === undefined) return principal.kind === 'bearer' ? 0 : null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0x7fffffff) return null;
  return (value & ~ALL_INTENTS) === 0 ? value : null;
}

/** Validates Identify's `shard`: `[shard_id, num_shards]` with `0 <= shard_id < num_shards`; null is none. */
function parseShard(value: unknown): [number, number] | null | false {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isInteger(n))) return false;
  const [id, count] = value as [number, number];
  return count >= 1 && id >= 0 && id < count ? [id, count] : false;
}

/** A new session id: 32 hex characters, as the platform's. */
function newSessionId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** How Identify marks the session connected for presence, and unmarks it when Identify fails after all. */
export type IdentifyPresence = Pick<SessionPresences, 'connected' | 'disconnected'>;

/**
 * Runs Identify. `version` is the gateway version from the connection's URL.
 * @example const outcome = await identifySession(ctx, d, 10, presences);
 */
export async function identifySession(
  ctx: PlatformContext,
  d: v.InferOutput<typeof IdentifySchema>,
  version: number,
  presence?: IdentifyPresence,
  /** READY's `resume_gateway_url` (default {@link RESUME_GATEWAY_URL}; a server names its own WebSocket URL). */
  resumeGatewayUrl: string = RESUME_GATEWAY_URL,
): Promise<IdentifyOutcome> {
  const principal = await authenticateGatewayToken(ctx, d.token);
  if (!principal) return { ok: false, code: GATEWAY_CLOSE_CODES.AUTHENTICATION_FAILED };
  const intents = parseIntents(d.intents, principal);
  if (intents === null) return { ok: false, code: GATEWAY_CLOSE_CODES.INVALID_INTENTS };
  const shard = parseShard(d.shard);
  if (shard === false) return { ok: false, code: GATEWAY_CLOSE_CODES.INVALID_SHARD };
  const privileged = intents & PRIVILEGED_INTENTS;
  if (privileged && (privileged & ~(await grantedPrivilegedIntents(ctx.db, principal.application))) !== 0) {
    return { ok: false, code: GATEWAY_CLOSE_CODES.DISALLOWED_INTENTS };
  }
  const capabilities = d.capabilities ?? 0;
  const record: GatewaySessionRecord = {
    session_id: newSessionId(),
    kind: principal.kind,
    user_id: principal.user.id,
    application_id: principal.application.id,
    intents,
    capabilities,
    shard,
    large_threshold: d.large_threshold ?? GATEWAY_LARGE_THRESHOLD_DEFAULT,
    guild_events: principal.kind === 'bot' || principal.scopes.has('guilds'),
    obfuscation:
      principal.kind === 'bot' &&
      ((capabilities & CAPABILITY_CHANNEL_OBFUSCATION) !== 0 || principal.application.channel_obfuscation),
    seq: 0,
    log_seq: 0,
    hidden_channel_ids: [],
    created_at: ctx.clock.now(),
    token_hash: credentialHash(principal),
  };
  const session = sessionFromRecord(record);
  await presence?.connected(record, d.presence ?? undefined);
  const { guildCreates, friendPresences } = await readInitialState(ctx, session);
  // A token deleted after it was checked but before the snapshot's log position would never be
  // questioned by the log: look again (deletions are final, so once is enough).
  if (!(await credentialExists(ctx.db, record))) {
    presence?.disconnected(record);
    return { ok: false, code: GATEWAY_CLOSE_CODES.AUTHENTICATION_FAILED };
  }
  const ready: Dispatch = {
    t: 'READY',
    d: {
      v: version,
      user: serializeCurrentUser(principal),
      guilds: guildCreates.map((g) => ({ id: (g.d as { id: string }).id, unavailable: true })),
      session_id: record.session_id,
      session_type: 'normal',
      resume_gateway_url: resumeGatewayUrl,
      private_channels: [],
      ...(friendPresences ? { presences: friendPresences } : {}),
      application: { id: principal.application.id, flags: wireApplicationFlags(principal.application).flags },
      ...(shard ? { shard } : {}),
    },
  };
  return { ok: true, session, dispatches: [ready, ...guildCreates] };
}

/** What {@link guildVoiceStates} reads, inside the snapshot's transaction. */
interface VoiceStateReads {
  states(range: KeyRange): Promise<VoiceStateRecord[]>;
  member(key: [string, string]): Promise<MemberRecord | undefined>;
  user(id: string): Promise<UserRecord | undefined>;
}

/** What {@link onlineMemberIds} reads of the members store (keyed `[guild_id, user_id]`). */
interface MemberKeys {
  getKey(key: [string, string]): Promise<unknown>;
  getAllKeys(range: KeyRange): Promise<[string, string][]>;
}

/**
 * The members of a guild of `count` members that may be online (`onlineIds`: every user the
 * platform shows online), found from the smaller side: a membership lookup per online user, or
 * the guild's member keys when the guild is the smaller.
 */
async function onlineMemberIds(
  members: MemberKeys,
  guildId: string,
  count: number,
  onlineIds: string[],
): Promise<string[]> {
  if (onlineIds.length < count) {
    const keys = await Promise.all(onlineIds.map((id) => members.getKey([guildId, id])));
    return onlineIds.filter((_, i) => keys[i] !== undefined);
  }
  return (await members.getAllKeys(keyRange.bound([guildId], [guildId, []]))).map((k) => k[1]);
}

/**
 * The guild's voice states as GUILD_CREATE lists them (for sessions with GUILD_VOICE_STATES):
 * the voice state object without `guild_id`, each with its member, as the public API has it.
 */
async function guildVoiceStates(reads: VoiceStateReads, guildId: string) {
  const states = await reads.states(keyRange.bound([guildId], [guildId, []]));
  const listed = await Promise.all(
    states.map(async (state) => {
      const [member, user] = await Promise.all([reads.member([guildId, state.user_id]), reads.user(state.user_id)]);
      if (!member || !user) return [];
      const { guild_id: _guild, ...wire } = serializeVoiceState(state, member, user);
      return [wire];
    }),
  );
  return listed.flat();
}

/**
 * One snapshot of the store: the log position (so no later event is missed or sent twice), a
 * GUILD_CREATE for each guild of the session's user on its shard, and for a user's session
 * their friends' presences. Members are listed in full for sessions with GUILD_MEMBERS when the
 * guild is not larger than `large_threshold`; otherwise the session's own member, and with
 * GUILD_PRESENCES the members who are online (the rest is what Request Guild Members is for).
 */
async function readInitialState(
  ctx: PlatformContext,
  session: GatewaySession,
): Promise<{ guildCreates: Dispatch[]; friendPresences: WirePresence[] | null }> {
  const r = session.record;
  const tx = ctx.db.read([
    'events',
    'guilds',
    'roles',
    'channels',
    'members',
    'users',
    'presences',
    'relationships',
    'voice_states',
    'thread_members',
  ]);
  const withVoiceStates = (r.intents & INTENTS.GUILD_VOICE_STATES) !== 0;
  const [newest] = await tx.store('events').getAllKeys(null, 1, 'prev');
  r.log_seq = newest ?? 0;
  const withPresences = (r.intents & INTENTS.GUILD_PRESENCES) !== 0;
  const friends = r.kind === 'bearer' ? await friendIds(tx, r.user_id) : null;
  const presences =
    withPresences || friends?.length
      ? new Map((await tx.store('presences').getAll()).map((p) => [p.user_id, p] as const))
      : new Map<string, PresenceRecord>();
  const onlineIds = [...presences.values()].filter((p) => shownPresence(p).status !== 'offline').map((p) => p.user_id);
  const memberships = r.guild_events ? await tx.store('members').index('by_user').getAll(r.user_id) : [];
  const guilds = await Promise.all(
    memberships
      .filter((m) => onShard(r.shard, m.guild_id))
      .map(async (own) => {
        const range = keyRange.bound([own.guild_id], [own.guild_id, []]);
        const [guild, roles, channels, count, self] = await Promise.all([
          tx.store('guilds').get(own.guild_id),
          tx.store('roles').index('by_guild').getAll(own.guild_id),
          tx.store('channels').index('by_guild').getAll(own.guild_id),
          tx.store('members').count(range),
          tx.store('users').get(r.user_id),
        ]);
        const online = withPresences
          ? listedPresences(await onlineMemberIds(tx.store('members'), own.guild_id, count, onlineIds), presences)
          : [];
        const listAll = (r.intents & INTENTS.GUILD_MEMBERS) !== 0 && count <= r.large_threshold;
        const onlineOthers = online.filter((p) => p.user.id !== r.user_id);
        const members: MemberRecord[] = listAll
          ? await tx.store('members').getAll(range)
          : [
              own,
              ...(
                await Promise.all(onlineOthers.map((p) => tx.store('members').get([own.guild_id, p.user.id])))
              ).filter((m): m is MemberRecord => !!m),
            ];
        const users = await Promise.all(
          members.map((m) => (m.user_id === r.user_id ? self : tx.store('users').get(m.user_id))),
        );
        const voiceStates = withVoiceStates
          ? await guildVoiceStates(
              {
                states: (range) => tx.store('voice_states').getAll(range),
                member: (key) => tx.store('members').get(key),
                user: (id) => tx.store('users').get(id),
              },
              own.guild_id,
            )
          : [];
        const threads = !guild
          ? []
          : await activeThreadsFor(
              { guild, roles, userId: r.user_id, member: own },
              channels,
              (id) => tx.store('thread_members').get([id, r.user_id]),
              ctx.clock.now(),
            );
        return { own, guild, roles, channels, count, members, users, online, voiceStates, threads };
      }),
  );
  const guildCreates = guilds
    .filter((g) => g.guild)
    .map(({ own, guild, roles, channels, count, members, users, online, voiceStates, threads }) => {
      const view = { guild: guild!, roles, userId: r.user_id, member: own };
      const wire = channels.filter((c) => !isThreadType(c.type)).map(serializeChannel);
      return {
        t: 'GUILD_CREATE' as const,
        d: {
          ...serializeGuild(guild!, roles),
          channels: r.obfuscation ? wire.map((c) => channelForSession(session, view, c)) : wire,
          members: members.flatMap((m, i) => (users[i] ? [serializeMember(m, users[i] as UserRecord)] : [])),
          member_count: count,
          joined_at: new Date(own.joined_at).toISOString(),
          large: count > r.large_threshold,
          unavailable: false,
          voice_states: voiceStates,
          presences: online,
          threads,
          stage_instances: [],
          guild_scheduled_events: [],
        },
      };
    });
  return { guildCreates, friendPresences: friends && listedPresences(friends, presences) };
}
