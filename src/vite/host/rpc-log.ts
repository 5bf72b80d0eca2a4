/**
 * The RPC inspector's record of a session: every message between the activities and the host
 * page (from the frames' wire tap, `src/components/rpc-wire-tap.ts`) and every request the
 * activities made through the proxy (from the service worker, `src/wire/proxy-log.ts`), in the
 * order the page saw them. A command and its answer are one entry, timed from the command's
 * arrival to the answer's departure; an event names the SUBSCRIBE it answers. Payloads are
 * redacted as they arrive (the shared `redact`), so nothing shown or exported holds a credential.
 * Bounded: the oldest entries go first beyond {@link RPC_LOG_MAX}.
 */
import type { RpcWireRecord } from '../../components/rpc-wire-tap';
import { DISPATCH, OPCODES } from '../../rpc/protocol';
import type { ProxiedRequestRecord } from '../../wire/proxy-log';
import { redact, redactPath } from '../../wire/redact-credentials';

/** How many entries the log keeps. */
export const RPC_LOG_MAX = 2000;

/** What an entry is. */
export type RpcLogKind = 'handshake' | 'command' | 'event' | 'close' | 'proxy';
/** Every kind, in the order the inspector's filter lists them. */
export const RPC_LOG_KINDS: readonly RpcLogKind[] = ['handshake', 'command', 'event', 'close', 'proxy'];

/** One entry of the log. */
export interface RpcLogEntry {
  /** Position in the session (grows by one per entry, never reused). */
  n: number;
  kind: RpcLogKind;
  frame_id: string | null;
  user_id: string | null;
  /** HANDSHAKE, the command (`SUBSCRIBE ACTIVITY_LAYOUT_MODE_UPDATE`), the event, CLOSE, or `GET /.proxy/…`. */
  name: string;
  /** `performance.now()` when the page saw it (a proxied request: when it was answered). */
  at: number;
  /** Who sent it: the activity, the host, or (a proxied request) the activity through the service worker. */
  from: 'activity' | 'host';
  /** The payload (a command's args, an event's data, HANDSHAKE's or CLOSE's payload), redacted. */
  payload: unknown;
  /** A command's answer (redacted), or undefined while it is pending. */
  reply?: unknown;
  /** A command's ERROR, or a proxied request's status of 400 and more. */
  error?: { code: number; message: string } | null;
  /** A command's round trip, or a proxied request's time in the service worker, in ms; null while pending. */
  duration_ms?: number | null;
  /** An event: the SUBSCRIBE entry it answers (its `n` and args), when the log still knew it. */
  subscription?: { n: number; args: unknown } | null;
  /** A proxied request: who answered and with which status. */
  proxy?: { target: string; status: number };
}

/** A page-time clock for proxied requests, whose records carry wall time. */
type Clock = { wallNow(): number; pageNow(): number };
const PAGE_CLOCK: Clock = { wallNow: () => Date.now(), pageNow: () => performance.now() };

/**
 * The log; `onChange` is called after each change (the panel renders on the next frame).
 * @example const log = new RpcLog(); const stop = watchRpcWire((r) => log.addWire(r));
 */
export class RpcLog {
  readonly entries: RpcLogEntry[] = [];
  onChange: () => void = () => undefined;
  #next = 1;
  /** Commands awaiting their answer, by `frame_id nonce`. */
  readonly #pending = new Map<string, RpcLogEntry>();
  /** The newest SUBSCRIBE of each event, by `frame_id event`. */
  readonly #subscriptions = new Map<string, RpcLogEntry>();

  constructor(private readonly clock: Clock = PAGE_CLOCK) {}

  /** Records one message of a frame's RPC wire. */
  addWire(record: RpcWireRecord): void {
    const data = record.message;
    if (!Array.isArray(data) || data.length !== 2) return;
    const [opcode, raw] = data as [unknown, Record<string, unknown> | null];
    const payload = (raw ?? {}) as Record<string, unknown>;
    const base = {
      frame_id: record.frame_id,
      user_id: record.user_id || null,
      at: record.at,
      from: record.direction === 'received' ? ('activity' as const) : ('host' as const),
    };
    if (opcode === OPCODES.HANDSHAKE)
      this.#push({ ...base, kind: 'handshake', name: 'HANDSHAKE', payload: redact(raw) });
    else if (opcode === OPCODES.CLOSE) this.#push({ ...base, kind: 'close', name: 'CLOSE', payload: redact(raw) });
    else if (opcode !== OPCODES.FRAME) return;
    else if (record.direction === 'received') this.#command(base, payload);
    else if (payload.cmd === DISPATCH) this.#event(base, payload);
    else this.#answer(record, payload);
    this.onChange();
  }

