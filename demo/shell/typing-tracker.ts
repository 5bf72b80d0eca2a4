/**
 * Who is typing where, from TYPING_START: a user shows as typing in a channel for ten seconds
 * after their last TYPING_START (the public clients' rule), or until their message arrives.
 * Fires `change` when the list of typists of any channel changes, expiry included.
 */
import { TYPING_INDICATOR_MS } from '../../src/platform/core/limits';

/**
 * The typists of every channel.
 * @example
 * tracker.started(channelId, userId);
 * tracker.typists(channelId) // [userId] for the next ten seconds
 */
export class TypingTracker extends EventTarget {
  /** channel id → user id → until when (ms). */
  readonly #typing = new Map<string, Map<string, number>>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  /** `userId` started typing in `channelId` (now). */
  started(channelId: string, userId: string): void {
    let channel = this.#typing.get(channelId);
    if (!channel) this.#typing.set(channelId, (channel = new Map()));
    const isNew = !channel.has(userId);
    channel.set(userId, this.now() + TYPING_INDICATOR_MS);
    this.#schedule();
    if (isNew) this.dispatchEvent(new Event('change'));
  }

  /** `userId` stopped typing in `channelId` (their message arrived). */
  stopped(channelId: string, userId: string): void {
    if (this.#typing.get(channelId)?.delete(userId)) this.dispatchEvent(new Event('change'));
  }

  /** The users typing in `channelId` now, in the order they started. */
  typists(channelId: string): string[] {
    const now = this.now();
    return [...(this.#typing.get(channelId) ?? [])].filter(([, until]) => until > now).map(([id]) => id);
  }

  /** Forgets everyone (the session was replaced). */
  clear(): void {
    clearTimeout(this.#timer);
    this.#typing.clear();
    this.dispatchEvent(new Event('change'));
  }

  /** Wakes up when the next indicator runs out. */
  #schedule(): void {
    clearTimeout(this.#timer);
    const next = Math.min(...[...this.#typing.values()].flatMap((m) => [...m.values()]));
    if (!Number.isFinite(next)) return;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, next - this.now()) + 10);
  }

  #expire(): void {
    const now = this.now();
    let changed = false;
    for (const channel of this.#typing.values()) {
      for (const [id, until] of channel) {
        if (until <= now) changed = channel.delete(id) || changed;
      }
    }
    this.#schedule();
    if (changed) this.dispatchEvent(new Event('change'));
  }
}

/** "Bob is typing…", "Bob and Chen are typing…", "Several people are typing…". */
export function typingText(names: readonly string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length <= 3) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are typing…`;
  return 'Several people are typing…';
}
