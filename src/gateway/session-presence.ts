/**
 * The presence side of gateway sessions: which sessions this gateway counts as connected, and
 * the writes that keep each user's presence record in step (`src/platform/presence/write.ts`
 * emits PRESENCE_UPDATE when what others see changed).
 *
 * - Identify marks the session connected before the guilds are read, so the user's own
 *   GUILD_CREATE already shows them as they now are; Resume marks it again.
 * - Every connection that ends unmarks it: a client's close, a 1006 drop (the hub learns of a
 *   dead page through its Web Lock and drops its sockets as 1006), a heartbeat timeout, a token
 *   deleted. Once the user's last session is gone they are offline.
 * - Presence Update (op 3) sets the session's status; a bot's sets its activities too (a user's
 *   activities are their applications' rich presence, set with SET_ACTIVITY).
 * - The records survive a restart of the shared worker: the sessions of a previous start stay
 *   while their pages resume (on this gateway they are marked again); {@link sweep} removes
 *   those whose gateway is gone and that did not come back. A session whose page is known to
 *   be gone as well (after a browser restart, every page is) cannot come back: the sweep at
 *   start removes it at once, so its user does not stay online for the grace period.
 *
 * Writes run one at a time, in the order they were asked for, so a drop and the Resume after it
 * are stored in that order.
 */
import type * as v from 'valibot';
import type { PlatformContext } from '../platform/core/context';
import { type PresenceSession, type SessionPresence } from '../store/records/presence';
import { applyPresence, PRESENCE_STORES } from '../platform/presence/write';
import type { GatewaySessionRecord } from '../store/schema';
import { write } from '../store/write';
import type { PresenceUpdateSchema } from './payload-schemas';

/** Presence Update's `d`, validated. */
export type PresenceUpdate = v.InferOutput<typeof PresenceUpdateSchema>;

/** Resolves true while the start of the gateway with this incarnation id still runs. */
export type GatewayLiveness = (incarnation: string) => Promise<boolean>;

/** Resolves true while the page with this owner id still lives (holds its Web Lock). */
export type PageLiveness = (owner: string) => Promise<boolean>;

/** A session that never set a presence: online. */
const DEFAULT_PRESENCE: SessionPresence = { status: 'online', since: null, afk: false };

/**
 * The session presence a Presence Update asks for. `offline` is taken as `invisible` (a
 * connected session cannot be offline; it can only show as such). Activities are kept for bots
 * only, stamped with when they were set.
 */
export function sessionPresenceFrom(
  update: PresenceUpdate,
  kind: GatewaySessionRecord['kind'],
  now: number,
): SessionPresence {
  const presence: SessionPresence = {
    status: update.status === 'offline' ? 'invisible' : update.status,
    since: update.since,
    afk: update.afk,
  };
  if (kind === 'bot') presence.activities = update.activities.map((a) => ({ ...a, created_at: now }));
  return presence;
}

/** The connected sessions of one gateway, and their users' presence records. */
export class SessionPresences {
  /** Sessions this gateway counts as connected: session id → user id. */
  readonly #connected = new Map<string, string>();
  /** The page each connected session came from, when it said: session id → owner id. */
  readonly #owners = new Map<string, string>();
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * @param incarnation this start of the gateway (what `gateway` of a presence session names).
   * @param changed runs after every write (the gateway dispatches what it appended).
   */
  constructor(
    private readonly ctx: PlatformContext,
    readonly incarnation: string,
    private readonly changed: () => void,
    private readonly report: (error: unknown) => void,
  ) {}

  /**
   * The session is connected (Identify, with its `presence` if it sent one; Resume, with the
   * presence it had). Resolves once stored.
   */
  connected(record: GatewaySessionRecord, initial?: PresenceUpdate, owner?: string): Promise<void> {
    if (initial) record.presence = sessionPresenceFrom(initial, record.kind, this.ctx.clock.now());
    this.#connected.set(record.session_id, record.user_id);
    if (owner === undefined) this.#owners.delete(record.session_id);
    else this.#owners.set(record.session_id, owner);
    return this.#put(record);
  }

