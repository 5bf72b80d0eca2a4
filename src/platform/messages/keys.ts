import { keyRange, type KeyRange } from '../../store/port';
/**
 * Keys of the `channel_messages` store and its indexes. Order keys sort newest first, so the
 * newest N messages of a channel (or the N before a given one) are one bounded `getAll`, and a
 * message is found by id without an index: its key is `[channel_id, messageOrderKey(id)]`.
 */

const MAX_U64 = (1n << 64n) - 1n;
/** Timestamps below this (year 2286) fit the 13 digits of a pin key. */
const MAX_TIME = 9_999_999_999_999;

/**
 * 2^64-1 minus the id, padded to 20 digits: ascending keys are newest first.
 * @example messageOrderKey('1') // '18446744073709551614'
 */
export function messageOrderKey(id: string): string {
  return (MAX_U64 - BigInt(id)).toString().padStart(20, '0');
}

/** Every key of one channel (or guild) in a `[id, order_key]` key or index. */
export function channelKeyRange(id: string): KeyRange {
  return keyRange.bound([id, ''], [id, '\uffff']);
}

/**
 * The pins index key of a message pinned at `pinnedAt`: newest pin first, then newest message.
 * @example pinKey(Date.parse('2026-01-01'), '42')
 */
export function pinKey(pinnedAt: number, messageId: string): string {
  return `${String(MAX_TIME - pinnedAt).padStart(13, '0')}:${messageOrderKey(messageId)}`;
}

/** The pins of a channel pinned strictly before `before` (epoch ms), newest first. */
export function pinsBeforeRange(channelId: string, before: number | undefined): KeyRange {
  if (before === undefined) return channelKeyRange(channelId);
  // Keys of pins at `before` start with its prefix and sort below prefix + ';' (':' < ';').
  return keyRange.bound([channelId, `${String(MAX_TIME - before).padStart(13, '0')};`], [channelId, '\uffff']);
}
