/**
 * The BroadcastChannel wire between the service worker, the shared worker and pages. A message
 * only says "look again": the state itself is always read from IndexedDB.
 */

/** The channel every platform context listens on. */
export const ANNOUNCEMENT_CHANNEL = 'platformpp';

/** What travels on {@link ANNOUNCEMENT_CHANNEL}. */
export type Announcement =
  /** Events up to `seq` are committed to the event log. */
  | { type: 'events'; seq: number }
  /** The sandbox clock changed; `frozenAt` is its new state. */
  | { type: 'clock'; frozenAt: number | null }
  /** The sandbox was reset: every store emptied. */
  | { type: 'reset' };
