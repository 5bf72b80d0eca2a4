/**
 * One call's voice gateway socket, as a call holds it across reconnects: the socket of the
 * moment, its heartbeats (with v8's `seq_ack`, the last numbered message received), and the
 * peers' and keys' messages (PEER_SIGNAL, E2EE_MESSAGE) kept while the socket is away or
 * resuming, sent once the voice gateway said Resumed. A socket whose heartbeat goes
 * unacknowledged for a whole interval is dropped as dead.
 */
import { VOICE_OPCODES as OP, type VoicePayload } from '../gateway/voice-protocol';
import type { LinkTimers, WebSocketLike } from './socket';

/** Messages kept while the voice socket is away, sent again after Resumed. */
const KEPT_WHILE_AWAY = new Set<number>([OP.PEER_SIGNAL, OP.E2EE_MESSAGE]);

/** What the link tells its call. */
export interface VoiceSocketEvents {
  payload(payload: VoicePayload<any>): void;
  /** The socket closed (or was found dead: 1006). */
  closed(code: number): void;
  warning(message: string): void;
}

/** A call's voice socket. */
export class VoiceSocketLink {
  /** The last numbered message received (-1: none), for Heartbeat and Resume. */
  seqAck = -1;
  /** True from a drop until Resumed: only Heartbeat and Resume may go out meanwhile. */
  resuming = false;
  #socket: WebSocketLike | null = null;
  #heartbeat: unknown = null;
  #acked = true;
  #nonce = 0;
  #away: { op: number; d: unknown }[] = [];

  constructor(
    private readonly timers: LinkTimers,
    private readonly events: VoiceSocketEvents,
  ) {}

  /** Takes `socket` as the call's socket: its messages and its close go to the call. */
  attach(socket: WebSocketLike): void {
    this.#socket = socket;
    socket.addEventListener('message', (event: { data: unknown }) => {
      if (this.#socket === socket) this.#receive(event.data);
    });
    socket.addEventListener('close', (event: { code?: number }) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.timers.clearTimeout(this.#heartbeat);
      this.events.closed(event.code ?? 0);
    });
  }

  /** Sends on the socket; while it is away (or resuming) the peers' and keys' messages wait, others are dropped. */
  send(op: number, d: unknown): void {
    const open = this.#socket?.readyState === 1;
    const held = this.resuming && op !== OP.RESUME && op !== OP.HEARTBEAT;
    if (open && !held) return this.#socket!.send(JSON.stringify({ op, d }));
    if (KEPT_WHILE_AWAY.has(op)) this.#away.push({ op, d });
  }

  /** The session is back (Session Description or Resumed): what waited goes out. */
  resumed(): void {
    this.resuming = false;
    for (const kept of this.#away.splice(0)) this.send(kept.op, kept.d);
  }

  /** Heartbeats every `interval` ms from Hello on, the first at a random point of it (clients do not beat in step). */
  startHeartbeat(interval: number): void {
    this.timers.clearTimeout(this.#heartbeat);
    this.#acked = true;
    const beat = (delay: number) => {
      this.#heartbeat = this.timers.setTimeout(() => {
        if (!this.#acked) {
          // No ACK for a whole interval: the socket is dead; drop it and let the call resume on a new one.
          const socket = this.#socket;
          this.#socket = null;
          socket?.close(4000, 'Heartbeat not acknowledged.');
          return this.events.closed(1006);
        }
        this.#acked = false;
        this.send(OP.HEARTBEAT, { t: ++this.#nonce, seq_ack: this.seqAck });
        beat(interval);
      }, delay);
    };
    beat(Math.floor(interval * Math.random()));
  }

  /** Closes the socket for good (the call ended): nothing waits any more. */
  close(): void {
    this.timers.clearTimeout(this.#heartbeat);
    this.#away = [];
    const socket = this.#socket;
    this.#socket = null;
    socket?.close(1000, 'Call ended.');
  }

  #receive(data: unknown): void {
    let payload: VoicePayload<any>;
    try {
      payload = JSON.parse(String(data));
    } catch {
      return this.events.warning('Call: a voice payload was not JSON; ignored.');
    }
    if (typeof payload.seq === 'number') this.seqAck = payload.seq;
    if (payload.op === OP.HEARTBEAT_ACK) this.#acked = true;
    this.events.payload(payload);
  }
}
