/**
 * A session's resume points (`gateway_resume_marks`, one record per dispatch): the ones
 * numbered since the last write wait here until the batch that numbered them is stored, and
 * the ones a Resume can no longer ask for (acknowledged by a heartbeat, older than
 * GATEWAY_RESUME_MARKS_MAX, or of a numbering a Resume went back on) are deleted by key range
 * in that same transaction. Storing a dispatch therefore costs one small put, however many
 * resume points the session holds.
 */
import { GATEWAY_RESUME_MARKS_MAX } from '../platform/core/limits';
import { keyRange, type WritableStore } from '../store/port';
import type { GatewayResumeMark, PlatformDB, PlatformStorage } from '../store/schema';

type MarkStore = WritableStore<PlatformDB, 'gateway_resume_marks'>;

/** The resume points of one session, as far as this start of the gateway changed them. */
export class ResumeMarks {
  #pending: GatewayResumeMark[] = [];
  /** The oldest point still needed: the client has everything before it. */
  #keepFrom = 0;
  /** Points below this are deleted already (or never existed). */
  #trimmedTo = 0;
  /** Stored points above this belong to a numbering a Resume went back on. */
  #renumberedAfter: number | null = null;

  constructor(readonly sessionId: string) {}

  /**
   * Dispatch `s` continues the log after `after`, skipping `skip` dispatches of the next event,
   * with the channels `hidden` from the session there (sessions that obfuscate).
   */
  add(s: number, after: number, skip: number, hidden?: string[]): void {
    this.#pending.push(
      hidden ? { session_id: this.sessionId, s, after, skip, hidden } : { session_id: this.sessionId, s, after, skip },
    );
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

  /**
   * Queues the deletions and puts on `store` (its transaction commits them) for a session
   * whose last dispatch is `seq`. Requests in one transaction run in order: deletions first.
   */
  write(store: MarkStore, seq: number): Promise<unknown>[] {
    const id = this.sessionId;
    const requests: Promise<unknown>[] = [];
    if (this.#renumberedAfter !== null) {
      requests.push(store.delete(keyRange.bound([id, this.#renumberedAfter], [id, Infinity], true)));
      this.#renumberedAfter = null;
    }
    const floor = Math.max(this.#keepFrom, seq - GATEWAY_RESUME_MARKS_MAX + 1);
    if (floor > this.#trimmedTo) {
      requests.push(store.delete(keyRange.bound([id, -Infinity], [id, floor], false, true)));
      this.#trimmedTo = floor;
    }
    for (const mark of this.#pending) if (mark.s >= floor) requests.push(store.put(mark));
    this.#pending = [];
    return requests;
  }
}

/**
 * What a Resume of session `sessionId` from dispatch `s` needs: the resume point of `s` (if it
 * is still kept) and the last dispatch numbered for the session (0 when there is none).
 */
export async function findResumePoint(
  db: PlatformStorage,
  sessionId: string,
  s: number,
): Promise<{ mark: GatewayResumeMark | undefined; last: number }> {
  const store = db.read('gateway_resume_marks').store('gateway_resume_marks');
  const [mark, [newest]] = await Promise.all([
    store.get([sessionId, s]),
    store.getAllKeys(keyRange.bound([sessionId, -Infinity], [sessionId, Infinity]), 1, 'prev'),
  ]);
  return { mark, last: newest ? newest[1] : 0 };
}

/** Deletes every resume point of a session (in the transaction of `store`). */
export function deleteResumeMarks(store: MarkStore, sessionId: string): Promise<void> {
  return store.delete(keyRange.bound([sessionId, -Infinity], [sessionId, Infinity]));
}
