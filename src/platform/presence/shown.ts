/**
 * What others see of a user's presence, derived from the stored record. Pure.
 *
 * - Status: the user is online while at least one gateway session of theirs is connected, of
 *   any application, and offline otherwise. Each session has its own status (Identify's
 *   `presence`, then Presence Update, op 3); across sessions `dnd` wins over `online`, which
 *   wins over `idle`: a user who asked not to be disturbed somewhere is not to be disturbed,
 *   and a session left idle does not hide one in use. `invisible` sessions show nothing: a user
 *   whose every session is invisible shows as offline.
 * - Activities: none while offline; otherwise the bot's own (op 3 of its most recently updated
 *   session) and each application's rich presence.
 * - `client_status`: every session runs in this browser, so the one platform is `web`.
 */
import {
  type GatewayActivity,
  type PresenceRecord,
  type PresenceSession,
  type ShownPresence,
  type ShownStatus,
  type WirePresence,
} from '../../store/records/presence';

export type { ShownPresence, WirePresence };

/** Session statuses from the one that wins to the one that yields. */
const PRECEDENCE = ['dnd', 'online', 'idle'] as const;

/**
 * The status others see of a user with these connected sessions.
 * @example shownStatus([{ status: 'idle', ... }, { status: 'online', ... }]) // 'online'
 */
export function shownStatus(sessions: readonly PresenceSession[] = []): ShownStatus {
  for (const status of PRECEDENCE) if (sessions.some((s) => s.status === status)) return status;
  return 'offline';
}

/** The activities a bot set over the gateway: those of its latest Presence Update among visible sessions. */
function gatewayActivities(sessions: readonly PresenceSession[]): GatewayActivity[] {
  let latest: PresenceSession | undefined;
  for (const s of sessions) {
    if (s.status === 'invisible' || s.activities === undefined) continue;
    if (!latest || s.updated_at >= latest.updated_at) latest = s;
  }
  return latest?.activities ?? [];
}

/** What others see of `record` (a user with no record is offline). */
export function shownPresence(record: PresenceRecord | undefined): ShownPresence {
  const sessions = record?.sessions ?? [];
  const status = shownStatus(sessions);
  if (status === 'offline') return { status, activities: [], client_status: {} };
  return {
    status,
    activities: [...gatewayActivities(sessions), ...(record?.activities ?? [])],
    client_status: { web: status },
  };
}

/** True when others would see no difference between `a` and `b`. */
export function samePresence(a: ShownPresence, b: ShownPresence): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The wire presence of `userId`. */
export function wirePresence(userId: string, shown: ShownPresence): WirePresence {
  return { user: { id: userId }, ...shown };
}

/**
 * The presences to list for these users (GUILD_CREATE, member chunks, READY): those who are
 * not offline, as the platform lists them; a user absent from the list is offline.
 */
export function listedPresences(
  userIds: Iterable<string>,
  records: ReadonlyMap<string, PresenceRecord>,
): WirePresence[] {
  const out: WirePresence[] = [];
  for (const id of new Set(userIds)) {
    const shown = shownPresence(records.get(id));
    if (shown.status !== 'offline') out.push(wirePresence(id, shown));
  }
  return out;
}
