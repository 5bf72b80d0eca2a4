/**
 * The newest events of the durable log as writers announced them, so that the gateway can
 * dispatch a write's events without reading back what it was just handed. It only ever holds a
 * complete range: every event the log has in (`from`, `to`], nothing missing. An announcement
 * that does not continue the range (a write announced out of order by another context, or one
 * too large to carry its events) starts a new range, and a read from before the range goes to
 * the log: the tail is a shortcut, never the source of truth.
 */
import type { Announcement } from '../platform/core/announcements';
import type { EventRecord } from '../store/schema';

type EventsAnnouncement = Extract<Announcement, { type: 'events' }>;

/** The recent events of the log, as a complete range. */
export class LogTail {
  #from = 0;
  #events: EventRecord[] = [];
  /** Nothing is known until an announcement said what the log holds. */
  #known = false;

  /** @param capacity events kept; older ones leave the range. */
  constructor(private readonly capacity: number) {}

  /** Takes in an events announcement. */
  heard(message: EventsAnnouncement): void {
    const { after, events } = message;
    // Only "look again": nothing is known of what the log holds.
    if (after === undefined) return this.clear();
    // A write too large to carry its events: they are to be read from the log, and nothing
    // after them is known yet.
    if (events === undefined) return this.#restart(message.seq, []);
    if (this.#known && after === this.#to) this.#events.push(...events);
    else if (this.#known && message.seq <= this.#to) return;
    else return this.#restart(after, events);
    const excess = this.#events.length - this.capacity;
    if (excess > 0) {
      this.#from = this.#events[excess - 1].seq!;
      this.#events = this.#events.slice(excess);
    }
  }

  /**
   * The events after `after`, oldest first, at most `limit`; or undefined when the range does
   * not reach back to `after` (read the log instead). Events committed after the range's end are
   * not included: their own announcement follows.
   */
  after(after: number, limit: number): EventRecord[] | undefined {
    if (!this.#known || after < this.#from) return undefined;
    const start = this.#events.findIndex((event) => event.seq! > after);
    return start === -1 ? [] : this.#events.slice(start, start + limit);
  }

  /** Forgets everything (the stores were emptied). */
  clear(): void {
    this.#known = false;
    this.#from = 0;
    this.#events = [];
  }

  get #to(): number {
    return this.#events.length > 0 ? this.#events[this.#events.length - 1].seq! : this.#from;
  }

  #restart(from: number, events: EventRecord[]): void {
    this.#known = true;
    const dropped = events.length - this.capacity;
    this.#from = dropped > 0 ? events[dropped - 1].seq! : from;
    this.#events = dropped > 0 ? events.slice(dropped) : [...events];
  }
}
