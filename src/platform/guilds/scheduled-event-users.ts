/**
 * Users interested in a guild scheduled event (the platform's RSVP): `GET .../users` (pages of at
 * most 100 by user id, `before` / `after`, members with `with_member`), `GET .../users/counts`,
 * and the sandbox control that stands for a user pressing "Interested" in the platform's client
 * (`PUT` / `DELETE /sandbox/guilds/{guild.id}/scheduled-events/{id}/users/{user.id}`). Each
 * change emits GUILD_SCHEDULED_EVENT_USER_ADD / REMOVE to the GUILD_SCHEDULED_EVENTS intent.
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import { keyRange } from '../../store/port';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import type { ScheduledEventUserRecord } from '../../store/records/guilds';
import { dbReader, loadGuildView, requireMember } from './access';
import { serializeMember } from './wire';
import { serializeUser } from '../accounts/users';

/** A user id as a key that sorts in id order (20 digits). */
const orderKey = (userId: string) => userId.padStart(20, '0');

/** Every interested user of an event: the key range of its records. */
export function eventUserRange(eventId: string) {
  return keyRange.bound([eventId, ''], [eventId, '\uffff']);
}

/** The query of a users page. */
export interface ScheduledEventUsersQuery {
  limit: number;
  with_member: boolean;
  before?: string;
  after?: string;
}

/** The event of a guild the caller is a member of, or 404 (10070). */
async function readableEvent(ctx: PlatformContext, principal: Principal, guildId: string, eventId: string) {
  requireMember(await loadGuildView(dbReader(ctx.db), guildId, principal.user.id));
  const event = await ctx.db.get('guild_scheduled_events', eventId);
  if (!event || event.guild_id !== guildId) throw ApiError.of('UNKNOWN_GUILD_SCHEDULED_EVENT');
  return event;
}

/**
 * `GET /guilds/{guild.id}/scheduled-events/{id}/users`: interested users in user id order; with
 * `before` the page is the `limit` users just below it, else those just above `after` (or the
 * first). `member` is added for users still in the guild when `with_member` is set.
 */
export async function listScheduledEventUsers(
  ctx: PlatformContext,
  principal: Principal,
  guildId: string,
  eventId: string,
  query: ScheduledEventUsersQuery,
) {
  await readableEvent(ctx, principal, guildId, eventId);
  const tx = ctx.db.read(['guild_scheduled_event_users', 'users', 'members']);
  const store = tx.store('guild_scheduled_event_users');
  const records =
    query.before !== undefined
      ? (
          await store.getAll(
            keyRange.bound([eventId, ''], [eventId, orderKey(query.before)], false, true),
            query.limit,
            'prev',
          )
        ).reverse()
      : await store.getAll(
          keyRange.bound(
            [eventId, query.after ? orderKey(query.after) : ''],
            [eventId, '\uffff'],
            query.after !== undefined,
            false,
          ),
          query.limit,
        );
  const rows = await Promise.all(
    records.map(async (r) => {
      const user = await tx.store('users').get(r.user_id);
      if (!user) return [];
      const member = query.with_member ? await tx.store('members').get([guildId, r.user_id]) : undefined;
      return [
        {
          guild_scheduled_event_id: eventId,
          user_id: r.user_id,
          user: serializeUser(user),
          ...(member ? { member: serializeMember(member, user) } : {}),
          response: 1 as const,
        },
      ];
    }),
  );
  return rows.flat();
}

/**
 * `GET /guilds/{guild.id}/scheduled-events/{id}/users/counts`: the interested users; the
 * exception counts are empty (events here are one-time, so they have no exceptions).
 */
export async function countScheduledEventUsers(
  ctx: PlatformContext,
  principal: Principal,
  guildId: string,
  eventId: string,
) {
  await readableEvent(ctx, principal, guildId, eventId);
  const count = await ctx.db
    .read(['guild_scheduled_event_users'])
    .store('guild_scheduled_event_users')
    .count(eventUserRange(eventId));
  return { guild_scheduled_event_count: count, guild_scheduled_event_exception_counts: {} };
}

/**
 * Sandbox: a member marks (`interested`) or unmarks their interest in an event. Marking needs an
 * event that is scheduled or active (a finished one is 180000); doing what is already done
 * changes nothing and emits nothing.
 * @example await setScheduledEventInterest(ctx, guildId, eventId, userId, true);
 */
export async function setScheduledEventInterest(
  ctx: PlatformContext,
  guildId: string,
  eventId: string,
  userId: string,
  interested: boolean,
): Promise<void> {
  await write(ctx, ['guilds', 'members', 'guild_scheduled_events', 'guild_scheduled_event_users'], async (tx, emit) => {
    if (!(await tx.store('guilds').get(guildId))) throw ApiError.of('UNKNOWN_GUILD');
    const event = await tx.store('guild_scheduled_events').get(eventId);
    if (!event || event.guild_id !== guildId) throw ApiError.of('UNKNOWN_GUILD_SCHEDULED_EVENT');
    const key: [string, string] = [eventId, orderKey(userId)];
    const existing = await tx.store('guild_scheduled_event_users').get(key);
    if (!interested) {
      if (!existing) return;
      await tx.store('guild_scheduled_event_users').delete(key);
      emitInterest(emit, 'GUILD_SCHEDULED_EVENT_USER_REMOVE', existing);
      return;
    }
    if (!(await tx.store('members').get([guildId, userId]))) throw ApiError.of('UNKNOWN_MEMBER');
    if (event.status > 2) throw ApiError.of('CANNOT_UPDATE_FINISHED_EVENT');
    if (existing) return;
    const record: ScheduledEventUserRecord = {
      guild_scheduled_event_id: eventId,
      guild_id: guildId,
      user_id: userId,
      order_key: orderKey(userId),
    };
    await tx.store('guild_scheduled_event_users').add(record);
    emitInterest(emit, 'GUILD_SCHEDULED_EVENT_USER_ADD', record);
  });
}

function emitInterest(
  emit: Emit,
  type: 'GUILD_SCHEDULED_EVENT_USER_ADD' | 'GUILD_SCHEDULED_EVENT_USER_REMOVE',
  record: ScheduledEventUserRecord,
): void {
  emit({
    type,
    data: {
      guild_scheduled_event_id: record.guild_scheduled_event_id,
      user_id: record.user_id,
      guild_id: record.guild_id,
    },
    audience: { guild_id: record.guild_id, intent: INTENTS.GUILD_SCHEDULED_EVENTS },
  });
}

/**
 * Inside a write that removes a member (its stores include `guild_scheduled_event_users`): the
 * member's interests in the guild's events go with them, each with its USER_REMOVE.
 */
export async function dropInterestsOfLeaver(tx: WriteTx, emit: Emit, guildId: string, userId: string): Promise<void> {
  const store = tx.store('guild_scheduled_event_users');
  const records = await store.index('by_guild_user').getAll([guildId, userId]);
  for (const record of records) {
    await store.delete([record.guild_scheduled_event_id, record.order_key]);
    emitInterest(emit, 'GUILD_SCHEDULED_EVENT_USER_REMOVE', record);
  }
}
