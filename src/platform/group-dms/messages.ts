/**
 * Messages of a group DM: `POST /channels/{channel.id}/messages` and `GET
 * /channels/{channel.id}/messages` by its members (anyone else: 404 10003). A user's token needs
 * `dm_channels.messages.write` / `.read` besides the route's scope, as in a DM. Like a DM's, a
 * group DM's messages carry text: embeds, components, polls, stickers, files and replies are
 * refused with 400 50035 naming the field. MESSAGE_CREATE reaches every member's sessions, a
 * bot's only with the DIRECT_MESSAGES intent.
 */
import { write } from '../../store/write';
import { keyRange } from '../../store/port';
import type { StoredGroupDmMessage } from '../../store/records/group-dms';
import type { Message, UserRecord } from '../../store/records/core';
import type { PlatformContext } from '../core/context';
import { INTENTS } from '../core/intents';
import { CHANNEL_MESSAGES_DEFAULT } from '../core/limits';
import type { Principal } from '../oauth2/auth';
import { requireScopeOfResource } from '../oauth2/route-access';
import { deletedUser, serializeUser } from '../accounts/users';
import { lobbyMessageOrderKey } from '../lobbies/store';
import { requireTextOnly, textOnlyMessageFields } from '../messages/dm-channel-messages';
import type { MessageCreateInput } from '../messages/schemas';
import { loadMembers, memberChannel } from './wire';

/** A group DM message on the wire: no mentions, files or embeds are kept, so those are empty. */
function serializeGroupDmMessage(message: StoredGroupDmMessage, author: UserRecord | undefined): Message {
  return {
    id: message.id,
    type: 0,
    content: message.content,
    channel_id: message.channel_id,
    author: author ? serializeUser(author) : deletedUser(message.author_id),
    timestamp: new Date(message.created_at).toISOString(),
    edited_timestamp: null,
    flags: 0,
    application_id: message.application_id,
    ...textOnlyMessageFields(),
    ...(message.nonce !== undefined ? { nonce: message.nonce } : {}),
  } as Message;
}

/**
 * Posts `input` to the group DM `channelId` as one of its members.
 * @example const message = await createGroupDmMessage(ctx, principal, channelId, { content: 'gg' });
 */
export async function createGroupDmMessage(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  input: MessageCreateInput,
  fileCount = 0,
): Promise<Message> {
  const content = requireTextOnly(input, fileCount);
  return write(ctx, ['users', 'group_dm_channels', 'group_dm_messages'], async (tx, emit) => {
    const channel = await memberChannel(tx, channelId, principal.user.id);
    requireScopeOfResource(principal, 'dm_channels.messages.write');
    const id = ctx.ids.next();
    const record: StoredGroupDmMessage = {
      id,
      order_key: lobbyMessageOrderKey(id),
      channel_id: channel.id,
      author_id: principal.user.id,
      application_id: principal.application.id,
      content,
      ...(input.nonce !== undefined && input.nonce !== null ? { nonce: input.nonce } : {}),
      created_at: ctx.clock.now(),
    };
    await tx.store('group_dm_messages').add(record);
    await tx.store('group_dm_channels').put({ ...channel, last_message_id: id });
    const message = serializeGroupDmMessage(record, principal.user);
    emit({
      type: 'MESSAGE_CREATE',
      data: message,
      audience: { user_ids: channel.member_ids, bot_intent: INTENTS.DIRECT_MESSAGES },
    });
    return message;
  });
}

/**
 * A group DM's history, newest first: `limit` (1-100, 50 unless asked) messages `before` or
 * `after` a message id, or `around` one (half before it, the rest from it on).
 */
export async function listGroupDmMessages(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  query: { limit?: number; before?: string; after?: string; around?: string },
): Promise<Message[]> {
  const tx = ctx.db.read(['users', 'group_dm_channels', 'group_dm_messages']);
  const channel = await memberChannel(tx, channelId, principal.user.id);
  requireScopeOfResource(principal, 'dm_channels.messages.read');
  const limit = query.limit ?? CHANNEL_MESSAGES_DEFAULT;
  const store = tx.store('group_dm_messages');
  // Keys sort newest first: older messages have greater order keys.
  const low: [string, string] = [channel.id, ''];
  const high: [string, string] = [channel.id, '\uffff'];
  const at = (id: string): [string, string] => [channel.id, lobbyMessageOrderKey(id)];
  let records: StoredGroupDmMessage[];
  if (query.before !== undefined) {
    records = await store.getAll(keyRange.bound(at(query.before), high, true, false), limit);
  } else if (query.after !== undefined) {
    // The `limit` messages right after it: the oldest of the newer ones, answered newest first.
    records = (await store.getAll(keyRange.bound(low, at(query.after), false, true), limit, 'prev')).reverse();
  } else if (query.around !== undefined) {
    const newer = Math.floor(limit / 2);
    const [after, from] = await Promise.all([
      newer > 0 ? store.getAll(keyRange.bound(low, at(query.around), false, true), newer, 'prev') : [],
      store.getAll(keyRange.bound(at(query.around), high), limit - newer),
    ]);
    records = [...after.reverse(), ...from];
  } else {
    records = await store.getAll(keyRange.bound(low, high), limit);
  }
  const users = await loadMembers(tx, { member_ids: [...new Set(records.map((m) => m.author_id))] });
  return records.map((m) => serializeGroupDmMessage(m, users.get(m.author_id)));
}
