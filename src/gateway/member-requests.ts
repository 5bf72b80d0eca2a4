/**
 * Request Guild Members (opcode 8), answered with GUILD_MEMBERS_CHUNK dispatches of at most
 * 1000 members each. Rules:
 * - all members (empty `query`, `limit` 0) needs the GUILD_MEMBERS intent; without it the
 *   request is ignored, as on the platform;
 * - from 2025-10-01 (platform clock) a bot may request all members of one guild once per 30
 *   seconds; another request within the window gets a RATE_LIMITED dispatch and no chunks.
 *   Other guilds are independent, only the request counts (chunks never do). The bucket is the
 *   requester's: the bot for a bot session, the user (of that application) for a Bearer one,
 *   so one user's requests never use up another user's;
 * - a query prefix or `user_ids` returns at most 100 members; `not_found` lists the ids that
 *   are not members;
 * - a `nonce` longer than 32 bytes is ignored: the chunks carry no nonce;
 * - `presences: true` adds the presences of the chunk's members who are not offline (a member
 *   absent from them is offline). It needs GUILD_PRESENCES: without it the platform takes it as
 *   false, and the chunks carry no `presences`.
 */
import type * as v from 'valibot';
import type { PlatformContext } from '../platform/core/context';
import { inForce, RULE_DATES } from '../platform/core/dates';
import { serializeMember } from '../platform/guilds/wire';
import { INTENTS } from '../platform/core/intents';
import {
  GUILD_MEMBERS_NONCE_MAX_BYTES,
  GUILD_MEMBERS_QUERY_MAX,
  REQUEST_ALL_MEMBERS_WINDOW_MS,
} from '../platform/core/limits';
import type { PresenceRecord } from '../store/records/presence';
import { listedPresences } from '../platform/presence/shown';
import type { MemberRecord, UserRecord } from '../store/records/core';
import { write } from '../store/write';
import type { RequestGuildMembersSchema } from './payload-schemas';
import { GATEWAY_OPCODES, type Dispatch } from './protocol';
import type { GatewaySession } from './session';
import { keyRange } from '../store/port';
import { ChunkSender, type FoundMember, presencesOf, readMemberChunks, usersOf } from './member-chunks';

type Request = v.InferOutput<typeof RequestGuildMembersSchema>;

/** The nonce to echo: dropped when longer than 32 bytes. */
export function acceptedNonce(nonce: string | undefined): string | undefined {
  if (nonce === undefined) return undefined;
  return new TextEncoder().encode(nonce).byteLength <= GUILD_MEMBERS_NONCE_MAX_BYTES ? nonce : undefined;
}

/**
 * Whose all-members bucket a session's requests use: the application for its bot (one bot per
 * application), the application and user for a user's Bearer session.
 */
export function allMembersRequester(
  session: Pick<GatewaySession['record'], 'kind' | 'application_id' | 'user_id'>,
): string {
  return session.kind === 'bot' ? session.application_id : `${session.application_id}:${session.user_id}`;
}

/**
 * Records an all-members request of `requester` ({@link allMembersRequester}) for `guildId`
 * unless one was recorded less than 30 s ago by the platform clock; resolves to the seconds
 * left to wait, or 0 when allowed.
 */
export async function takeAllMembersSlot(ctx: PlatformContext, requester: string, guildId: string): Promise<number> {
  const now = ctx.clock.now();
  return write(ctx, ['gateway_rate_limits'], async (tx) => {
    const store = tx.store('gateway_rate_limits');
    // The store's key is [application_id, guild_id]: the requester takes the first place.
    const last = await store.get([requester, guildId]);
    // A clock moved back before the last request frees the slot: the window is measured on it.
    const elapsed = last ? now - last.at : Infinity;
    if (elapsed >= 0 && elapsed < REQUEST_ALL_MEMBERS_WINDOW_MS)
      return (REQUEST_ALL_MEMBERS_WINDOW_MS - elapsed) / 1000;
    await store.put({ application_id: requester, guild_id: guildId, at: now });
    return 0;
  });
}

/** The members matching a username / global name / nickname prefix, case-insensitively. */
function matchesQuery(member: MemberRecord, user: UserRecord, query: string): boolean {
  const q = query.toLowerCase();
  return [user.username, user.global_name, member.nick].some((name) => name?.toLowerCase().startsWith(q));
}

