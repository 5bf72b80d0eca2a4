/**
 * The voice gateway wire, as the platform's public voice gateway defines it: JSON payloads
 * `{op, d}` (from v8, messages that a resume may have to deliver again also carry `seq`),
 * opcodes and close codes. Imported by the hub's voice gateway and by clients (the SDK's calls).
 *
 * The sandbox runs no media server (no SFU): audio goes from page to page over WebRTC, and the
 * voice gateway relays what the pages need to find each other and to agree on keys, with two
 * opcodes of platformpp's own (40 and 41, far from the platform's): PEER_SIGNAL carries an SDP
 * offer or answer or an ICE candidate to one participant, E2EE_MESSAGE an opaque key exchange
 * message to one participant or the whole call. The relay reads neither. The DAVE MLS opcodes
 * (21-31, some binary) are listed for reference but never sent: keys are agreed between the
 * pages instead (see `src/media/e2ee-session.ts`).
 */

/** Voice gateway opcodes. */
export const VOICE_OPCODES = {
  IDENTIFY: 0,
  SELECT_PROTOCOL: 1,
  READY: 2,
  HEARTBEAT: 3,
  SESSION_DESCRIPTION: 4,
  SPEAKING: 5,
  HEARTBEAT_ACK: 6,
  RESUME: 7,
  HELLO: 8,
  RESUMED: 9,
  CLIENTS_CONNECT: 11,
  CLIENT_DISCONNECT: 13,
  DAVE_PREPARE_TRANSITION: 21,
  DAVE_EXECUTE_TRANSITION: 22,
  DAVE_TRANSITION_READY: 23,
  DAVE_PREPARE_EPOCH: 24,
  DAVE_MLS_EXTERNAL_SENDER: 25,
  DAVE_MLS_KEY_PACKAGE: 26,
  DAVE_MLS_PROPOSALS: 27,
  DAVE_MLS_COMMIT_WELCOME: 28,
  DAVE_MLS_ANNOUNCE_COMMIT_TRANSITION: 29,
  DAVE_MLS_WELCOME: 30,
  DAVE_MLS_INVALID_COMMIT_WELCOME: 31,
  /** platformpp: a WebRTC signal (offer, answer, ICE candidate) to one participant of the call. */
  PEER_SIGNAL: 40,
  /** platformpp: an end-to-end encryption message (opaque to the gateway) to one participant or the call. */
  E2EE_MESSAGE: 41,
} as const;

/** Select Protocol's protocols: `udp` (the platform's RTP transport) and `webrtc` (peer connections between pages). */
export const VOICE_PROTOCOLS = ['udp', 'webrtc'] as const;

/** Voice gateway close codes. */
export const VOICE_CLOSE_CODES = {
  UNKNOWN_OPCODE: 4001,
  FAILED_TO_DECODE: 4002,
  NOT_AUTHENTICATED: 4003,
  AUTHENTICATION_FAILED: 4004,
  ALREADY_AUTHENTICATED: 4005,
  SESSION_NO_LONGER_VALID: 4006,
  SESSION_TIMEOUT: 4009,
  SERVER_NOT_FOUND: 4011,
  UNKNOWN_PROTOCOL: 4012,
  DISCONNECTED: 4014,
  VOICE_SERVER_CRASHED: 4015,
  UNKNOWN_ENCRYPTION_MODE: 4016,
  E2EE_REQUIRED: 4017,
  BAD_REQUEST: 4020,
  RATE_LIMITED: 4021,
  CALL_TERMINATED: 4022,
} as const;

/** A voice close code. */
export type VoiceCloseCode = (typeof VOICE_CLOSE_CODES)[keyof typeof VOICE_CLOSE_CODES];

/** The default reason sent with each close code. */
export const VOICE_CLOSE_REASONS: Readonly<Record<VoiceCloseCode, string>> = {
  4001: 'Unknown opcode.',
  4002: 'Failed to decode payload.',
  4003: 'Not authenticated.',
  4004: 'Authentication failed.',
  4005: 'Already authenticated.',
  4006: 'Session no longer valid.',
  4009: 'Session timeout.',
  4011: 'Server not found.',
  4012: 'Unknown protocol.',
  4014: 'Disconnected.',
  4015: 'Voice server crashed.',
  4016: 'Unknown encryption mode.',
  4017: 'E2EE/DAVE protocol required.',
  4020: 'Bad request.',
  4021: 'Disconnected: rate limited.',
  4022: 'Disconnected: call terminated.',
};

/** Speaking flags (a bitmask from v4): Microphone, Soundshare, Priority. */
export const SPEAKING_FLAGS = { MICROPHONE: 1 << 0, SOUNDSHARE: 1 << 1, PRIORITY: 1 << 2 } as const;

/** One voice payload; `seq` only on numbered messages of a v8 connection. */
export interface VoicePayload<D = unknown> {
  op: number;
  d: D;
  seq?: number;
}

/** Identify's `d`. */
export interface VoiceIdentifyData {
  /** The guild id, or the lobby id for a lobby call. */
  server_id: string;
  user_id: string;
  /** The main gateway session that joined (the voice state's `session_id`). */
  session_id: string;
  /** The token of VOICE_SERVER_UPDATE. */
  token: string;
  /** The highest DAVE protocol version the client supports; 0 or absent: none. */
  max_dave_protocol_version?: number;
}

/** Resume's `d`; `seq_ack` (v8) is the last numbered message received (-1 or absent: none). */
export interface VoiceResumeData {
  server_id: string;
  session_id: string;
  token: string;
  seq_ack?: number;
}

/** Ready's `d`. */
export interface VoiceReadyData {
  ssrc: number;
  ip: string;
  port: number;
  modes: string[];
}

/** Session Description's `d`; `secret_key` only for `udp` (WebRTC negotiates its own transport keys). */
export interface VoiceSessionDescriptionData {
  mode: string;
  secret_key?: number[];
  dave_protocol_version: number;
  /** For `webrtc`: the codec the peers send (Opus). */
  audio_codec?: string;
}

/**
 * PEER_SIGNAL's `d`. A client names the participant it is for (`user_id`); the gateway delivers
 * it to that participant with `user_id` set to the sender.
 */
export interface VoicePeerSignalData {
  user_id: string;
  signal:
    | { type: 'offer' | 'answer'; sdp: string; e2ee: boolean }
    | { type: 'candidate'; candidate: string; sdp_mid: string | null; sdp_m_line_index: number | null };
}

/**
 * E2EE_MESSAGE's `d`: `data` is opaque text. A client sends it to one participant (`user_id`)
 * or, without `user_id`, to everyone else in the call; it arrives with `user_id` set to the sender.
 */
export interface VoiceE2eeMessageData {
  user_id?: string;
  data: string;
}
