/**
 * Deadlines without a timer: a Durable Object keeps its connections' heartbeat deadlines here and
 * sets its one alarm to the earliest (`sandbox-object.ts`), because a pending timer keeps an
 * object in memory, while an alarm wakes an evicted one. The object runs `expire` from its
 * alarm; what an eviction loses here, the sockets' attachments keep.
 */
import type { Deadlines } from '../src/gateway/timers';

/** A sandbox's deadlines, in epoch milliseconds (the alarm's clock). */
export class AlarmDeadlines implements Deadlines {
  readonly #due = new Map<object, { at: number; expire: () => void }>();

  /** @param armed told of every deadline armed, so that the alarm comes no later. */
  constructor(private readonly armed: (key: object, at: number) => void) {}

  arm(key: object, ms: number, expire: () => void): void {
    const at = Date.now() + ms;
    this.#due.set(key, { at, expire });
    this.armed(key, at);
  }

  clear(key: object): void {
    this.#due.delete(key);
  }

  /** When `key`'s deadline passes, if it is armed. */
  at(key: object): number | undefined {
    return this.#due.get(key)?.at;
  }

  /** The earliest deadline, or null when none is armed. */
  get next(): number | null {
    let next: number | null = null;
    for (const { at } of this.#due.values()) if (next === null || at < next) next = at;
    return next;
  }

  /** Runs every deadline passed by `now`, each once. */
  expire(now: number): void {
    for (const [key, { at, expire }] of [...this.#due]) {
      if (at > now || this.#due.get(key)?.at !== at) continue;
      this.#due.delete(key);
      expire();
    }
  }
}
