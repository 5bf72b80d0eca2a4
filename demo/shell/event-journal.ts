/**
 * The gateway payloads this page received, for the developer panel's event stream: newest
 * last, at most {@link JOURNAL_MAX}. Anything that looks like a credential is redacted before
 * it is kept, so the panel cannot show a token even if a payload carried one.
 */
import type { GatewayPayload } from '../../src/gateway/protocol';

/** How many entries the journal keeps. */
export const JOURNAL_MAX = 500;

/** Keys whose values are never kept. */
const SECRET_KEY = /token|secret|password|authorization|code_verifier/i;
/** Values shaped like an access, refresh or bot token. */
const SECRET_VALUE = /^(Bearer|Bot)\s+\S+$/i;

/** One received payload. */
export interface JournalEntry {
  /** Position in the journal (grows by one per entry). */
  n: number;
  /** Which session received it: "alice", "Tic-Tac-Toe bot". */
  source: string;
  op: number;
  /** The dispatch's event name, or the opcode's name. */
  type: string;
  seq: number | null;
  at: number;
  /** The payload's data, redacted. */
  data: unknown;
}

const OP_NAMES: Record<number, string> = { 1: 'HEARTBEAT', 7: 'RECONNECT', 9: 'INVALID_SESSION', 10: 'HELLO', 11: 'HEARTBEAT_ACK' };

/**
 * A deep copy of `value` with credentials replaced by "[redacted]".
 * @example redact({ access_token: 'x', user: { id: '1' } }) // { access_token: '[redacted]', user: { id: '1' } }
 */
export function redact(value: unknown, key = ''): unknown {
  if (SECRET_KEY.test(key) && value !== null && value !== undefined) return '[redacted]';
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? '[redacted]' : value;
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  return value;
}

/** The journal; fires `change` when an entry arrives. */
export class EventJournal extends EventTarget {
  readonly entries: JournalEntry[] = [];
  #next = 1;

  /** Records a payload `source`'s session received. */
  record(source: string, payload: GatewayPayload<unknown>): void {
    this.entries.push({
      n: this.#next++,
      source,
      op: payload.op,
      type: payload.t ?? OP_NAMES[payload.op] ?? `op ${payload.op}`,
      seq: payload.s ?? null,
      at: Date.now(),
      data: redact(payload.d),
    });
    if (this.entries.length > JOURNAL_MAX) this.entries.splice(0, this.entries.length - JOURNAL_MAX);
    this.dispatchEvent(new Event('change'));
  }

  /** Empties the journal. */
  clear(): void {
    this.entries.length = 0;
    this.dispatchEvent(new Event('change'));
  }
}