/** What each chunk of one answer carries beside its members. */
interface ChunkExtras {
  guildId: string;
  notFound?: string[];
  /** The presences of the chunk's members who have one; absent when not asked for. */
  presences?: Map<string, PresenceRecord>;
  nonce?: string;
}

/** One GUILD_MEMBERS_CHUNK dispatch. */
function chunkDispatch(found: FoundMember[], index: number, count: number, extras: ChunkExtras): Dispatch {
  return {
    t: 'GUILD_MEMBERS_CHUNK',
    d: {
      guild_id: extras.guildId,
      members: found.map(({ member, user }) => serializeMember(member, user)),
      chunk_index: index,
      chunk_count: count,
      ...(extras.notFound ? { not_found: extras.notFound } : {}),
      ...(extras.presences
        ? {
            presences: listedPresences(
              found.map(({ user }) => user.id),
              extras.presences,
            ),
          }
        : {}),
      ...(extras.nonce !== undefined ? { nonce: extras.nonce } : {}),
    },
  };
}

/**
 * Answers a Request Guild Members through `send`: chunks, a RATE_LIMITED, or nothing. All
 * members of a guild are read and sent chunk by chunk, each chunk sent while the next is read;
 * `send` is called in order, never twice at once, with the chunks built meanwhile. The chunks
 * stop when the session has no connection any more.
 * @example await requestGuildMembers(ctx, session, { guild_id, query: '', limit: 0, nonce: 'a' }, send)
 */
export async function requestGuildMembers(
  ctx: PlatformContext,
  session: GatewaySession,
  request: Request,
  send: (dispatches: Dispatch[]) => Promise<void>,
): Promise<void> {
  const r = session.record;
  const guildId = request.guild_id;
  if (!r.guild_events || !(await ctx.db.get('members', [guildId, r.user_id]))) return;
  const nonce = acceptedNonce(request.nonce);
  const query = request.query ?? '';
  const byIds = request.user_ids === undefined ? null : [...new Set([request.user_ids].flat())];
  const all = byIds === null && query === '';
  if (all && (r.intents & INTENTS.GUILD_MEMBERS) === 0) return;
  if (all && request.limit === 0 && inForce(RULE_DATES.REQUEST_ALL_MEMBERS_LIMITED, ctx.clock.now())) {
    const retryAfter = await takeAllMembersSlot(ctx, allMembersRequester(r), guildId);
    if (retryAfter > 0) {
      return send([
        {
          t: 'RATE_LIMITED',
          d: {
            opcode: GATEWAY_OPCODES.REQUEST_GUILD_MEMBERS,
            retry_after: retryAfter,
            meta: { guild_id: guildId, ...(nonce !== undefined ? { nonce } : {}) },
          },
        },
      ]);
    }
  }
  const withPresences = request.presences === true && (r.intents & INTENTS.GUILD_PRESENCES) !== 0;
  const tx = ctx.db.read(['members', 'users', 'presences']);
  if (all) {
    const sender = new ChunkSender(send);
    await readMemberChunks(
      tx,
      guildId,
      { limit: request.limit || Infinity, presences: withPresences },
      ({ found, presences, index, count }) => {
        sender.push(chunkDispatch(found, index, count, { guildId, presences, nonce }));
        return session.sink !== null && !sender.failed;
      },
    );
    return sender.done();
  }
  let members: MemberRecord[];
  if (byIds) {
    members = (await Promise.all(byIds.map((id) => tx.store('members').get([guildId, id])))).filter(
      (m): m is MemberRecord => !!m,
    );
  } else {
    members = await tx.store('members').getAll(keyRange.bound([guildId], [guildId, []]));
  }
  const ids = members.map((m) => m.user_id);
  const users = await usersOf(tx, ids);
  const presences = withPresences ? await presencesOf(tx, ids) : undefined;
  let found = members.flatMap((m, i) => (users[i] ? [{ member: m, user: users[i]! }] : []));
  if (!byIds) found = found.filter(({ member, user }) => matchesQuery(member, user, query));
  found = found.slice(0, Math.min(request.limit || GUILD_MEMBERS_QUERY_MAX, GUILD_MEMBERS_QUERY_MAX));
  const notFound = byIds ? byIds.filter((id) => !members.some((m) => m.user_id === id)) : undefined;
  // At most 100 members: one chunk.
  return send([chunkDispatch(found, 0, 1, { guildId, notFound, presences, nonce })]);
}
