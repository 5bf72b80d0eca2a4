/**
 * One voice gateway connection: the state machine of the voice WebSocket. The URL's `v` is
 * checked first (required; 4-8, and 1-3 only before 2024-11-18 by the platform clock), then
 * Hello, heartbeats and their ACKs, Identify or Resume, Select Protocol and Speaking, with the
 * platform's voice close codes for what a client can get wrong. Payloads are handled one at a
 * time, in the order they arrived.
 *
 * Close codes chosen where the public docs leave it open: a missing, unknown or discontinued
 * version closes with 4020 (bad request: the URL asks for what is not served) before Hello; a
 * Select Protocol with a protocol other than `udp` or `webrtc` with 4012 (unknown protocol). A
 * relayed message (PEER_SIGNAL, E2EE_MESSAGE) that does not fit its schema closes with 4002.
 *
 * Heartbeats and the payload rate limit measure the connection, not the platform: they run on
 * the gateway's timers (real, monotonic time), as the main gateway's do.
 */
import * as v from 'valibot';
import { parseExactJson } from '../platform/core/exact-json';
import {
  GATEWAY_HEARTBEAT_TIMEOUT_FACTOR,
  GATEWAY_PAYLOAD_MAX_BYTES,
  GATEWAY_SEND_LIMIT,
  GATEWAY_SEND_WINDOW_MS,
  VOICE_GATEWAY_BUFFERED_RESUME_VERSION,
  VOICE_HEARTBEAT_INTERVAL_MS,
  VOICE_RELAY_MESSAGE_MAX,
} from '../platform/core/limits';
import { PAYLOAD_TOO_LARGE_REASON, payloadTooLarge } from './payload-limit';
import { encryptionModeRefusal, voiceGatewayVersion } from '../platform/voice/rules';
import { closeReason, toText, type ClientData, type GatewayTransport } from './connection';
import {
  VoiceE2eeMessageSchema,
  VoiceHeartbeatSchema,
  VoiceIdentifySchema,
  VoicePayloadSchema,
  VoicePeerSignalSchema,
  VoiceResumeSchema,
  VoiceSelectProtocolSchema,
  VoiceSelectWebrtcSchema,
  VoiceSpeakingSchema,
} from './voice-payload-schemas';
import {
  VOICE_CLOSE_CODES as CLOSE,
  VOICE_CLOSE_REASONS,
  VOICE_OPCODES as OPS,
  VOICE_PROTOCOLS,
  type VoiceCloseCode,
  type VoiceIdentifyData,
  type VoicePayload,
  type VoiceResumeData,
} from './voice-protocol';
import type { VoiceSession, VoiceSink } from './voice-session';
import type { PlatformContext } from '../platform/core/context';
import type { GatewayTimers } from './timers';

/**
 * What a voice connection asks of the voice gateway it belongs to, which `VoiceGateway`
 * implements: a named seam, so that a connection does not import the gateway that creates it.
 */
export interface VoiceConnectionHost {
  readonly ctx: Pick<PlatformContext, 'clock'>;
  readonly timers: GatewayTimers;
  reportError(error: unknown): void;
  identify(connection: VoiceConnection, d: VoiceIdentifyData): Promise<void>;
  resume(connection: VoiceConnection, d: VoiceResumeData): Promise<void>;
  selectProtocol(session: VoiceSession, protocol: 'udp' | 'webrtc', mode: string): void;
  /** Hands a peer signal or an E2EE message to `target` (or every other participant) of the call, unread. */
  relay(session: VoiceSession, op: number, target: string | null, d: Record<string, unknown>): void;
  speaking(session: VoiceSession, flags: number): void;
  /** The connection closed; `end` ends its session (no Resume). */
  detach(connection: VoiceConnection, session: VoiceSession | null, options: { end: boolean }): void;
}

/** The relay's opcodes (peer signals, E2EE messages): the sandbox's, bounded by their own schema. */
const RELAY_OPS = new Set<number>([OPS.PEER_SIGNAL, OPS.E2EE_MESSAGE]);
/** The most a relayed payload may hold, in bytes: its text (VOICE_RELAY_MESSAGE_MAX characters, up to 3 bytes each) and the rest of the payload. */
const VOICE_RELAY_PAYLOAD_MAX_BYTES = VOICE_RELAY_MESSAGE_MAX * 3 + GATEWAY_PAYLOAD_MAX_BYTES;

