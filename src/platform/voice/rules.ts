/**
 * The voice gateway's dated rules (spec: Versioning 4, Limits "Calls"), as pure functions of
 * the request and the platform clock's `now`, so that the sandbox can stand on either side of
 * each date:
 * - the version must be passed explicitly; versions below 4 were discontinued on 2024-11-18;
 * - the deprecated transport encryption modes (every `xsalsa20_poly1305*` variant and
 *   `aead_aes256_gcm`) were discontinued the same day;
 * - from 2026-03-01 only end-to-end encrypted (DAVE) calls are supported for DMs, group DMs,
 *   voice channels and streams: a client that supports no DAVE version is refused.
 */
import { inForce, RULE_DATES } from '../core/dates';
import {
  VOICE_DAVE_PROTOCOL_VERSION,
  VOICE_GATEWAY_VERSION_MAX,
  VOICE_GATEWAY_VERSION_MIN,
  VOICE_GATEWAY_VERSION_SUPPORTED_MIN,
} from '../core/limits';

/** Transport encryption modes the voice gateway supports (the first is preferred). */
export const SUPPORTED_ENCRYPTION_MODES = ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'] as const;

/** Modes accepted only before 2024-11-18. */
export const DEPRECATED_ENCRYPTION_MODES = [
  'aead_aes256_gcm',
  'xsalsa20_poly1305_lite_rtpsize',
  'xsalsa20_poly1305_lite',
  'xsalsa20_poly1305_suffix',
  'xsalsa20_poly1305',
] as const;

/**
 * What a voice connection is for, as far as the E2EE rule goes: a guild voice channel, a stage
 * channel (not named by the rule: the platform's E2EE covers voice channels, not stages), a
 * lobby call (a call among a group of users, like a group DM), or a DM call.
 */
export type VoiceCallKind = 'voice_channel' | 'stage' | 'lobby' | 'dm';

/** A refusal: the reason a close frame carries. */
export interface VoiceRefusal {
  reason: string;
}

/**
 * The version a voice gateway URL's `v` asks for, or why it is refused.
 * @example voiceGatewayVersion('8', now) // { version: 8 }
 */
export function voiceGatewayVersion(v: string | null, now: number): { version: number } | VoiceRefusal {
  if (v === null || v === '')
    return { reason: `A voice gateway version is required: connect with ?v=${VOICE_GATEWAY_VERSION_MAX}.` };
  const version = /^\d{1,3}$/.test(v) ? Number(v) : NaN;
  if (!(version >= VOICE_GATEWAY_VERSION_MIN && version <= VOICE_GATEWAY_VERSION_MAX)) {
    return {
      reason: `Unknown voice gateway version (supported: ${VOICE_GATEWAY_VERSION_SUPPORTED_MIN} to ${VOICE_GATEWAY_VERSION_MAX}).`,
    };
  }
  if (version < VOICE_GATEWAY_VERSION_SUPPORTED_MIN && inForce(RULE_DATES.VOICE_LEGACY_DISCONTINUED, now)) {
    return {
      reason: `Voice gateway versions below ${VOICE_GATEWAY_VERSION_SUPPORTED_MIN} were discontinued on 2024-11-18.`,
    };
  }
  return { version };
}

/** The modes a Ready payload offers at `now`: the deprecated ones too before 2024-11-18. */
export function offeredEncryptionModes(now: number): string[] {
  return inForce(RULE_DATES.VOICE_LEGACY_DISCONTINUED, now)
    ? [...SUPPORTED_ENCRYPTION_MODES]
    : [...SUPPORTED_ENCRYPTION_MODES, ...DEPRECATED_ENCRYPTION_MODES];
}

/** Null when Select Protocol may use `mode` at `now`, else why not (close code 4016). */
export function encryptionModeRefusal(mode: string, now: number): VoiceRefusal | null {
  if ((SUPPORTED_ENCRYPTION_MODES as readonly string[]).includes(mode)) return null;
  if ((DEPRECATED_ENCRYPTION_MODES as readonly string[]).includes(mode)) {
    return inForce(RULE_DATES.VOICE_LEGACY_DISCONTINUED, now)
      ? { reason: `Encryption mode ${mode} was discontinued on 2024-11-18.` }
      : null;
  }
  return { reason: 'Unknown encryption mode.' };
}

/**
 * The DAVE protocol version of a session: the lower of what the client supports
 * (`max_dave_protocol_version`; absent means 0, none) and what the gateway supports. From
 * 2026-03-01 a call the E2EE rule covers must be end-to-end encrypted: a client with no DAVE
 * support is refused (close code 4017), so the negotiated version is above 0.
 */
export function negotiateDaveVersion(
  clientMax: number | undefined,
  kind: VoiceCallKind,
  now: number,
): { version: number } | VoiceRefusal {
  const version = Math.min(clientMax ?? 0, VOICE_DAVE_PROTOCOL_VERSION);
  if (version === 0 && kind !== 'stage' && inForce(RULE_DATES.E2EE_CALLS_ONLY, now)) {
    return { reason: 'E2EE/DAVE protocol required.' };
  }
  return { version };
}
