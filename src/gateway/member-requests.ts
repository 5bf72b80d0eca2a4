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
  GUILD_MEMBERS_CHUNK_MAX,
  GUILD_MEMBERS_NONCE_MAX_BYTES,
  GUILD_MEMBERS_QUERY_MAX,
  REQUEST_ALL_MEMBERS_WINDOW_MS,
} from '../platform/core/limits';
import { type PresenceRecord } from '../store/records/presence';
import { listedPresences } from '../platform/presence/shown';
import type { MemberRecord, UserRecord } from '../store/records/core';
import { write } from '../store/write';
import type { RequestGuildMembersSchema } from './payload-schemas';
import { GATEWAY_OPCODES, type Dispatch } from './protocol';
import type { GatewaySession } from './session';
import { keyRange } from '../store/port';
import type { ReadTx } from '../store/schema';

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

/** Users read per range when a request reads many: consecutive ids in key order. */
const USERS_PER_RANGE = 500;
/** A range read returns at most this many times as many users as it looks for. */
const RANGE_SPREAD = 4;

/**
 * The user records of `ids` (in that order), read in `tx`. A few ids are read one by one; many
 * are sorted into runs of {@link USERS_PER_RANGE} and each run is one range read, so that all
 * members of a large guild cost a few hundred reads instead of one per member. A run whose
 * range holds many other users is read only up to {@link RANGE_SPREAD} times its size, and the
 * ids past that are read one by one.
 */
async function usersOf(tx: ReadTx, ids: readonly string[]): Promise<(UserRecord | undefined)[]> {
  const users = tx.store('users');
  if (ids.length <= USERS_PER_RANGE) return Promise.all(ids.map((id) => users.get(id)));
  const sorted = [...new Set(ids)].sort();
  const found = new Map<string, UserRecord>();
  const runs: Promise<void>[] = [];
  for (let i = 0; i < sorted.length; i += USERS_PER_RANGE) {
    const run = sorted.slice(i, i + USERS_PER_RANGE);
    const cap = run.length * RANGE_SPREAD;
    runs.push(
      users.getAll(keyRange.bound(run[0], run[run.length - 1]), cap).then(async (records) => {
        for (const user of records) found.set(user.id, user);
        if (records.length < cap) return;
        const last = records[records.length - 1].id;
        const rest = run.filter((id) => id > last);
        for (const [k, user] of (await Promise.all(rest.map((id) => users.get(id)))).entries())
          if (user) found.set(rest[k], user);
      }),
    );
  }
  await Promise.all(runs);
  return ids.map((id) => found.get(id));
}

/** The members matching a username / global name / nickname prefix, case-insensitively. */
function matchesQuery(member: MemberRecord, user: UserRecord, query: string): boolean {
  const q = query.toLowerCase();
  return [user.username, user.global_name, member.nick].some((name) => name?.toLowerCase().startsWith(q));
}

/**
 * The dispatches answering a Request Guild Members: chunks, a RATE_LIMITED, or nothing.
 * @example await requestGuildMembers(ctx, session, { guild_id, query: '', limit: 0, nonce: 'a' })
 */
export async function requestGuildMembers(
  ctx: PlatformContext,
  session: GatewaySession,
  request: Request,
): Promise<Dispatch[]> {
  const r = session.record;
  const guildId = request.guild_id;
  if (!r.guild_events || !(await ctx.db.get('members', [guildId, r.user_id]))) return [];
  const nonce = acceptedNonce(request.nonce);
  const query = request.query ?? '';
  const byIds = request.user_ids === undefined ? null : [...new Set([request.user_ids].flat())];
  const all = byIds === null && query === '';
  if (all && (r.intents & INTENTS.GUILD_MEMBERS) === 0) return [];
  if (all && request.limit === 0 && inForce(RULE_DATES.REQUEST_ALL_MEMBERS_LIMITED, ctx.clock.now())) {
    const retryAfter = await takeAllMembersSlot(ctx, allMembersRequester(r), guildId);
    if (retryAfter > 0) {
      return [
        {
          t: 'RATE_LIMITED',
          d: {
            opcode: GATEWAY_OPCODES.REQUEST_GUILD_MEMBERS,
            retry_after: retryAfter,
            meta: { guild_id: guildId, ...(nonce !== undefined ? { nonce } : {}) },
          },
        },
      ];
    }
  }
  const withPresences = request.presences === true && (r.intents & INTENTS.GUILD_PRESENCES) !== 0;
  const tx = ctx.db.read(['members', 'users', 'presences']);
  let members: MemberRecord[];
  if (byIds) {
    members = (await Promise.all(byIds.map((id) => tx.store('members').get([guildId, id])))).filter(
      (m): m is MemberRecord => !!m,
    );
  } else {
    members = await tx.store('members').getAll(keyRange.bound([guildId], [guildId, []]));
  }
  const users = await usersOf(
    tx,
    members.map((m) => m.user_id),
  );
  const presences = new Map<string, PresenceRecord>();
  if (withPresences) {
    for (const p of await Promise.all(members.map((m) => tx.store('presences').get(m.user_id))))
      if (p) presences.set(p.user_id, p);
  }
  let found = members.flatMap((m, i) => (users[i] ? [{ member: m, user: users[i]! }] : []));
  if (!byIds && query !== '') found = found.filter(({ member, user }) => matchesQuery(member, user, query));
  const cap = all
    ? request.limit || Infinity
    : Math.min(request.limit || GUILD_MEMBERS_QUERY_MAX, GUILD_MEMBERS_QUERY_MAX);
  found = found.slice(0, cap);
  const notFound = byIds ? byIds.filter((id) => !members.some((m) => m.user_id === id)) : undefined;
  const count = Math.max(1, Math.ceil(found.length / GUILD_MEMBERS_CHUNK_MAX));
  return Array.from({ length: count }, (_, index) => {
    const chunk = found.slice(index * GUILD_MEMBERS_CHUNK_MAX, (index + 1) * GUILD_MEMBERS_CHUNK_MAX);
    return {
      t: 'GUILD_MEMBERS_CHUNK',
      d: {
        guild_id: guildId,
        members: chunk.map(({ member, user }) => serializeMember(member, user)),
        chunk_index: index,
        chunk_count: count,
        ...(notFound ? { not_found: notFound } : {}),
        ...(withPresences
          ? {
              presences: listedPresences(
                chunk.map(({ user }) => user.id),
                presences,
              ),
            }
          : {}),
        ...(nonce !== undefined ? { nonce } : {}),
      },
    };
  });
}
