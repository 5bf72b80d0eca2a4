/**
 * The gateway payloads this page's sessions received and sent, for the developer panel's event
 * stream: newest last, at most {@link JOURNAL_MAX}. Anything that looks like a credential is
 * redacted before it is kept, so the panel cannot show a token even though some payloads carry
 * one (Identify's token, VOICE_SERVER_UPDATE's, an interaction's).
 */
import type { GatewayPayload } from '../../src/gateway/protocol';
import { redact } from '../../src/wire/redact-credentials';

/** The redaction every developer panel shares (`src/wire/redact-credentials.ts`). */
export { redact };

/** How many entries the journal keeps. */
export const JOURNAL_MAX = 500;

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
    this.#recordSandbox(`FAULT ${fault.type}`, fault);
  }

  /**
   * Records the page's recovery from a browser host fault (a new start of the service worker
   * controls it), so the stream shows when the page was back after the fault.
   */
  recordRecovery(what: string, detail: object): void {
    this.#recordSandbox(`RECOVERED ${what}`, detail);
  }

  #recordSandbox(type: string, data: object): void {
    this.entries.push({
      n: this.#next++,
      source: 'sandbox',
      direction: 'received',
      op: -1,
      type,
      seq: null,
      at: Date.now(),
      data: redact(data),
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
