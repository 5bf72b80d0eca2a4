/**
 * Schemas of what voice clients send (ARCHITECTURE rule 4: validate at the edge). A payload
 * that does not fit its opcode's schema closes the connection with 4002 (failed to decode);
 * the protocol and the encryption mode are checked apart, with close codes of their own
 * (4012, 4016).
 */
import * as v from 'valibot';
import { VOICE_RELAY_MESSAGE_MAX } from '../platform/core/limits';
import { snowflakeSchema } from '../platform/core/schema-parts';
import { SPEAKING_FLAGS } from './voice-protocol';

/** An id, as a string or a JSON number (read exactly beyond 2^53), always output as its string. */
const snowflake = snowflakeSchema;
const uint = v.pipe(v.number(), v.integer(), v.minValue(0));
/** A sequence number a client acknowledges: -1 (none yet) or a 16-bit value. */
const seqAck = v.pipe(v.number(), v.integer(), v.minValue(-1), v.maxValue(0xffff));

/** Every payload: a JSON object with an integer `op`. */
export const VoicePayloadSchema = v.looseObject({ op: v.pipe(v.number(), v.integer()), d: v.optional(v.unknown()) });

/** Identify's `d`. */
export const VoiceIdentifySchema = v.looseObject({
  server_id: snowflake,
  user_id: snowflake,
  session_id: v.pipe(v.string(), v.minLength(1)),
  token: v.pipe(v.string(), v.minLength(1)),
  max_dave_protocol_version: v.optional(uint),
});

/** Resume's `d`. */
export const VoiceResumeSchema = v.looseObject({
  server_id: snowflake,
  session_id: v.pipe(v.string(), v.minLength(1)),
  token: v.pipe(v.string(), v.minLength(1)),
  seq_ack: v.optional(seqAck),
});

/** Heartbeat's `d`: from v8 `{t, seq_ack}`; below v8 the nonce alone. Either is accepted on any version. */
export const VoiceHeartbeatSchema = v.union([
  v.looseObject({ t: v.optional(v.number()), seq_ack: v.optional(seqAck) }),
  v.number(),
]);

/** Select Protocol's `d`: the protocol (checked apart: 4012) and the UDP address, port and mode. */
export const VoiceSelectProtocolSchema = v.looseObject({
  protocol: v.string(),
  data: v.looseObject({
    address: v.string(),
    port: v.pipe(uint, v.maxValue(65_535)),
    mode: v.string(),
  }),
});

/** Select Protocol for `webrtc`: the mode only (the peers find each other through PEER_SIGNAL). */
export const VoiceSelectWebrtcSchema = v.looseObject({
  protocol: v.literal('webrtc'),
  data: v.looseObject({ mode: v.string() }),
});

/** Relayed text: bounded, so that one client cannot flood a call. */
const relayText = v.pipe(v.string(), v.maxLength(VOICE_RELAY_MESSAGE_MAX));

/** PEER_SIGNAL's `d`: an offer or answer (SDP), or an ICE candidate, for one participant. */
export const VoicePeerSignalSchema = v.looseObject({
  user_id: snowflake,
  signal: v.variant('type', [
    v.looseObject({ type: v.picklist(['offer', 'answer']), sdp: relayText, e2ee: v.boolean() }),
    v.looseObject({
      type: v.literal('candidate'),
      candidate: relayText,
      sdp_mid: v.nullable(v.pipe(v.string(), v.maxLength(64))),
      sdp_m_line_index: v.nullable(v.pipe(uint, v.maxValue(64))),
    }),
  ]),
});

/** E2EE_MESSAGE's `d`: opaque text for one participant, or the call. */
export const VoiceE2eeMessageSchema = v.looseObject({
  user_id: v.optional(snowflake),
  data: relayText,
});

/** Speaking's `d`: a bitmask of {@link SPEAKING_FLAGS} (versions below 4 sent a boolean). */
export const VoiceSpeakingSchema = v.looseObject({
  speaking: v.union([
    v.pipe(uint, v.maxValue(SPEAKING_FLAGS.MICROPHONE | SPEAKING_FLAGS.SOUNDSHARE | SPEAKING_FLAGS.PRIORITY)),
    v.boolean(),
  ]),
  delay: v.optional(uint),
  ssrc: v.optional(uint),
});
