/**
 * What the user has read: for each conversation (a lobby, a guild channel, a DM channel) the
 * newest message they saw there. A message newer than that, by someone else, is unread. Marks
 * are kept in the demo's database per user, so a reload (or another tab of the same user) knows
 * them; a conversation never opened counts from when the client started, so the seeded history
 * does not show as unread. Fires `change`.
 */
import { snowflakeAt } from '../../src/platform/core/snowflake';
import type { WireMessage } from './wire';
import { loadReadMarks, saveReadMarks } from './world-store';

/** Snowflakes as numbers in string form: compare by length, then text. */
export function newerThan(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}

/** A conversation's key: `lobby:<id>`, `channel:<id>` (a guild or DM channel). */
export type ConversationKey = `lobby:${string}` | `channel:${string}`;

/**
 * The read marks of one user.
 * @example
 * const marks = new ReadMarks(userId); await marks.load();
 * marks.unreadCount('lobby:1', messages, userId)
 */
export class ReadMarks extends EventTarget {
  #marks: Record<string, string> = {};
  readonly #since: string;
  #saving: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly userId: string,
    startedAt: number = Date.now(),
  ) {
    super();
    this.#since = snowflakeAt(startedAt);
  }

  /** Reads the saved marks. */
  async load(): Promise<void> {
    this.#marks = { ...(await loadReadMarks(this.userId)), ...this.#marks };
    this.dispatchEvent(new Event('change'));
  }

  /** The newest message read in `key` (or the client's start, for a conversation never opened). */
  mark(key: ConversationKey): string {
    return this.#marks[key] ?? this.#since;
  }

  /** The messages of `key` the user has not read: newer than the mark (or `since`) and not their own. */
  unread(key: ConversationKey, messages: readonly WireMessage[], me: string, since = this.mark(key)): WireMessage[] {
    return messages.filter((m) => m.author.id !== me && newerThan(m.id, since));
  }

  /** Marks everything up to `messageId` in `key` read (never moves back). */
  read(key: ConversationKey, messageId: string): void {
    if (!newerThan(messageId, this.mark(key)) && this.#marks[key] !== undefined) return;
    this.#marks[key] = messageId;
    this.dispatchEvent(new Event('change'));
    clearTimeout(this.#saving);
    // Reading a busy channel marks many messages in a row: one write for the lot.
    this.#saving = setTimeout(
      () =>
        void saveReadMarks(this.userId, this.#marks).catch((error) =>
          console.error('platformpp demo: saving what you read failed', error),
        ),
      500,
    );
  }
}