  /** Identify's view of these presences for a connection from page `owner` (when known). */
  forOwner(owner: string | undefined): Pick<SessionPresences, 'connected' | 'disconnected'> {
    return {
      connected: (record, initial) => this.connected(record, initial, owner),
      disconnected: (record) => this.disconnected(record),
    };
  }

  /** The session's connection is gone: its user is offline once it was their last. */
  disconnected(record: GatewaySessionRecord): void {
    if (!this.#connected.delete(record.session_id)) return;
    const id = record.session_id;
    this.#owners.delete(id);
    this.#write(record.user_id, (sessions) => sessions.filter((s) => s.session_id !== id)).catch(this.report);
  }

  /** Presence Update (op 3) from a connected session. Resolves once stored. */
  update(record: GatewaySessionRecord, update: PresenceUpdate): Promise<void> {
    record.presence = sessionPresenceFrom(update, record.kind, this.ctx.clock.now());
    if (!this.#connected.has(record.session_id)) return Promise.resolve();
    return this.#put(record, true);
  }

  /** Forgets every session (a sandbox reset emptied the store). */
  reset(): void {
    this.#connected.clear();
    this.#owners.clear();
  }

  /**
   * Removes the sessions of other starts of the gateway that no longer run (`isLive`): the
   * sessions their pages did not resume here. Runs once the grace after a restart is over;
   * with `pageLive`, at start, it removes only those whose page is known to be gone as well.
   */
  async sweep(isLive: GatewayLiveness, pageLive?: PageLiveness): Promise<void> {
    const records = await this.ctx.db.getAll('presences');
    const sessions = records.flatMap((r) => r.sessions ?? []).filter((s) => s.gateway !== this.incarnation);
    const goneGateways = new Set<string>();
    for (const gateway of new Set(sessions.map((s) => s.gateway)))
      if (!(await isLive(gateway))) goneGateways.add(gateway);
    const goneOwners = new Set<string>();
    if (pageLive) {
      for (const owner of new Set(sessions.flatMap((s) => (s.owner && goneGateways.has(s.gateway) ? [s.owner] : []))))
        if (!(await pageLive(owner))) goneOwners.add(owner);
    }
    const over = (s: PresenceSession) =>
      goneGateways.has(s.gateway) && (!pageLive || (s.owner !== undefined && goneOwners.has(s.owner)));
    for (const r of records) {
      if (!r.sessions?.some(over)) continue;
      // Filtered again inside the write: a session resumed here meanwhile names this gateway.
      await this.#write(r.user_id, (list) => list.filter((s) => !over(s)));
    }
  }

  /** Stores the session's entry (replacing any), and with `persist` its presence on the session record too. */
  #put(record: GatewaySessionRecord, persist = false): Promise<void> {
    const entry: PresenceSession = {
      ...(record.presence ?? DEFAULT_PRESENCE),
      session_id: record.session_id,
      application_id: record.application_id,
      gateway: this.incarnation,
      ...(this.#owners.has(record.session_id) ? { owner: this.#owners.get(record.session_id) } : {}),
      updated_at: this.ctx.clock.now(),
    };
    return this.#write(
      record.user_id,
      (sessions) => [...sessions.filter((s) => s.session_id !== entry.session_id), entry],
      persist ? record : undefined,
    );
  }

  #write(
    userId: string,
    change: (sessions: PresenceSession[]) => PresenceSession[],
    persist?: GatewaySessionRecord,
  ): Promise<void> {
    const stores = persist ? [...PRESENCE_STORES, 'gateway_sessions' as const] : PRESENCE_STORES;
    const run = this.#queue.then(() =>
      write(this.ctx, stores, async (tx, emit) => {
        await applyPresence(tx, emit, userId, this.ctx.clock.now(), (p) => ({
          ...p,
          sessions: change(p.sessions ?? []),
        }));
        if (!persist) return;
        // Only the presence: the gateway itself stores the rest of the session as it dispatches.
        const stored = await tx.store('gateway_sessions').get(persist.session_id);
        if (stored) await tx.store('gateway_sessions').put({ ...stored, presence: persist.presence });
      }),
    );
    this.#queue = run.catch(() => undefined);
    return run.then(() => this.changed());
  }
}
