/**
 * The gateway's resume points. Each write of the gateway (a batch of events dispatched to every
 * live session, an Identify, a request's answers) stores the points of every session it numbered
 * for in one record of `gateway_resume_batches`, one part per session; a fan-out to 50 sessions is
 * one put, not 50.
 *
 * Only some parts are keyed in the index `by_session_point`, by `[session_id, first s of the
 * part]`: the session's anchors. An index entry costs the put about as much as the rest of the
 * record, so a put keys a few sessions, not all of them. A start of the gateway numbers its
 * batches (`start`, `n`) and anchors a session's part when it is the session's first in this
 * start, the first after a Resume went back, or GATEWAY_RESUME_ANCHOR_EVERY batches after its
 * last anchor: every other part lies in one of the start's batches just after an anchor, which
 * one read of `by_start_batch` returns.
 *
 * A session's parts never overlap: a Resume that goes back to dispatch `s` takes the points
 * numbered after `s` out of their batches before the new numbering is stored. Points a Resume
 * may no longer use stay where they are and are refused when read: those before what the
 * client's heartbeats acknowledged (each part records it), and those more than
 * GATEWAY_RESUME_MARKS_MAX behind the session's last. Batches older than the newest
 * GATEWAY_RESUME_BATCHES_MAX are deleted (with a session's anchor, the parts after it are lost
 * to a Resume as well).
 */
import {
  GATEWAY_RESUME_ANCHOR_EVERY,
  GATEWAY_RESUME_BATCHES_MAX,
  GATEWAY_RESUME_MARKS_MAX,
} from '../platform/core/limits';
import { keyRange, type KeyRange, type ReadableRange, type WritableStore } from '../store/port';
import type {
  GatewayResumeBatch,
  GatewayResumeMark,
  GatewayResumePart,
  PlatformDB,
  PlatformStorage,
} from '../store/schema';

type BatchStore = WritableStore<PlatformDB, 'gateway_resume_batches'>;
type BatchIndex = ReadableRange<GatewayResumeBatch, number, [string, number]>;
/** The two indexes of the batches: the sessions' anchors, and each start's batches in order. */
interface BatchIndexes {
  anchors: BatchIndex;
  byStart: BatchIndex;
}

/** A batch's old records are deleted every this many batches. */
const PRUNE_EVERY = 64;

/** The resume points of one session, as far as this start of the gateway changed them. */
export class ResumeMarks {
  #pending: GatewayResumePart['points'] = [];
  /** The oldest point still needed: the client has everything before it. */
  #keepFrom = 0;
  /** Stored points above this belong to a numbering a Resume went back on. */
  #renumberedAfter: number | null = null;
  /** The batch of this start holding the session's last anchor; null: its next part is one. */
  #anchoredAt: number | null = null;

  constructor(readonly sessionId: string) {}

  /**
   * Dispatch `s` continues the log after `after`, skipping `skip` dispatches of the next event,
   * with the channels `hidden` from the session there (sessions that obfuscate).
   */
  add(s: number, after: number, skip: number, hidden?: string[]): void {
    this.#pending.push(hidden ? { s, after, skip, hidden } : { s, after, skip });
  }

  /** The client has dispatch `s` (a heartbeat said so): points before it are no longer needed. */
  acknowledge(s: number): void {
    this.#keepFrom = Math.max(this.#keepFrom, s);
  }

  /** A Resume continues after dispatch `s`: what was numbered after it is numbered again. */
  resumedAt(s: number): void {
    this.#pending = this.#pending.filter((m) => m.s <= s);
    this.#renumberedAfter = s;
    this.#keepFrom = Math.min(this.#keepFrom, s);
    // The parts after it go, and the chain of parts starts again from an anchor.
    this.#anchoredAt = null;
  }

  /** The write that was to store the last part failed: whatever it anchored is not there. */
  unstored(): void {
    this.#anchoredAt = null;
  }

  /** Whether the next write has anything to do. */
  get pending(): boolean {
    return this.#pending.length > 0 || this.#renumberedAfter !== null;
  }