  /** Records one request an activity made through the proxy. */
  addProxied(record: ProxiedRequestRecord): void {
    const path = redactPath(record.path);
    this.#push({
      kind: 'proxy',
      frame_id: record.frame_id,
      user_id: null,
      name: `${record.method} ${path}`,
      // Wall time to page time: the worker's clock is the page's.
      at: this.clock.pageNow() - (this.clock.wallNow() - record.at),
      from: 'activity',
      payload: { method: record.method, path, target: record.target, status: record.status },
      duration_ms: record.duration_ms,
      error: record.status >= 400 || record.status === 0 ? { code: record.status, message: record.target } : null,
      proxy: { target: record.target, status: record.status },
    });
    this.onChange();
  }

  /** Forgets every entry (the numbering goes on). */
  clear(): void {
    this.entries.length = 0;
    this.#pending.clear();
    this.#subscriptions.clear();
    this.onChange();
  }

  /** The entries `filter` keeps: of the given kinds, and whose name contains `text` (any case). */
  filtered(filter: { kinds: ReadonlySet<RpcLogKind>; text: string }): RpcLogEntry[] {
    const text = filter.text.trim().toLowerCase();
    return this.entries.filter((e) => filter.kinds.has(e.kind) && (!text || e.name.toLowerCase().includes(text)));
  }

  /** The whole session as JSON, as the inspector exports it (already redacted). */
  toJson(): string {
    return JSON.stringify({ format: 'platformpp-rpc-session', version: 1, entries: this.entries }, null, 2);
  }

  #command(base: Omit<RpcLogEntry, 'n' | 'kind' | 'name' | 'payload'>, payload: Record<string, unknown>): void {
    const cmd = typeof payload.cmd === 'string' ? payload.cmd : 'UNKNOWN';
    const evt = typeof payload.evt === 'string' ? payload.evt : null;
    const entry = this.#push({
      ...base,
      kind: 'command',
      name: evt ? `${cmd} ${evt}` : cmd,
      payload: redact(payload.args ?? null),
      duration_ms: null,
      error: null,
    });
    if (typeof payload.nonce === 'string') this.#pending.set(`${base.frame_id} ${payload.nonce}`, entry);
    if (cmd === 'SUBSCRIBE' && evt) this.#subscriptions.set(`${base.frame_id} ${evt}`, entry);
  }

  #answer(record: RpcWireRecord, payload: Record<string, unknown>): void {
    const key = `${record.frame_id} ${String(payload.nonce)}`;
    const entry = this.#pending.get(key);
    if (!entry) return;
    this.#pending.delete(key);
    entry.duration_ms = record.at - entry.at;
    if (payload.evt === 'ERROR') entry.error = redact(payload.data) as { code: number; message: string };
    else entry.reply = redact(payload.data ?? null);
  }

  #event(base: Omit<RpcLogEntry, 'n' | 'kind' | 'name' | 'payload'>, payload: Record<string, unknown>): void {
    const evt = String(payload.evt);
    const subscribe = this.#subscriptions.get(`${base.frame_id} ${evt}`);
    this.#push({
      ...base,
      kind: 'event',
      name: evt,
      payload: redact(payload.data ?? null),
      subscription: subscribe ? { n: subscribe.n, args: subscribe.payload } : null,
    });
  }

  #push(entry: Omit<RpcLogEntry, 'n'>): RpcLogEntry {
    const full = { n: this.#next++, ...entry } as RpcLogEntry;
    this.entries.push(full);
    if (this.entries.length > RPC_LOG_MAX) this.entries.splice(0, this.entries.length - RPC_LOG_MAX);
    return full;
  }
}
