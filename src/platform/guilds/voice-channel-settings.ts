/**
 * The settings a voice or stage channel object always carries on the platform: `bitrate` (bits
 * per second) and `user_limit` (0 is no limit), with `rtc_region` (null: chosen automatically).
 * Bot libraries read them from every voice channel of GUILD_CREATE (discord.py fails to parse a
 * guild without them). Values and bounds are the platform's public documentation's: a new voice
 * channel is 64 kbps; 8 kbps is the floor; the ceiling grows with the guild's boost level.
 */
import type { ChannelRecord } from '../../store/records/core';
import { CHANNEL_TYPES } from '../../store/records/core';
import { ApiError } from '../core/errors';

/** The bitrate of a voice or stage channel created without one. */
export const VOICE_BITRATE_DEFAULT = 64_000;

/** The lowest bitrate a voice or stage channel may have. */
export const VOICE_BITRATE_MIN = 8_000;

/** The highest bitrate by boost level 0-3 (96, 128, 256 and 384 kbps). */
export const VOICE_BITRATE_MAX_BY_TIER = [96_000, 128_000, 256_000, 384_000] as const;

/** The highest bitrate at any boost level, for request schemas. */
export const VOICE_BITRATE_MAX = VOICE_BITRATE_MAX_BY_TIER[3];

/** A voice channel's user limit: 0 (none) to 99. */
export const VOICE_USER_LIMIT_MAX = 99;

/** A stage channel's user limit: 0 (none) to 10,000. */
export const STAGE_USER_LIMIT_MAX = 10_000;

/** Whether `type` is a channel type with voice settings. */
export function hasVoiceSettings(type: number): boolean {
  return type === CHANNEL_TYPES.GUILD_VOICE || type === CHANNEL_TYPES.GUILD_STAGE_VOICE;
}

/**
 * The voice settings of a channel object, or nothing for a channel without voice.
 * @example return { ...wire, ...voiceChannelSettings(channel) };
 */
export function voiceChannelSettings(
  channel: Pick<ChannelRecord, 'type' | 'bitrate' | 'user_limit'>,
): { bitrate: number; user_limit: number; rtc_region: null } | Record<string, never> {
  if (!hasVoiceSettings(channel.type)) return {};
  return { bitrate: channel.bitrate ?? VOICE_BITRATE_DEFAULT, user_limit: channel.user_limit ?? 0, rtc_region: null };
}

/**
 * Checks a new channel's `bitrate` and `user_limit` against its type and its guild's boost
 * level; 400 50035 naming the field otherwise (a text channel has neither).
 */
export function requireVoiceSettings(
  type: number,
  premiumTier: number,
  input: { bitrate?: number; user_limit?: number },
): void {
  if (!hasVoiceSettings(type)) {
    const field = input.bitrate !== undefined ? 'bitrate' : input.user_limit !== undefined ? 'user_limit' : undefined;
    if (field) throw ApiError.invalidForm({ [field]: 'Only voice and stage channels have this setting.' });
    return;
  }
  const maxBitrate = VOICE_BITRATE_MAX_BY_TIER[premiumTier] ?? VOICE_BITRATE_MAX_BY_TIER[0];
  if (input.bitrate !== undefined && input.bitrate > maxBitrate) {
    throw ApiError.invalidForm({ bitrate: `Must be ${maxBitrate} or less at this guild's boost level.` });
  }
  const maxUsers = type === CHANNEL_TYPES.GUILD_VOICE ? VOICE_USER_LIMIT_MAX : STAGE_USER_LIMIT_MAX;
  if (input.user_limit !== undefined && input.user_limit > maxUsers) {
    throw ApiError.invalidForm({ user_limit: `Must be ${maxUsers} or less.` });
  }
}