  /**
   * Takes the points numbered since the last write, as this session's part of the start's batch
   * `n` (null: none), and whether the part is to be an anchor.
   */
  takePart(n: number): { part: GatewayResumePart; anchor: boolean } | null {
    if (this.#pending.length === 0) return null;
    const part = { session_id: this.sessionId, from: this.#keepFrom, points: this.#pending };
    this.#pending = [];
    const anchor = this.#anchoredAt === null || n - this.#anchoredAt >= GATEWAY_RESUME_ANCHOR_EVERY;
    if (anchor) this.#anchoredAt = n;
    return { part, anchor };
  }

  /** Takes the point a Resume went back to, when stored points after it must go first (null: none). */
  takeRenumbered(): number | null {
    const after = this.#renumberedAfter;
    this.#renumberedAfter = null;
    return after;
  }
}

/** The range of index keys of `sessionId`'s parts that begin in `[from, to]`. */
function partsOf(sessionId: string, from: number, to: number, fromOpen = false): KeyRange {
  return keyRange.bound([sessionId, from], [sessionId, to], fromOpen);
}

/** The newest batch whose index key lies in `range` (the greatest key; among equal keys, the newest). */
async function lastIn(index: BatchIndex, range: KeyRange): Promise<GatewayResumeBatch | undefined> {
  for await (const { value } of index.iterate(range, 'prev')) return value;
  return undefined;
}

/** The indexes of the batches' store. */
function indexesOf(store: Pick<BatchStore, 'index'>): BatchIndexes {
  return { anchors: store.index('by_session_point'), byStart: store.index('by_start_batch') };
}

/** One part of a session, with the batch it is in. */
interface FoundPart {
  batch: GatewayResumeBatch;
  part: GatewayResumePart;
}

/**
 * `sessionId`'s parts in the batch of its anchor `anchor` and in the start's batches that may
 * follow it before the next anchor, oldest first (none without an anchor). Batches stored before
 * version 21 key every part: nothing follows them.
 */
async function partsFrom(
  indexes: BatchIndexes,
  sessionId: string,
  anchor: GatewayResumeBatch | undefined,
): Promise<FoundPart[]> {
  if (!anchor) return [];
  const { start, n } = anchor;
  const following =
    start === undefined || n === undefined
      ? []
      : await indexes.byStart.getAll(keyRange.bound([start, n + 1], [start, n + GATEWAY_RESUME_ANCHOR_EVERY - 1]));
  return [anchor, ...following].flatMap((batch) => {
    const part = batch.parts.find((p) => p.session_id === sessionId);
    return part ? [{ batch, part }] : [];
  });
}

/** The highest `s` among a part's points. */
const lastOf = (part: GatewayResumePart): number => part.points.at(-1)?.s ?? 0;

/** Rewrites `batch` with `sessionId`'s part changed by `change` (dropped when it leaves no point). */
function rewritePart(
  store: BatchStore,
  batch: GatewayResumeBatch,
  sessionId: string,
  change: (points: GatewayResumePart['points']) => GatewayResumePart['points'],
): Promise<unknown> {
  const anchored = new Set(batch.keys.map(([id]) => id));
  const parts = batch.parts
    .map((part) => (part.session_id === sessionId ? { ...part, points: change(part.points) } : part))
    .filter((part) => part.points.length > 0);
  if (parts.length === 0) return store.delete(batch.id!);
  const keys = parts.filter((part) => anchored.has(part.session_id)).map(keyOf);
  return store.put({ ...batch, parts, keys });
}

/** A part's key in `by_session_point`. */
const keyOf = (part: GatewayResumePart): [string, number] => [part.session_id, part.points[0].s];

/** Takes `sessionId`'s points numbered after `s` out of their batches (a Resume went back to `s`). */
async function dropPointsAfter(store: BatchStore, sessionId: string, s: number): Promise<void> {
  const indexes = indexesOf(store);
  const [later, containing] = await Promise.all([
    indexes.anchors.getAll(partsOf(sessionId, s, Infinity, true)),
    lastIn(indexes.anchors, partsOf(sessionId, -Infinity, s)),
  ]);
  const found = await Promise.all([containing, ...later].map((anchor) => partsFrom(indexes, sessionId, anchor)));
  // A batch may follow two anchors: it is rewritten once.
  const changed = new Map<number, GatewayResumeBatch>();
  for (const { batch, part } of found.flat()) if (lastOf(part) > s) changed.set(batch.id!, batch);
  await Promise.all(
    [...changed.values()].map((batch) =>
      rewritePart(store, batch, sessionId, (points) => points.filter((p) => p.s <= s)),
    ),
  );
}

/**
 * The batches that may go once batch `id` is stored: every PRUNE_EVERY batches, those older than
 * the newest GATEWAY_RESUME_BATCHES_MAX (the ids up to the one returned); otherwise none.
 */
export function prunableAfter(id: number | undefined): number | undefined {
  return id !== undefined && id % PRUNE_EVERY === 0 ? id - GATEWAY_RESUME_BATCHES_MAX : undefined;
}

/**
 * Stores, in the transaction of `store`, the points every one of `sessions` numbered since the
 * last write, as batch `n` of the gateway's start `start`; first takes out the points of numberings a Resume went back on, and
 * deletes the batches up to `pruneThrough` (see {@link prunableAfter}) beside it. Calls `issued`
 * once it makes no more requests, so that the transaction may commit without waiting for their
 * results. Resolves with the batch's id (undefined when nothing was numbered).
 */
export async function storeResumeBatch(
  store: BatchStore,
  sessions: readonly ResumeMarks[],
  options: { start: string; n: number; pruneThrough?: number; issued?: () => void },
): Promise<number | undefined> {
  const { start, n } = options;
  const parts: GatewayResumePart[] = [];
  const keys: [string, number][] = [];
  const renumbered: [string, number][] = [];
  for (const marks of sessions) {
    const after = marks.takeRenumbered();
    if (after !== null) renumbered.push([marks.sessionId, after]);
    const taken = marks.takePart(n);
    if (!taken) continue;
    parts.push(taken.part);
    if (taken.anchor) keys.push(keyOf(taken.part));
  }
  for (const [sessionId, after] of renumbered) await dropPointsAfter(store, sessionId, after);
  const requests: Promise<unknown>[] = [];
  if (options.pruneThrough !== undefined) requests.push(store.delete(keyRange.upperBound(options.pruneThrough)));
  const stored = parts.length > 0 ? store.put({ parts, keys, start, n }) : undefined;
  options.issued?.();
  await Promise.all(requests);
  return stored;
}

/**
 * What a Resume of session `sessionId` from dispatch `s` needs: the resume point of `s` (unless
 * it is gone or may no longer be used) and the last dispatch numbered for the session (0 when
 * there is none).
 */
export async function findResumePoint(
  db: PlatformStorage,
  sessionId: string,
  s: number,
): Promise<{ mark: GatewayResumeMark | undefined; last: number }> {
  const indexes = indexesOf(db.read('gateway_resume_batches').store('gateway_resume_batches'));
  const [holding, newest] = await Promise.all([
    lastIn(indexes.anchors, partsOf(sessionId, -Infinity, s)).then((anchor) => partsFrom(indexes, sessionId, anchor)),
    lastIn(indexes.anchors, partsOf(sessionId, -Infinity, Infinity)).then((anchor) =>
      partsFrom(indexes, sessionId, anchor),
    ),
  ]);
  // Every part after the newest anchor follows it: the newest part is among them.
  const newestPart = newest.reduce<GatewayResumePart | undefined>(
    (found, { part }) => (found && lastOf(found) > lastOf(part) ? found : part),
    undefined,
  );
  const last = newestPart ? lastOf(newestPart) : 0;
  const usable = newestPart !== undefined && s >= newestPart.from && s > last - GATEWAY_RESUME_MARKS_MAX;
  const point = holding.flatMap(({ part }) => part.points).find((p) => p.s === s);
  return { mark: usable && point ? { session_id: sessionId, ...point } : undefined, last };
}
