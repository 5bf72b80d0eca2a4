/**
 * One client connection: the gateway's state machine. Hello on open, heartbeats and their ACKs,
 * Identify or Resume, then requests, with the platform's close codes for everything a client
 * can get wrong. Payloads are handled one at a time, in the order they arrived.
 *
 * Heartbeats and the payload rate limit measure the connection, not the platform: they run on
 * the gateway's timers (real, monotonic time), so a frozen or moved sandbox clock neither kills
 * nor rescues a connection. A connection that sends no heartbeat for 1.5 heartbeat intervals is
 * closed with 4009 (session timed out): the deadline is armed through the gateway's `deadlines`,
 * a timer in the browser, the object's alarm on the server (`timers.ts`).
 */
import * as v from 'valibot';
import {
  GATEWAY_HEARTBEAT_INTERVAL_MS,
  GATEWAY_HEARTBEAT_TIMEOUT_FACTOR,
  GATEWAY_SEND_LIMIT,
  GATEWAY_SEND_WINDOW_MS,
} from '../platform/core/limits';
import { parseExactJson } from '../platform/core/exact-json';
import { PAYLOAD_TOO_LARGE_REASON, payloadTooLarge } from './payload-limit';
import { payloadText } from './payload-text';
import {
  HeartbeatSchema,
  IdentifySchema,
  PayloadSchema,
  PresenceUpdateSchema,
  RequestChannelInfoSchema,
  RequestGuildMembersSchema,
  ResumeSchema,
  VoiceStateUpdateSchema,
} from './payload-schemas';
import {
  CLOSE_REASONS,
  GATEWAY_CLOSE_CODES,
  GATEWAY_OPCODES,
  GATEWAY_VERSIONS,
  opPayload,
  type GatewayCloseCode,
  type GatewayPayload,
} from './protocol';
import type { TransportCompression } from './compressed-transport';
import type { GatewaySession, SessionSink } from './session';
import type { PresenceUpdate } from './session-presence';
import type { Deadlines, GatewayTimers } from './timers';

/**
 * What a connection asks of the gateway it belongs to, which `Gateway` implements: a named seam,
 * so that a connection does not import the gateway that creates it.
 */
export interface GatewayConnectionHost {
  readonly timers: GatewayTimers;
  /** Where the heartbeat deadline is kept (a host may keep it without a timer). */
  readonly deadlines: Deadlines;
  /** Hello's `heartbeat_interval` for new connections, in milliseconds. */
  readonly heartbeatIntervalMs: number;
  reportError(error: unknown): void;
  /** The connection closed; `invalidate` ends its session (no Resume). */
  detach(connection: GatewayConnection, options: { invalidate: boolean }): void;
  invalidatesSession(code: number): boolean;
  acknowledge(session: GatewaySession, seq: number): void;
  identify(connection: GatewayConnection, d: v.InferOutput<typeof IdentifySchema>, version: number): Promise<void>;
  resume(connection: GatewayConnection, d: v.InferOutput<typeof ResumeSchema>): Promise<void>;
  requestGuildMembers(session: GatewaySession, d: v.InferOutput<typeof RequestGuildMembersSchema>): Promise<void>;
  requestChannelInfo(session: GatewaySession, d: v.InferOutput<typeof RequestChannelInfoSchema>): Promise<void>;
  updatePresence(session: GatewaySession, d: PresenceUpdate): Promise<void>;
  /** Voice State Update; a join is answered with `voiceEndpoint` (the connection's voice gateway). */
  updateVoiceState(
    session: GatewaySession,
    d: v.InferOutput<typeof VoiceStateUpdateSchema>,
    voiceEndpoint?: string,
  ): Promise<void>;
}

/** How the gateway talks back to the client. */
export interface GatewayTransport {
  send(text: string): void;
  close(code: number, reason: string): void;
  /**
   * Identify asked for payload compression (`compress: true`): the payloads after it go out
   * compressed. A host without a zlib leaves this out and sends text, which such a client reads too.
   */
  compressPayloads?(): void;
}

/** What a client may send: text, or bytes / a Blob holding UTF-8 JSON. */
export type ClientData = string | ArrayBuffer | ArrayBufferView | Blob;

