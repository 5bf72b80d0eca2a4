/**
 * Every change of a presence goes through {@link applyPresence}, inside the caller's write: the
 * record is stored with its status recomputed, and when what others see changed, PRESENCE_UPDATE
 * is appended in the same transaction:
 * - once per guild of the user, with `guild_id`, for sessions in that guild that asked for the
 *   privileged GUILD_PRESENCES intent;
 * - once, without `guild_id`, for the user's own sessions, their friends' and the members of
 *   the lobbies they are in, whatever their intents (as a lobby's events reach its members).
 *   A bot has neither friends nor lobbies, and hears of itself through its guilds only.
 */
import type { Emit, WriteTx } from '../../store/write';
import { INTENTS } from '../core/intents';
import { lobbyKeyRange } from '../lobbies/store';
import { type PresenceRecord } from '../../store/records/presence';
import { samePresence, shownPresence, shownStatus, wirePresence, type ShownPresence } from './shown';
import { PLATFORM_SCOPE, RELATIONSHIP_TYPE } from '../../store/records/relationships';
import { keyRange } from '../../store/port';
import type { PlatformStoreName, ReadTx } from '../../store/schema';

/** The stores a presence write reads or touches (the event log is added by `write`). */
export const PRESENCE_STORES: PlatformStoreName[] = ['users', 'members', 'presences', 'relationships', 'lobby_members'];

/** A user's presence before anything was stored: offline, no activity. */
export function emptyPresence(userId: string, now: number): PresenceRecord {
  return { user_id: userId, status: 'offline', activities: [], updated_at: now, sessions: [] };
}

/**
 * Changes `userId`'s presence with `change` inside a write and emits PRESENCE_UPDATE when what
 * others see changed. Resolves to the stored record.
 * @example await write(ctx, PRESENCE_STORES, (tx, emit) => applyPresence(tx, emit, userId, now, (p) => ({ ...p, sessions: [] })));
 */
export async function applyPresence(
  tx: WriteTx,
  emit: Emit,
  userId: string,
  now: number,
  change: (current: PresenceRecord) => PresenceRecord,
): Promise<PresenceRecord> {
  const store = tx.store('presences');
  const current = (await store.get(userId)) ?? emptyPresence(userId, now);
  const changed = change(current);
  const next: PresenceRecord = { ...changed, status: shownStatus(changed.sessions), updated_at: now };
  await store.put(next);
  const shown = shownPresence(next);
  if (!samePresence(shownPresence(current), shown)) await emitPresence(tx, emit, userId, shown);
  return next;
}

/** Appends the PRESENCE_UPDATEs of `userId`'s new presence. */
async function emitPresence(tx: WriteTx, emit: Emit, userId: string, shown: ShownPresence): Promise<void> {
  const data = wirePresence(userId, shown);
  const memberships = await tx.store('members').index('by_user').getAll(userId);
  for (const { guild_id } of memberships) {
    emit({
      type: 'PRESENCE_UPDATE',
      data: { ...data, guild_id },
      audience: { guild_id, intent: INTENTS.GUILD_PRESENCES },
    });
  }
  const user = await tx.store('users').get(userId);
  if (!user || user.bot) return;
  emit({ type: 'PRESENCE_UPDATE', data, audience: { user_ids: await presenceWatchers(tx, userId) } });
}

/** The user's platform friends (both sides hold a FRIEND record, so the user's own side lists them). */
export async function friendIds(tx: ReadTx, userId: string): Promise<string[]> {
  const records = await tx
    .store('relationships')
    .index('by_type')
    .getAll([userId, PLATFORM_SCOPE, RELATIONSHIP_TYPE.FRIEND]);
  return records.map((r) => r.other_id);
}

/** Who hears of `userId`'s presence whatever their intents: the user, their friends, their lobbies' members. */
async function presenceWatchers(tx: ReadTx, userId: string): Promise<string[]> {
  const lobbyMembers = tx.store('lobby_members');
  const own = await lobbyMembers.index('by_user_application').getAll(keyRange.bound([userId, ''], [userId, '\uffff']));
  const coMembers = await Promise.all(own.map((m) => lobbyMembers.getAll(lobbyKeyRange(m.lobby_id))));
  return [...new Set([userId, ...(await friendIds(tx, userId)), ...coMembers.flat().map((m) => m.user_id)])];
}
