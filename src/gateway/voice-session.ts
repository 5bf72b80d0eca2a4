/**
 * A voice session: one user's signaling in one call, from Identify until it ends. It outlives
 * its connection for a while (a dropped socket can Resume), and from voice gateway v8 it keeps
 * the numbered messages it sent until the client acknowledges them (`seq_ack` in Heartbeat),
 * so that a Resume delivers again what the client missed (buffered resume). Below v8 nothing
 * is numbered or kept: what was sent while the client was away is lost.
 *
 * Sequence numbers are 16-bit and wrap around, so they are only ever compared for equality:
 * `bufferStart` is the number just before the oldest kept message (-1 while nothing was ever
 * let go), and a Resume may continue from it or from any kept message.
 */
import { VOICE_RESUME_BUFFER_MAX, VOICE_SEQ_MODULUS } from '../platform/core/limits';
import type { VoiceIdentity } from '../platform/voice/tokens';
import type { VoicePayload } from './voice-protocol';

/** Where a session's payloads go: the connection it is attached to. */
export interface VoiceSink {
  sendPayload(payload: VoicePayload): void;
  closeWith(code: number, reason?: string): void;
}

/** The session key: the server and the main gateway session (what Resume names). */
export function voiceSessionKey(serverId: string, sessionId: string): string {
  return `${serverId}:${sessionId}`;
}

/** One user's voice signaling session. */
export class VoiceSession {
  readonly key: string;
  sink: VoiceSink | null = null;
  /** Whether numbered messages are kept for a resume (the connection's version is 8 or later). */
  buffered: boolean;
  /** The negotiated transport encryption mode, once Select Protocol chose one. */
  mode: string | null = null;
  /** Timer of a detached session's end (see `VOICE_RESUME_WINDOW_MS`). */
  expiry: unknown = undefined;
  #seq = 0;
  #bufferStart = -1;
  #buffer: VoicePayload[] = [];

  constructor(
    readonly identity: VoiceIdentity,
    readonly ssrc: number,
    readonly daveVersion: number,
    buffered: boolean,
  ) {
    this.key = voiceSessionKey(identity.server_id, identity.session_id);
    this.buffered = buffered;
  }

  /** The user of the session. */
  get userId(): string {
    return this.identity.user_id;
  }

  /** The call it is in: a guild voice channel id, or a lobby id. */
  get channelId(): string {
    return this.identity.channel_id;
  }

  /**
   * Sends a message about the call (Speaking, Clients Connect, Client Disconnect). From v8 it
   * is numbered and kept until acknowledged, so a detached session keeps it for its Resume.
   */
  deliver(op: number, d: unknown): void {
    const payload: VoicePayload = { op, d };
    if (this.buffered) {
      this.#seq = (this.#seq + 1) % VOICE_SEQ_MODULUS;
      payload.seq = this.#seq;
      this.#buffer.push(payload);
      if (this.#buffer.length > VOICE_RESUME_BUFFER_MAX) this.#bufferStart = this.#buffer.shift()!.seq!;
    }
    this.sink?.sendPayload(payload);
  }

  /** The client received everything up to `seqAck`: those messages are let go. */
  acknowledge(seqAck: number | undefined): void {
    if (seqAck === undefined || seqAck < 0) return;
    const at = this.#buffer.findIndex((m) => m.seq === seqAck);
    if (at < 0) return;
    this.#buffer.splice(0, at + 1);
    this.#bufferStart = seqAck;
  }

  /**
   * What a Resume acknowledging `seqAck` must be sent again: every kept message after it. Null
   * when the buffer no longer holds what the client missed (the session cannot be resumed).
   * A session that keeps nothing (below v8) has nothing to send again.
   */
  missedAfter(seqAck: number | undefined): VoicePayload[] | null {
    if (!this.buffered) return [];
    const ack = seqAck ?? -1;
    if (ack === this.#bufferStart) return [...this.#buffer];
    const at = this.#buffer.findIndex((m) => m.seq === ack);
    if (at < 0) return null;
    this.acknowledge(ack);
    return [...this.#buffer];
  }
}
