/**
 * How one start of the gateway stores what it numbered before sending it: the resume points of
 * every session a batch of dispatches went to (one record, see `./resume-marks`) and the records
 * of sessions that are new, resumed or hide other channels now, in one transaction whose commit
 * the dispatches wait for. Its writes run one at a time (the gateway serializes them), so it
 * numbers them: batch `n` of this start.
 */
import type { PlatformStorage } from '../store/schema';
import { prunableAfter, storeResumeBatch } from './resume-marks';
import { recordChanged, sessionRecord, type GatewaySession } from './session';

/** The resume writes of one start of the gateway. */
export class ResumeWriter {
  /** The batches this start has stored or tried to: the next one is `written + 1`. */
  #written = 0;
  /** Resume batches that may go, deleted by the next batch's write (see `prunableAfter`). */
  #pruneThrough: number | undefined;

  /** @param start names this start of the gateway in its batches (its incarnation). */
  constructor(
    private readonly db: PlatformStorage,
    readonly start: string,
  ) {}

  /**
   * Stores what `sessions` numbered (their resume points, and the record of a session that is
   * new, resumed or hides other channels now) in one transaction and waits for its commit, so
   * nothing is sent that a Resume could not continue from. It writes no event: the log stays
   * out of its scope, and the service worker's writes do not wait for it.
   * @example await writer.persist(liveSessions); for (const p of payloads) session.sink?.sendPayload(p);
   */
  async persist(sessions: readonly GatewaySession[]): Promise<void> {
    const changed = sessions.filter((s) => s.marks.pending || recordChanged(s));
    if (changed.length === 0) return;
    const n = ++this.#written;
    const pruneThrough = this.#pruneThrough;
    try {
      const id = await this.db.write(['gateway_sessions', 'gateway_resume_batches'], async (tx) => {
        const requests: Promise<unknown>[] = [];
        for (const session of changed) {
          if (recordChanged(session)) {
            const record = sessionRecord(session);
            requests.push(tx.store('gateway_sessions').put(record));
            session.storedHidden = record.hidden_channel_ids;
          }
        }
        // Committed as soon as the batch is stored: the dispatches wait for nothing else.
        const stored = storeResumeBatch(
          tx.store('gateway_resume_batches'),
          changed.map((session) => session.marks),
          { start: this.start, n, pruneThrough, issued: () => tx.commit() },
        );
        await Promise.all(requests);
        return stored;
      });
      // What it pruned is gone (writes run one at a time here); a failed write leaves it for the next.
      this.#pruneThrough = prunableAfter(id);
    } catch (error) {
      // The anchors it was to store are not there: each session's next part is one.
      for (const session of changed) session.marks.unstored();
      throw error;
    }
  }
}