/** Opcodes a client may send before it is identified. */
const BEFORE_IDENTIFY = new Set<number>([OPS.HEARTBEAT, OPS.IDENTIFY, OPS.RESUME]);
/** Opcodes a client may send at all (the DAVE MLS ones need a group, and there is none: keys go through E2EE_MESSAGE). */
const CLIENT_OPS = new Set<number>([
  OPS.IDENTIFY,
  OPS.SELECT_PROTOCOL,
  OPS.HEARTBEAT,
  OPS.SPEAKING,
  OPS.RESUME,
  OPS.PEER_SIGNAL,
  OPS.E2EE_MESSAGE,
]);

/** A client connection to the voice gateway. */
export class VoiceConnection implements VoiceSink {
  #state: 'open' | 'identifying' | 'ready' | 'closed' = 'open';
  #session: VoiceSession | null = null;
  #version = VOICE_GATEWAY_BUFFERED_RESUME_VERSION;
  #heartbeat: unknown = undefined;
  #window = { start: 0, count: 0 };
  #queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly gateway: VoiceConnectionHost,
    private readonly transport: GatewayTransport,
    url: string,
  ) {
    const asked = voiceGatewayVersion(
      new URL(url, 'http://voice.invalid/').searchParams.get('v'),
      gateway.ctx.clock.now(),
    );
    if ('reason' in asked) {
      this.closeWith(CLOSE.BAD_REQUEST, asked.reason);
      return;
    }
    this.#version = asked.version;
    this.#send({ op: OPS.HELLO, d: { heartbeat_interval: VOICE_HEARTBEAT_INTERVAL_MS } });
    this.#armHeartbeat();
  }

  /** The version the URL asked for. */
  get version(): number {
    return this.#version;
  }

  /** Whether this connection numbers messages and keeps them for a resume (v8 and later). */
  get buffersMessages(): boolean {
    return this.#version >= VOICE_GATEWAY_BUFFERED_RESUME_VERSION;
  }

  /** True once the connection is closed (by either side). */
  get closed(): boolean {
    return this.#state === 'closed';
  }

  /** A payload from the client: counted against the rate limit on arrival, handled in order. */
  receive(data: ClientData): void {
    if (this.#state === 'closed') return;
    const now = this.gateway.timers.now();
    if (now - this.#window.start >= GATEWAY_SEND_WINDOW_MS) this.#window = { start: now, count: 0 };
    if (++this.#window.count > GATEWAY_SEND_LIMIT) return this.closeWith(CLOSE.RATE_LIMITED);
    // The relay's own opcodes may carry more than the platform's payloads (an SDP offer, a sealed
    // key): they are bounded by their schema; every other payload by the platform's 4096 bytes.
    if (payloadTooLarge(data, VOICE_RELAY_PAYLOAD_MAX_BYTES))
      return this.closeWith(CLOSE.FAILED_TO_DECODE, PAYLOAD_TOO_LARGE_REASON);
    this.#queue = this.#queue.then(async () => {
      if (this.#state === 'closed') return;
      try {
        await this.#handle(await toText(data));
      } catch (error) {
        this.gateway.reportError(error);
        this.closeWith(CLOSE.VOICE_SERVER_CRASHED);
      }
    });
  }

  /** The client closed the connection: 1000 and 1001 end the session, other codes keep it for Resume. */
  clientClosed(code: number): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.gateway.timers.clearTimeout(this.#heartbeat);
    this.gateway.detach(this, this.#session, { end: code === 1000 || code === 1001 });
  }

  /** Closes the connection from the gateway's side; the session ends with it (only a client's drop is resumable). */
  closeWith(code: number, reason: string = VOICE_CLOSE_REASONS[code as VoiceCloseCode] ?? ''): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.gateway.timers.clearTimeout(this.#heartbeat);
    this.transport.close(code, closeReason(reason));
    this.gateway.detach(this, this.#session, { end: true });
  }

  /** Sends a payload (a session's messages come through here). */
  sendPayload(payload: VoicePayload): void {
    if (this.#state !== 'closed') this.#send(payload);
  }

  /** Attaches the session that Identify or Resume produced. */
  attach(session: VoiceSession): void {
    this.#session = session;
    this.#state = 'ready';
  }

  #send(payload: VoicePayload): void {
    this.transport.send(JSON.stringify(payload));
  }

  #armHeartbeat(): void {
    this.gateway.timers.clearTimeout(this.#heartbeat);
    this.#heartbeat = this.gateway.timers.setTimeout(
      () => this.closeWith(CLOSE.SESSION_TIMEOUT),
      VOICE_HEARTBEAT_INTERVAL_MS * GATEWAY_HEARTBEAT_TIMEOUT_FACTOR,
    );
  }

  /** Validates `d`; a mismatch closes with 4002 naming the field (never the value: it may be a token). */
  #valid<S extends v.GenericSchema>(schema: S, d: unknown): v.InferOutput<S> | undefined {
    const result = v.safeParse(schema, d);
    if (result.success) return result.output;
    const path = v.getDotPath(result.issues[0]);
    this.closeWith(
      CLOSE.FAILED_TO_DECODE,
      `Invalid payload: ${path ? `d.${path}` : 'd'} expected ${result.issues[0].expected ?? 'a valid value'}.`,
    );
    return undefined;
  }

  async #handle(text: string): Promise<void> {
    let json: unknown;
    try {
      json = parseExactJson(text);
    } catch {
      return this.closeWith(CLOSE.FAILED_TO_DECODE, 'Payload is not valid JSON.');
    }
    const parsed = v.safeParse(VoicePayloadSchema, json);
    if (!parsed.success) return this.closeWith(CLOSE.FAILED_TO_DECODE, 'Payload must be an object with an integer op.');
    const { op, d } = parsed.output;
    if (!RELAY_OPS.has(op) && payloadTooLarge(text))
      return this.closeWith(CLOSE.FAILED_TO_DECODE, PAYLOAD_TOO_LARGE_REASON);
    if (!CLIENT_OPS.has(op)) return this.closeWith(CLOSE.UNKNOWN_OPCODE, `Unknown opcode: ${op}.`);
    if (this.#state !== 'ready' && !BEFORE_IDENTIFY.has(op)) return this.closeWith(CLOSE.NOT_AUTHENTICATED);
    switch (op) {
      case OPS.HEARTBEAT: {
        const beat = this.#valid(VoiceHeartbeatSchema, d);
        if (beat === undefined) return;
        this.#armHeartbeat();
        const nonce = typeof beat === 'number' ? beat : beat.t;
        if (typeof beat === 'object') this.#session?.acknowledge(beat.seq_ack);
        return this.#send({ op: OPS.HEARTBEAT_ACK, d: this.buffersMessages ? { t: nonce ?? null } : (nonce ?? null) });
      }
      case OPS.IDENTIFY:
      case OPS.RESUME: {
        if (this.#state !== 'open') return this.closeWith(CLOSE.ALREADY_AUTHENTICATED);
        this.#state = 'identifying';
        if (op === OPS.IDENTIFY) {
          const identify = this.#valid(VoiceIdentifySchema, d);
          if (identify) await this.gateway.identify(this, identify);
        } else {
          const resume = this.#valid(VoiceResumeSchema, d);
          if (resume) await this.gateway.resume(this, resume);
        }
        return;
      }
      case OPS.SELECT_PROTOCOL: {
        const webrtc = (d as { protocol?: unknown } | null)?.protocol === 'webrtc';
        const select = this.#valid(webrtc ? VoiceSelectWebrtcSchema : VoiceSelectProtocolSchema, d);
        if (!select) return;
        if (!(VOICE_PROTOCOLS as readonly string[]).includes(select.protocol))
          return this.closeWith(
            CLOSE.UNKNOWN_PROTOCOL,
            `Unknown protocol: ${VOICE_PROTOCOLS.join(' and ')} are served.`,
          );
        const refusal = encryptionModeRefusal(select.data.mode, this.gateway.ctx.clock.now());
        if (refusal) return this.closeWith(CLOSE.UNKNOWN_ENCRYPTION_MODE, refusal.reason);
        return this.gateway.selectProtocol(this.#session!, webrtc ? 'webrtc' : 'udp', select.data.mode);
      }
      case OPS.PEER_SIGNAL: {
        const signal = this.#valid(VoicePeerSignalSchema, d);
        if (signal) this.gateway.relay(this.#session!, op, signal.user_id, { signal: signal.signal });
        return;
      }
      case OPS.E2EE_MESSAGE: {
        const message = this.#valid(VoiceE2eeMessageSchema, d);
        if (message) this.gateway.relay(this.#session!, op, message.user_id ?? null, { data: message.data });
        return;
      }
      case OPS.SPEAKING: {
        const speaking = this.#valid(VoiceSpeakingSchema, d);
        if (speaking) this.gateway.speaking(this.#session!, speaking.speaking === true ? 1 : Number(speaking.speaking));
        return;
      }
    }
  }
}
