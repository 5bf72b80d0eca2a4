/**
 * How a chat log lays out its messages, as chat clients do: consecutive messages of one author
 * within a few minutes form a group (the name and avatar once, at its head), a new day starts
 * with its date, and the first message the user has not read yet is preceded by a "New" line.
 * A reply always starts a group of its own, since it shows what it answers.
 */
import type { WireMessage } from './wire';

/** Two messages of one author this close together belong to one group. */
export const GROUP_WINDOW_MS = 7 * 60_000;

/** One row of the log. */
export type MessageRow =
  | { kind: 'day'; key: string; date: Date }
  | { kind: 'new'; key: string }
  | { kind: 'message'; key: string; message: WireMessage; head: boolean };

/** The local calendar day of a time, as a comparable key. */
const dayOf = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;

/**
 * The rows for `messages` (oldest first). `newFrom` is the first message that was unread when
 * the log was opened: it gets the "New" line.
 * @example messageRows(messages, { newFrom: firstUnreadId })
 */
export function messageRows(messages: readonly WireMessage[], options: { newFrom?: string } = {}): MessageRow[] {
  const rows: MessageRow[] = [];
  let previous: WireMessage | null = null;
  let newShown = false;
  for (const message of messages) {
    const at = new Date(message.timestamp);
    const newDay = !previous || dayOf(new Date(previous.timestamp)) !== dayOf(at);
    if (newDay) rows.push({ kind: 'day', key: `day-${message.id}`, date: at });
    const unread = !newShown && options.newFrom === message.id;
    if (unread) {
      rows.push({ kind: 'new', key: 'new' });
      newShown = true;
    }
    const head =
      newDay ||
      unread ||
      !previous ||
      previous.author.id !== message.author.id ||
      message.type === 19 ||
      at.getTime() - new Date(previous.timestamp).getTime() > GROUP_WINDOW_MS;
    rows.push({ kind: 'message', key: message.id, message, head });
    previous = message;
  }
  return rows;
}
