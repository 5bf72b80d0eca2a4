/**
 * Pins: pin and unpin a message (PIN_MESSAGES; before 2026-02-23 MANAGE_MESSAGES also did, by
 * the platform clock), and the paginated list of a channel's pins, newest pin first. A change
 * logs CHANNEL_PINS_UPDATE with the channel's newest pin time. The deprecated routes answer
 * from the same functions.
 */
import { write } from '../../store/write';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PINS_PAGE_MAX, PINS_PER_CHANNEL_MAX } from '../core/limits';
import { MESSAGE_READ_STORES, canPin, canReadHistory, loadChannelAccess, requireView } from './access';
import { pinsAudience, pinsUpdateData } from './events';
import { channelKeyRange, messageOrderKey, pinKey, pinsBeforeRange } from './keys';
import { contentReaderOf, messagesForReader } from './reads';
import type { ChannelMessage } from './wire';

/**
 * Pins (`pin` true) or unpins a message. Pinning a pinned message, or unpinning one that is not
 * pinned, changes nothing and logs nothing. A channel holds at most 250 pins (400 30003).
 */
export async function setMessagePinned(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  messageId: string,
  pin: boolean,
): Promise<void> {
  await write(ctx, MESSAGE_READ_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const access = await loadChannelAccess(tx, channelId, principal.user.id);
    requireView(access);
    if (!canPin(access.permissions, now)) throw ApiError.of('MISSING_PERMISSIONS');
    const messages = tx.store('channel_messages');
    const record = await messages.get([channelId, messageOrderKey(messageId)]);
    if (!record) throw ApiError.of('UNKNOWN_MESSAGE');
    if ((record.pinned_at !== undefined) === pin) return;
    if (pin) {
      if ((await messages.index('by_pin').count(channelKeyRange(channelId))) >= PINS_PER_CHANNEL_MAX) {
        throw ApiError.of('PINS_MAX', `Maximum number of pins reached for the channel (${PINS_PER_CHANNEL_MAX})`);
      }
      await messages.put({ ...record, pinned_at: now, pin_key: pinKey(now, record.id) });
    } else {
      const { pinned_at: _at, pin_key: _key, ...unpinned } = record;
      await messages.put(unpinned);
    }
    const [newest] = await messages.index('by_pin').getAll(channelKeyRange(channelId), 1);
    emit({
      type: 'CHANNEL_PINS_UPDATE',
      data: pinsUpdateData(record.guild_id, channelId, newest?.pinned_at ?? null),
      audience: pinsAudience(record.guild_id),
    });
  });
}

/** A page of pins: `{items: [{pinned_at, message}], has_more}`. */
export interface PinsPage {
  items: { pinned_at: string; message: ChannelMessage }[];
  has_more: boolean;
}

/**
 * `GET /channels/{id}/messages/pins?before&limit`: VIEW_CHANNEL; without READ_MESSAGE_HISTORY
 * no pins. `before` (epoch ms) answers pins pinned strictly before it; 1 to 50 (50 unless asked).
 */
export async function listPins(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  query: { before?: number; limit?: number },
): Promise<PinsPage> {
  const reader = await contentReaderOf(ctx, principal);
  const tx = ctx.db.read(MESSAGE_READ_STORES);
  const access = await loadChannelAccess(tx, channelId, principal.user.id);
  requireView(access);
  if (!canReadHistory(access)) return { items: [], has_more: false };
  const limit = query.limit ?? PINS_PAGE_MAX;
  const records = await tx
    .store('channel_messages')
    .index('by_pin')
    .getAll(pinsBeforeRange(channelId, query.before), limit + 1);
  const page = records.slice(0, limit);
  const messages = await messagesForReader(tx, page, reader);
  return {
    items: page.map((r, i) => ({ pinned_at: new Date(r.pinned_at!).toISOString(), message: messages[i] })),
    has_more: records.length > limit,
  };
}

/** The deprecated `GET /channels/{id}/pins`: the newest 50 pinned messages as an array. */
export async function listLegacyPins(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
): Promise<ChannelMessage[]> {
  return (await listPins(ctx, principal, channelId, { limit: PINS_PAGE_MAX })).items.map((item) => item.message);
}
