/**
 * Messages posted to a DM channel with `POST /channels/{channel.id}/messages`, as a bot library
 * sends them (`user.send('hi')` opens the DM, then posts here). The caller must be one of the
 * channel's two users (404 10003 otherwise). A DM with a bot needs a guild both users are
 * members of (403 50007 otherwise, as the platform refuses a bot that shares no server with the
 * user); between two users, either one blocking the other refuses it. The message is kept in the
 * pair's channel with the game DMs, so the user finds the channel in `GET /users/@me/channels`;
 * MESSAGE_CREATE reaches both users' sessions, a bot's only with the DIRECT_MESSAGES intent.
 * DM messages here carry text: embeds, components, polls, stickers, files and replies are
 * refused with 400 50035 naming the field rather than dropped.
 */
import { write } from '../../store/write';
import type { StoredDmMessage } from '../../store/records/direct-messages';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import type { Principal } from '../oauth2/auth';
import { requireScopeOfResource } from '../oauth2/route-access';
import { lobbyMessageOrderKey } from '../lobbies/store';
import { eitherBlocked } from '../relationships/store';
import type { ReadTx } from '../../store/schema';
import { DM_STORES, serializeDmMessage } from './direct-messages';
import type { MessageCreateInput } from './schemas';

/** The parts of a message a DM channel here does not keep. */
const UNKEPT_FIELDS = ['embeds', 'components', 'poll', 'sticker_ids', 'attachments', 'message_reference'] as const;

/**
 * Whether `channelId` is a DM channel (rather than a guild channel).
 * @example if (await isDmChannel(ctx, channelId)) ...
 */
export async function isDmChannel(ctx: PlatformContext, channelId: string): Promise<boolean> {
  return (await ctx.db.getKey('dm_channels', channelId)) !== undefined;
}

/** The fields of a message that keeps only text (a DM's, a group DM's): no mentions, files, embeds or pins. */
export function textOnlyMessageFields() {
  return {
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    components: [],
    pinned: false,
  };
}

/** 400 50035 naming the first field a DM message here cannot carry; 400 50006 for an empty one. */
export function requireTextOnly(input: MessageCreateInput, fileCount: number): string {
  const present = (value: unknown) => value !== undefined && value !== null && !(Array.isArray(value) && !value.length);
  const field = UNKEPT_FIELDS.find((name) => present(input[name])) ?? (fileCount > 0 ? 'files' : undefined);
  if (field) throw ApiError.invalidForm({ [field]: 'Direct messages carry text only on this platform.' });
  const content = input.content ?? '';
  if (content.trim() === '') throw ApiError.of('CANNOT_SEND_EMPTY_MESSAGE');
  return content;
}

/** True when the two users are members of one guild at least. */
async function shareGuild(tx: ReadTx, a: string, b: string): Promise<boolean> {
  const [mine, theirs] = await Promise.all([
    tx.store('members').index('by_user').getAll(a),
    tx.store('members').index('by_user').getAll(b),
  ]);
  const guilds = new Set(mine.map((m) => m.guild_id));
  return theirs.some((m) => guilds.has(m.guild_id));
}

/**
 * Posts `input` to the DM channel `channelId` and answers the message object.
 * @example const message = await createDmChannelMessage(ctx, principal, channelId, { content: 'hi' });
 */
export async function createDmChannelMessage(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  input: MessageCreateInput,
  fileCount = 0,
) {
  const content = requireTextOnly(input, fileCount);
  const me = principal.user;
  return write(ctx, [...DM_STORES, 'members'], async (tx, emit) => {
    const channel = await tx.store('dm_channels').get(channelId);
    if (!channel || !channel.recipient_ids.includes(me.id)) throw ApiError.of('UNKNOWN_CHANNEL');
    requireScopeOfResource(principal, 'dm_channels.messages.write');
    const otherId = channel.user_low === me.id ? channel.user_high : channel.user_low;
    const other = await tx.store('users').get(otherId);
    if (!other) throw ApiError.of('CANNOT_MESSAGE_USER');
    const allowed =
      me.bot || other.bot ? await shareGuild(tx, me.id, other.id) : !(await eitherBlocked(tx, me.id, other.id));
    if (!allowed) throw ApiError.of('CANNOT_MESSAGE_USER');
    const id = ctx.ids.next();
    const record: StoredDmMessage = {
      id,
      order_key: lobbyMessageOrderKey(id),
      channel_id: channel.id,
      author_id: me.id,
      recipient_id: other.id,
      application_id: principal.application.id,
      content,
      metadata: null,
      moderation_metadata: null,
      created_at: ctx.clock.now(),
    };
    await tx.store('dm_messages').add(record);
    await tx.store('dm_channels').put({ ...channel, last_message_id: id });
    // The message object of a DM: no mentions, files or embeds are kept, so those are empty.
    const message = {
      ...serializeDmMessage(record, me, principal.application.id),
      ...textOnlyMessageFields(),
      ...(input.nonce !== undefined && input.nonce !== null ? { nonce: input.nonce } : {}),
    };
    emit({
      type: 'MESSAGE_CREATE',
      data: message,
      audience: { user_ids: [me.id, other.id], bot_intent: INTENTS.DIRECT_MESSAGES },
    });
    return message;
  });
}
