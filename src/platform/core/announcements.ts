/**
 * The BroadcastChannel wire between the service worker, the shared worker and pages. A message
 * says "look again": the state itself is in IndexedDB. An events announcement may also hand over
 * the committed events themselves, so that the gateway need not read back what it was just told.
 */
import type { EventRecord } from '../../store/schema';
import type { FaultRecord } from '../../store/records/faults';

/** The channel every platform context listens on. */
export const ANNOUNCEMENT_CHANNEL = 'platformpp';

/** What travels on {@link ANNOUNCEMENT_CHANNEL}. */
export type Announcement =
  /**
   * Events up to `seq` are committed to the event log. When `after` is given, the write's events
   * are all the log holds in (`after`, `seq`] (a write's events have consecutive keys); `events`
   * are those records when the write kept them small enough to send (see {@link ANNOUNCED_EVENTS_MAX}).
   * `stores` names the stores the write changed besides the log (not known when absent), so a
   * context that caches reads drops only what depends on them.
   */
  | { type: 'events'; seq: number; after?: number; events?: EventRecord[]; stores?: string[] }
  /** The sandbox clock changed; `frozenAt` is its new state. */
  | { type: 'clock'; frozenAt: number | null }
  /** The sandbox was reset: every store emptied. */
  | { type: 'reset' }
  /**
   * A fault was injected (`POST /sandbox/faults`): the gateway acts on its own kinds, pages
   * show it in their event stream.
   */
  | { type: 'fault'; fault: FaultRecord };

/** A write announces its events themselves up to this many; a larger write only says where they are. */
export const ANNOUNCED_EVENTS_MAX = 32;
