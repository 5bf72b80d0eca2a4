/**
 * The gateway payloads this page's sessions received and sent, for the developer panel's event
 * stream: newest last, at most {@link JOURNAL_MAX}. Anything that looks like a credential is
 * redacted before it is kept, so the panel cannot show a token even though some payloads carry
 * one (Identify's token, VOICE_SERVER_UPDATE's, an interaction's).
 */
import type { GatewayPayload } from '../../src/gateway/protocol';

/** How many entries the journal keeps. */
export const JOURNAL_MAX = 500;

/** Keys whose values are never kept. */
const SECRET_KEY = /token|secret|password|authorization|code_verifier|^code$/i;
/** A whole value that is an Authorization header's credential. */
const SECRET_VALUE = /^(Bearer|Bot|Basic)\s+\S+$/i;
/**
 * Credentials written inside a text: a scheme and a token-length credential, a `key=value` of a
 * secret, and the platform's bot token shape (base64 user id, 6 and 36 random characters).
 * Ordinary words after "bot" ("the bot sees it") are too short to be a token and stay.
 */
const IN_TEXT: [RegExp, string][] = [
  [/\b(Bearer|Bot|Basic)(\s+)[A-Za-z0-9._~+/=-]{20,}/gi, '$1$2[redacted]'],
  [
    /\b(access_token|refresh_token|client_secret|bot_token|token|code_verifier)(["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/=%-]+/gi,
    '$1$2[redacted]',
  ],
  [/[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}/g, '[redacted]'],
];

/** One received payload. */
export interface JournalEntry {
  /** Position in the journal (grows by one per entry). */
  n: number;
  /** Which session received or sent it: "alice", "Tic-Tac-Toe bot". */
  source: string;
  /** Whether the session received it from the gateway or sent it. */
  direction: 'received' | 'sent';
  op: number;
  /** The dispatch's event name, or the opcode's name. */
  type: string;
  seq: number | null;
  at: number;
  /** The payload's data, redacted. */
  data: unknown;
}

const OP_NAMES: Record<number, string> = {
  1: 'HEARTBEAT',
  2: 'IDENTIFY',
  3: 'PRESENCE_UPDATE',
  4: 'VOICE_STATE_UPDATE',
  6: 'RESUME',
  7: 'RECONNECT',
  8: 'REQUEST_GUILD_MEMBERS',
  9: 'INVALID_SESSION',
  10: 'HELLO',
  11: 'HEARTBEAT_ACK',
};

/**
 * A deep copy of `value` with credentials replaced by "[redacted]": the value of every key that
 * names one (token, secret, password, authorization, code), a whole value that is a credential
 * (`Bearer …`), and a token written inside a text (a bot token pasted into a message).
 * @example redact({ access_token: 'x', user: { id: '1' } }) // { access_token: '[redacted]', user: { id: '1' } }
 */
export function redact(value: unknown, key = ''): unknown {
  if (SECRET_KEY.test(key) && value !== null && value !== undefined) return '[redacted]';
  if (typeof value === 'string')
    return SECRET_VALUE.test(value)
      ? '[redacted]'
      : IN_TEXT.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), value);
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  return value;
}

/** The journal; fires `change` when an entry arrives. */
export class EventJournal extends EventTarget {
  readonly entries: JournalEntry[] = [];
  #next = 1;

  /** Records a payload `source`'s session received (or, with `direction` 'sent', sent). */
  record(
    source: string,
    payload: Pick<GatewayPayload<unknown>, 'op' | 'd'> & Partial<GatewayPayload<unknown>>,
    direction: JournalEntry['direction'] = 'received',
  ): void {
    this.entries.push({
      n: this.#next++,
      source,
      direction,
      op: payload.op,
      type: payload.t ?? OP_NAMES[payload.op] ?? `op ${payload.op}`,
      seq: payload.s ?? null,
      at: Date.now(),
      data: redact(payload.d),
    });
    if (this.entries.length > JOURNAL_MAX) this.entries.splice(0, this.entries.length - JOURNAL_MAX);
    this.dispatchEvent(new Event('change'));
  }

  /**
   * Records a fault injected into the sandbox (`POST /sandbox/faults`), so the stream shows what
   * was done to the sessions next to what they then received.
   */
  recordFault(fault: { type: string }): void {
    this.entries.push({
      n: this.#next++,
      source: 'sandbox',
      direction: 'received',
      op: -1,
      type: `FAULT ${fault.type}`,
      seq: null,
      at: Date.now(),
      data: redact(fault),
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