const OPS = GATEWAY_OPCODES;
/** Opcodes a client may send before it is identified. */
const BEFORE_IDENTIFY = new Set<number>([OPS.HEARTBEAT, OPS.IDENTIFY, OPS.RESUME]);
/** Opcodes a client may send at all. */
const CLIENT_OPS = new Set<number>([
  OPS.HEARTBEAT,
  OPS.IDENTIFY,
  OPS.PRESENCE_UPDATE,
  OPS.VOICE_STATE_UPDATE,
  OPS.RESUME,
  OPS.REQUEST_GUILD_MEMBERS,
  OPS.REQUEST_CHANNEL_INFO,
]);

/**
 * The gateway version the URL asks for, or the close code to refuse it with: `v` must be 10 or
 * 9 (absent means 10); `encoding` must be json (etf is not offered); `compress`, when given, one
 * of the host's `compressions` (the server's is zlib-stream; the browser's shared worker has none).
 */
export function parseGatewayUrl(
  url: string,
  compressions: readonly TransportCompression[] = [],
): { version: number } | { code: GatewayCloseCode; reason: string } {
  const params = new URL(url, 'http://gateway.invalid/').searchParams;
  const version = Number(params.get('v') ?? '10');
  if (!(GATEWAY_VERSIONS as readonly number[]).includes(version))
    return { code: GATEWAY_CLOSE_CODES.INVALID_API_VERSION, reason: `Invalid API version: ${params.get('v')}.` };
  const encoding = params.get('encoding') ?? 'json';
  if (encoding !== 'json')
    return { code: GATEWAY_CLOSE_CODES.DECODE_ERROR, reason: `Unsupported encoding: ${encoding} (only json).` };
  const compress = params.get('compress');
  if (compress !== null && !(compressions as readonly string[]).includes(compress)) {
    const offered = compressions.length ? `offered: ${compressions.join(', ')}` : 'this gateway offers none';
    return { code: GATEWAY_CLOSE_CODES.DECODE_ERROR, reason: `Unsupported transport compression (${offered}).` };
  }
  return { version };
}

/** A close reason as a WebSocket close frame can carry it: at most 123 UTF-8 bytes. */
export function closeReason(reason: string): string {
  const bytes = new TextEncoder().encode(reason);
  return bytes.byteLength <= 123
    ? reason
    : new TextDecoder().decode(bytes.slice(0, 120)).replace(/\uFFFD+$/, '') + '...';
}

/** Turns bytes or a Blob into the text they hold. */
export async function toText(data: ClientData): Promise<string> {
  if (typeof data === 'string') return data;
  if (typeof Blob !== 'undefined' && data instanceof Blob) return data.text();
  return new TextDecoder().decode(data as ArrayBuffer | ArrayBufferView);
}

/**
 * Where a connection was made, when not in the browser's shared worker: the URLs its sessions
 * are told to come back to (a server's gateway and voice gateway), and the page it came from.
 */
export interface GatewayConnectionOptions {
  resumeGatewayUrl?: string;
  owner?: string;
  voiceEndpoint?: string;
  /** The transport compressions the host's transport does (the URL's `compress`). */
  compressions?: readonly TransportCompression[];
}

/** A client connection to the gateway. */
export class GatewayConnection implements SessionSink {
  #state: 'open' | 'identifying' | 'ready' | 'closed' = 'open';
  #session: GatewaySession | null = null;
  #version = 10;
  /** The heartbeat interval Hello gave this connection. */
  #interval = GATEWAY_HEARTBEAT_INTERVAL_MS;
  #window = { start: 0, count: 0 };
  #queue: Promise<void> = Promise.resolve();
  /** A `zombie` fault: heartbeats are taken but never acknowledged, until the client gives up on the connection. */
  #zombie = false;
  /** A `hold_dispatches` fault: dispatches wait here until the hold ends, then go in order. */
  #held: { payloads: GatewayPayload[]; timer: unknown } | null = null;

  /** READY's `resume_gateway_url` for sessions identified here (default: the browser's). */
  readonly resumeGatewayUrl?: string;
  /** The page the connection came from (the id its Web Lock is named after), when known. */
  readonly owner?: string;
  /** VOICE_SERVER_UPDATE's `endpoint` for joins made here (default: the browser's, `/voice`). */
  readonly voiceEndpoint?: string;

