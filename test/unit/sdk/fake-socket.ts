/**
 * A scripted gateway socket (the test plays the gateway) and manual timers, for driving the
 * SDK client's connection state machine step by step.
 */
import type { LinkTimers, WebSocketLike } from '../../../src/sdk/socket';

/** A scripted gateway socket: the test plays the gateway's part. */
export class FakeSocket implements WebSocketLike {
  readyState = 0;
  readonly sent: { op: number; d: any }[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  readonly #listeners = new Map<string, ((event: any) => void)[]>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (event: any) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  send(text: string): void {
    this.sent.push(JSON.parse(text));
  }
  close(code?: number, reason?: string): void {
    if (this.readyState >= 2) return;
    this.closedWith = { code, reason };
    this.readyState = 2;
    // As a WebSocket: the close event follows the close handshake, later.
    setTimeout(() => this.drop(code ?? 1005));
  }
  open(): void {
    this.readyState = 1;
    this.#emit('open', {});
  }
  receive(payload: { op: number; d?: unknown; s?: number | null; t?: string | null }): void {
    this.#emit('message', { data: JSON.stringify({ d: null, s: null, t: null, ...payload }) });
  }
  hello(): void {
    this.open();
    this.receive({ op: 10, d: { heartbeat_interval: 1000 } });
  }
  dispatch(t: string, d: unknown, s: number): void {
    this.receive({ op: 0, t, d, s });
  }
  /** The gateway closed the connection. */
  drop(code: number): void {
    this.readyState = 3;
    this.#emit('close', { code, reason: '' });
  }
  #emit(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

/** Timers that run only when the test says so. */
export class ManualTimers implements LinkTimers {
  #next = 1;
  readonly pending = new Map<number, { at: number; callback: () => void }>();
  now = 0;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.set(id, { at: this.now + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = until;
  }
}
