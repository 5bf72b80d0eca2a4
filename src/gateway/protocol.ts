/**
 * The gateway wire (CONTRACT §4): payloads `{op, d, s, t}`, opcodes and close codes, as the
 * platform's public gateway defines them. Imported by the hub (server side), `GatewaySocket`
 * (page side) and every client that wants typed payloads.
 */
import type { GatewayDispatch, GatewayDispatchName, GatewayDispatchPayloads } from '../store/records/dispatches';

/** Gateway opcodes. */
export const GATEWAY_OPCODES = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  PRESENCE_UPDATE: 3,
  VOICE_STATE_UPDATE: 4,
  RESUME: 6,
  RECONNECT: 7,
  REQUEST_GUILD_MEMBERS: 8,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
  REQUEST_CHANNEL_INFO: 43,
} as const;

/** A gateway opcode. */
export type GatewayOpcode = (typeof GATEWAY_OPCODES)[keyof typeof GATEWAY_OPCODES];

/** Close codes the gateway closes a connection with, and the messages it gives as the reason. */
export const GATEWAY_CLOSE_CODES = {
  UNKNOWN_ERROR: 4000,
  UNKNOWN_OPCODE: 4001,
  DECODE_ERROR: 4002,
  NOT_AUTHENTICATED: 4003,
  AUTHENTICATION_FAILED: 4004,
  ALREADY_AUTHENTICATED: 4005,
  INVALID_SEQ: 4007,
  RATE_LIMITED: 4008,
  SESSION_TIMED_OUT: 4009,
  INVALID_SHARD: 4010,
  SHARDING_REQUIRED: 4011,
  INVALID_API_VERSION: 4012,
  INVALID_INTENTS: 4013,
  DISALLOWED_INTENTS: 4014,
} as const;

/** A gateway close code. */
export type GatewayCloseCode = (typeof GATEWAY_CLOSE_CODES)[keyof typeof GATEWAY_CLOSE_CODES];

/** The default reason sent with each close code. */
export const CLOSE_REASONS: Readonly<Record<GatewayCloseCode, string>> = {
  4000: 'Unknown error.',
  4001: 'Unknown opcode.',
  4002: 'Decode error.',
  4003: 'Not authenticated.',
  4004: 'Authentication failed.',
  4005: 'Already authenticated.',
  4007: 'Invalid seq.',
  4008: 'Rate limited.',
  4009: 'Session timed out.',
  4010: 'Invalid shard.',
  4011: 'Sharding required.',
  4012: 'Invalid API version.',
  4013: 'Invalid intent(s).',
  4014: 'Disallowed intent(s).',
};

/**
 * Close codes after which connecting again cannot help until the client changes what it sends:
 * a bad token, shard, API version or intents. A client stops on them.
 */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  GATEWAY_CLOSE_CODES.AUTHENTICATION_FAILED,
  GATEWAY_CLOSE_CODES.INVALID_SHARD,
  GATEWAY_CLOSE_CODES.SHARDING_REQUIRED,
  GATEWAY_CLOSE_CODES.INVALID_API_VERSION,
  GATEWAY_CLOSE_CODES.INVALID_INTENTS,
  GATEWAY_CLOSE_CODES.DISALLOWED_INTENTS,
]);

/**
 * Close codes after which a client connects again but must Identify afresh: the seq it resumed
 * from is not one the gateway sent, or its session timed out.
 */
export const IDENTIFY_AGAIN_CLOSE_CODES: ReadonlySet<number> = new Set([
  GATEWAY_CLOSE_CODES.INVALID_SEQ,
  GATEWAY_CLOSE_CODES.SESSION_TIMED_OUT,
]);

/**
 * Close codes that end the session on the gateway's side (it forgets the session): the fatal
 * ones and a timed-out session. After any other close the session waits to be resumed.
 */
export const NON_RESUMABLE_CLOSE_CODES: ReadonlySet<number> = new Set([
  ...FATAL_CLOSE_CODES,
  GATEWAY_CLOSE_CODES.SESSION_TIMED_OUT,
]);

/**
 * The code a client closes its own socket with when it means to Resume on a new one: 1000 and
 * 1001 would end the session.
 */
export const RESUME_CLOSE_CODE = GATEWAY_CLOSE_CODES.UNKNOWN_ERROR;

/** Gateway API versions the gateway accepts in the URL's `v`. */
export const GATEWAY_VERSIONS = [9, 10] as const;

/** Identify `capabilities` bit that opts in to channel obfuscation (spec: temporary testing opt-in). */
export const CAPABILITY_CHANNEL_OBFUSCATION = 1 << 15;

/**
 * Identify `capabilities` bit of the platform's own client: the session `<pp-activity-frame>`
 * keeps for its user. Besides the public dispatches it receives what the client hears of its
 * user and nobody else does (activity joins, quest status, the device's thermal state), which
 * the RPC host turns into the activity's events. The sandbox's own bit: no public client sets it.
 */
export const CAPABILITY_PLATFORM_CLIENT = 1 << 30;

/** One gateway payload. `s` and `t` are null unless `op` is 0 (Dispatch). */
export interface GatewayPayload<D = unknown> {
  op: number;
  d: D;
  s: number | null;
  t: string | null;
}

/** Identify's `d`. */
export interface IdentifyData {
  /** A bot token (raw or `Bot …`) or `Bearer <access_token>`. */
  token: string;
  intents?: number;
  properties?: { os?: string; browser?: string; device?: string };
  capabilities?: number;
  compress?: boolean;
  large_threshold?: number;
  shard?: [number, number];
  presence?: unknown;
}

/** Resume's `d`. */
export interface ResumeData {
  token: string;
  session_id: string;
  seq: number;
}

/** Request Guild Members' `d`. */
export interface RequestGuildMembersData {
  guild_id: string;
  query?: string;
  limit?: number;
  presences?: boolean;
  user_ids?: string | string[];
  nonce?: string;
}

/** Request Channel Info's `d`. */
export interface RequestChannelInfoData {
  guild_id: string;
  fields: ('status' | 'voice_start_time')[];
}

/**
 * A dispatch before it is numbered: the event name and its data, typed by the dispatch wire
 * (`src/store/records/dispatches.ts`, with the records because the event log stores them).
 */
export type Dispatch = GatewayDispatch;

export type { GatewayDispatch, GatewayDispatchName, GatewayDispatchPayloads };

/**
 * A payload that is not a dispatch.
 * @example opPayload(GATEWAY_OPCODES.HEARTBEAT_ACK) // { op: 11, d: null, s: null, t: null }
 */
export function opPayload(op: number, d: unknown = null): GatewayPayload {
  return { op, d, s: null, t: null };
}