  constructor(
    private readonly gateway: GatewayConnectionHost,
    private readonly transport: GatewayTransport,
    url: string,
    options: GatewayConnectionOptions = {},
  ) {
    this.resumeGatewayUrl = options.resumeGatewayUrl;
    this.owner = options.owner;
    this.voiceEndpoint = options.voiceEndpoint;
    const parsed = parseGatewayUrl(url, options.compressions);
    if ('code' in parsed) {
      this.closeWith(parsed.code, parsed.reason);
      return;
    }
    this.#version = parsed.version;
    this.#interval = gateway.heartbeatIntervalMs;
    this.#send(opPayload(OPS.HELLO, { heartbeat_interval: this.#interval }));
    this.#armHeartbeat();
  }

  /** True once the connection is closed (by either side). */
  get closed(): boolean {
    return this.#state === 'closed';
  }

  /** The session this connection is attached to, once identified or resumed. */
  get session(): GatewaySession | null {
    return this.#session;
  }

  /** A payload from the client. Counted against the rate limit on arrival; handled in order. */
  receive(data: ClientData): void {
    if (this.#state === 'closed') return;
    const now = this.gateway.timers.now();
    if (now - this.#window.start >= GATEWAY_SEND_WINDOW_MS) this.#window = { start: now, count: 0 };
    if (++this.#window.count > GATEWAY_SEND_LIMIT) {
      this.closeWith(GATEWAY_CLOSE_CODES.RATE_LIMITED);
      return;
    }
    if (payloadTooLarge(data)) {
      this.closeWith(GATEWAY_CLOSE_CODES.DECODE_ERROR, PAYLOAD_TOO_LARGE_REASON);
      return;
    }
    this.#queue = this.#queue.then(async () => {
      if (this.#state === 'closed') return;
      try {
        await this.#handle(await toText(data));
      } catch (error) {
        this.gateway.reportError(error);
        this.closeWith(GATEWAY_CLOSE_CODES.UNKNOWN_ERROR);
      }
    });
  }

  /** The client closed the connection: 1000 and 1001 end the session, other codes keep it for Resume. */
  clientClosed(code: number): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.gateway.deadlines.clear(this);
    this.gateway.detach(this, { invalidate: code === 1000 || code === 1001 });
  }

