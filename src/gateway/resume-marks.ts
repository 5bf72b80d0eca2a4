/**
 * The gateway's resume points. Each write of the gateway (a batch of events dispatched to every
 * live session, an Identify, a request's answers) stores the points of every session it numbered
 * for in one record of `gateway_resume_batches`, one part per session, indexed by
 * `[session_id, first s of the part]`; a fan-out to 50 sessions is one put, not 50.
 *
 * A session's parts never overlap: a Resume that goes back to dispatch `s` takes the points
 * numbered after `s` out of their batches before the new numbering is stored. Points a Resume
 * may no longer use stay where they are and are refused when read: those before what the
 * client's heartbeats acknowledged (each part records it), and those more than
 * GATEWAY_RESUME_MARKS_MAX behind the session's last. Batches older than the newest
 * GATEWAY_RESUME_BATCHES_MAX are deleted.
 */
import { GATEWAY_RESUME_BATCHES_MAX, GATEWAY_RESUME_MARKS_MAX } from '../platform/core/limits';
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

/** A batch's old records are deleted every this many batches. */
const PRUNE_EVERY = 64;

/** The resume points of one session, as far as this start of the gateway changed them. */
export class ResumeMarks {
  #pending: GatewayResumePart['points'] = [];
  /** The oldest point still needed: the client has everything before it. */
  #keepFrom = 0;
  /** Stored points above this belong to a numbering a Resume went back on. */
  #renumberedAfter: number | null = null;

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
  }

  /** Whether the next write has anything to do. */
  get pending(): boolean {
    return this.#pending.length > 0 || this.#renumberedAfter !== null;
  }

  /** Takes the points numbered since the last write, as this session's part of a batch (null: none). */
  takePart(): GatewayResumePart | null {
    if (this.#pending.length === 0) return null;
    const part = { session_id: this.sessionId, from: this.#keepFrom, points: this.#pending };
    this.#pending = [];
    return part;
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

/** Rewrites `batch` with `sessionId`'s part changed by `change` (dropped when it leaves no point). */
function rewritePart(
  store: BatchStore,
  batch: GatewayResumeBatch,
  sessionId: string,
  change: (points: GatewayResumePart['points']) => GatewayResumePart['points'],
): Promise<unknown> {
  const parts = batch.parts
    .map((part) => (part.session_id === sessionId ? { ...part, points: change(part.points) } : part))
    .filter((part) => part.points.length > 0);
  if (parts.length === 0) return store.delete(batch.id!);
  return store.put({ id: batch.id, parts, keys: parts.map((part) => [part.session_id, part.points[0].s]) });
}

/** Takes `sessionId`'s points numbered after `s` out of their batches (a Resume went back to `s`). */
async function dropPointsAfter(store: BatchStore, sessionId: string, s: number): Promise<void> {
  const index = store.index('by_session_point');
  const [later, containing] = await Promise.all([
    index.getAll(partsOf(sessionId, s, Infinity, true)),
    lastIn(index, partsOf(sessionId, -Infinity, s)),
  ]);
  await Promise.all([
    ...later.map((batch) => rewritePart(store, batch, sessionId, () => [])),
    ...(containing ? [rewritePart(store, containing, sessionId, (points) => points.filter((p) => p.s <= s))] : []),
  ]);
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
 * last write, as one batch; first takes out the points of numberings a Resume went back on, and
 * deletes the batches up to `pruneThrough` (see {@link prunableAfter}) beside it. Calls `issued`
 * once it makes no more requests, so that the transaction may commit without waiting for their
 * results. Resolves with the batch's id (undefined when nothing was numbered).
 */
export async function storeResumeBatch(
  store: BatchStore,
  sessions: readonly ResumeMarks[],
  options: { pruneThrough?: number; issued?: () => void } = {},
): Promise<number | undefined> {
  const parts: GatewayResumePart[] = [];
  const renumbered: [string, number][] = [];
  for (const marks of sessions) {
    const after = marks.takeRenumbered();
    if (after !== null) renumbered.push([marks.sessionId, after]);
    const part = marks.takePart();
    if (part) parts.push(part);
  }
  for (const [sessionId, after] of renumbered) await dropPointsAfter(store, sessionId, after);
  const requests: Promise<unknown>[] = [];
  if (options.pruneThrough !== undefined) requests.push(store.delete(keyRange.upperBound(options.pruneThrough)));
  const stored =
    parts.length > 0 ? store.put({ parts, keys: parts.map((part) => [part.session_id, part.points[0].s]) }) : undefined;
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
  const index = db.read('gateway_resume_batches').store('gateway_resume_batches').index('by_session_point');
  const [holding, newest] = await Promise.all([
    lastIn(index, partsOf(sessionId, -Infinity, s)),
    lastIn(index, partsOf(sessionId, -Infinity, Infinity)),
  ]);
  const newestPart = newest?.parts.find((part) => part.session_id === sessionId);
  const last = newestPart?.points.at(-1)?.s ?? 0;
  const usable = newestPart !== undefined && s >= newestPart.from && s > last - GATEWAY_RESUME_MARKS_MAX;
  const point = holding?.parts.find((part) => part.session_id === sessionId)?.points.find((p) => p.s === s);
  return { mark: usable && point ? { session_id: sessionId, ...point } : undefined, last };
}
