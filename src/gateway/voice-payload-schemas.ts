/**
 * Schemas of what voice clients send (ARCHITECTURE rule 4: validate at the edge). A payload
 * that does not fit its opcode's schema closes the connection with 4002 (failed to decode);
 * the protocol and the encryption mode are checked apart, with close codes of their own
 * (4012, 4016).
 */
import * as v from 'valibot';
import { SPEAKING_FLAGS } from './voice-protocol';

const snowflake = v.pipe(v.string(), v.regex(/^\d{1,20}$/, 'Value is not snowflake.'));
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

/** Speaking's `d`: a bitmask of {@link SPEAKING_FLAGS} (versions below 4 sent a boolean). */
export const VoiceSpeakingSchema = v.looseObject({
  speaking: v.union([
    v.pipe(uint, v.maxValue(SPEAKING_FLAGS.MICROPHONE | SPEAKING_FLAGS.SOUNDSHARE | SPEAKING_FLAGS.PRIORITY)),
    v.boolean(),
  ]),
  delay: v.optional(uint),
  ssrc: v.optional(uint),
});