  /** Closes the connection from the gateway's side with a gateway close code. */
  closeWith(code: number, reason: string = CLOSE_REASONS[code as GatewayCloseCode] ?? ''): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.gateway.deadlines.clear(this);
    this.transport.close(code, closeReason(reason));
    this.gateway.detach(this, { invalidate: this.gateway.invalidatesSession(code) });
  }

  /**
   * The session leaves this connection with Invalid Session (a sandbox reset, or a fault), after
   * which a new Identify may follow here; `resumable` tells the client it may Resume instead.
   */
  invalidateSession(resumable = false): void {
    if (this.#state !== 'ready' || !this.#session) return;
    this.#session.sink = null;
    this.#session = null;
    this.#state = 'open';
    this.#send(opPayload(OPS.INVALID_SESSION, resumable));
  }

  /** Stops acknowledging heartbeats (a `zombie` fault): the client should notice, close and resume. */
  zombie(): void {
    this.#zombie = true;
  }

  /**
   * Holds dispatches for `ms` (a `hold_dispatches` fault), then sends them in order; other
   * payloads (heartbeat ACKs) go on meanwhile. A second hold restarts the time.
   */
  hold(ms: number): void {
    if (this.#state === 'closed') return;
    const timers = this.gateway.timers;
    const payloads = this.#held?.payloads ?? [];
    if (this.#held) timers.clearTimeout(this.#held.timer);
    this.#held = {
      payloads,
      timer: timers.setTimeout(() => {
        this.#held = null;
        for (const payload of payloads) this.sendPayload(payload);
      }, ms),
    };
  }

  /** Sends a payload (the session's dispatches come through here). */
  sendPayload(payload: GatewayPayload): void {
    if (this.#state === 'closed') return;
    if (this.#held && payload.op === OPS.DISPATCH) this.#held.payloads.push(payload);
    else this.#send(payload);
  }

  /** Attaches the session that Identify or Resume produced. */
  attach(session: GatewaySession): void {
    this.#session = session;
    this.#state = 'ready';
  }

  #send(payload: GatewayPayload): void {
    this.transport.send(payloadText(payload));
  }

  #armHeartbeat(): void {
    this.gateway.deadlines.arm(this, this.#interval * GATEWAY_HEARTBEAT_TIMEOUT_FACTOR, () =>
      this.closeWith(GATEWAY_CLOSE_CODES.SESSION_TIMED_OUT),
    );
  }

  /** Validates `d` for an opcode; a mismatch closes with 4002 naming the field (never a value). */
  #valid<S extends v.GenericSchema>(schema: S, d: unknown): v.InferOutput<S> | undefined {
    const result = v.safeParse(schema, d);
    if (result.success) return result.output;
    // Name the field and what was expected, never the value sent (it may be a token).
    const issue = result.issues[0];
    const path = v.getDotPath(issue);
    this.closeWith(
      GATEWAY_CLOSE_CODES.DECODE_ERROR,
      `Invalid payload: ${path ? `d.${path}` : 'd'} expected ${issue.expected ?? 'a valid value'}.`,
    );
    return undefined;
  }

  async #handle(text: string): Promise<void> {
    let json: unknown;
    try {
      // Ids beyond 2^53 sent as numbers (op 8's user_ids, op 4's channel_id) keep their digits.
      json = parseExactJson(text);
    } catch {
      this.closeWith(GATEWAY_CLOSE_CODES.DECODE_ERROR, 'Payload is not valid JSON.');
      return;
    }
    const parsed = v.safeParse(PayloadSchema, json);
    if (!parsed.success)
      return this.closeWith(GATEWAY_CLOSE_CODES.DECODE_ERROR, 'Payload must be an object with an integer op.');
    const { op, d } = parsed.output;
    if (!CLIENT_OPS.has(op)) return this.closeWith(GATEWAY_CLOSE_CODES.UNKNOWN_OPCODE, `Unknown opcode: ${op}.`);
    if (this.#state !== 'ready' && !BEFORE_IDENTIFY.has(op))
      return this.closeWith(GATEWAY_CLOSE_CODES.NOT_AUTHENTICATED);
    switch (op) {
      case OPS.HEARTBEAT: {
        const seq = this.#valid(HeartbeatSchema, d);
        if (seq === undefined) return;
        this.#armHeartbeat();
        if (this.#session && typeof seq === 'number') this.gateway.acknowledge(this.#session, seq);
        if (this.#zombie) return;
        return this.#send(opPayload(OPS.HEARTBEAT_ACK));
      }
      case OPS.IDENTIFY:
      case OPS.RESUME: {
        if (this.#state !== 'open') return this.closeWith(GATEWAY_CLOSE_CODES.ALREADY_AUTHENTICATED);
        this.#state = 'identifying';
        if (op === OPS.IDENTIFY) {
          const identify = this.#valid(IdentifySchema, d);
          if (identify?.compress === true) this.transport.compressPayloads?.();
          if (identify) await this.gateway.identify(this, identify, this.#version);
        } else {
          const resume = this.#valid(ResumeSchema, d);
          if (resume) await this.gateway.resume(this, resume);
        }
        // Invalid Session leaves the connection open for a new Identify.
        if (this.#state === 'identifying') this.#state = 'open';
        return;
      }
      case OPS.REQUEST_GUILD_MEMBERS: {
        const request = this.#valid(RequestGuildMembersSchema, d);
        if (request) await this.gateway.requestGuildMembers(this.#session!, request);
        return;
      }
      case OPS.REQUEST_CHANNEL_INFO: {
        const request = this.#valid(RequestChannelInfoSchema, d);
        if (request) await this.gateway.requestChannelInfo(this.#session!, request);
        return;
      }
      case OPS.PRESENCE_UPDATE: {
        const update = this.#valid(PresenceUpdateSchema, d);
        if (update) await this.gateway.updatePresence(this.#session!, update);
        return;
      }
      case OPS.VOICE_STATE_UPDATE: {
        const request = this.#valid(VoiceStateUpdateSchema, d);
        if (request) await this.gateway.updateVoiceState(this.#session!, request, this.voiceEndpoint);
        return;
      }
    }
  }
}
