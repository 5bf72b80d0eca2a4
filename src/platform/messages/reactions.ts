/**
 * Reactions on messages, as the platform's public API has them, in guild channels and in DM
 * channels:
 * - adding one's own needs VIEW_CHANNEL and READ_MESSAGE_HISTORY, and ADD_REACTIONS only when the
 *   emoji is not on the message yet (joining an existing reaction does not); a message holds at
 *   most 20 distinct emoji (400 30010); reacting twice changes nothing;
 * - removing one's own needs to see the channel; removing another user's, every reaction of one
 *   emoji, or all of them needs MANAGE_MESSAGES (in a DM channel, 403 50003: only one's own);
 * - the users of one emoji, in user id order, `after` a user id, 1 to 100 (25 unless asked);
 * - MESSAGE_REACTION_ADD / REMOVE / REMOVE_ALL / REMOVE_EMOJI are logged in the same write: in a
 *   guild to sessions with GUILD_MESSAGE_REACTIONS that can view the channel, in a DM to its two
 *   users (bots with DIRECT_MESSAGE_REACTIONS).
 * Burst (super) reactions cost the platform's paid currency: nobody adds one here, so `type=1`
 * lists no users and the burst counts stay 0.
 */
import { write, type WriteTx } from '../../store/write';
import type { StoredReaction } from '../../store/records/messages';
import type { EventAudience, ReadTx } from '../../store/schema';
import type { User } from '../../store/records/core';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { REACTION_USERS_PAGE_DEFAULT, REACTIONS_PER_MESSAGE_MAX } from '../core/limits';
import { PERMISSIONS } from '../core/permissions';
import { snowflakeKey } from '../core/snowflake';
import { deletedUser, serializeUser } from '../accounts/users';
import { serializeMember } from '../guilds/wire';
import type { Principal } from '../oauth2/auth';
import { requireScopeOfResource } from '../oauth2/route-access';
import { lobbyMessageOrderKey } from '../lobbies/store';
import {
  MESSAGE_READ_STORES,
  loadChannelAccess,
  requireChannelPermissions,
  requireView,
  type ChannelAccess,
} from './access';
import { messageOrderKey } from './keys';
import { resolveReactionEmoji, type ResolvedEmoji } from './reaction-emoji';
import {
  emojiReactionsRange,
  messageReactionsRange,
  reactionUsersRange,
  withReactionAdded,
  withReactionRemoved,
} from './reactions-store';

/** Every store a reaction write reads or touches. */
const REACTION_STORES = [...MESSAGE_READ_STORES, 'dm_channels', 'dm_messages', 'emojis'] as const;

/** The message reacted to: where it is, whose it is, its reactions, and how to store new counts. */
interface ReactionTarget {
  channelId: string;
  messageId: string;
  authorId: string;
  reactions: StoredReaction[];
  /** The caller's view of the guild channel; null in a DM channel. */
  access: ChannelAccess | null;
  audience: EventAudience;
  save(reactions: StoredReaction[]): Promise<void>;
}

/** `reactions` as a record keeps it: left out when there are none. */
function withReactions<T extends { reactions?: StoredReaction[] }>(record: T, reactions: StoredReaction[]): T {
  const { reactions: _old, ...rest } = record;
  return (reactions.length ? { ...rest, reactions } : rest) as T;
}

/**
 * The message `messageId` of `channelId` as the caller reaches it: a DM channel's two users
 * (404 10003 for anyone else) with the `dm_channels.messages.*` scope, or a guild channel's
 * members who can view it with `messages.*`. 404 10008 for an unknown message.
 */
async function loadTarget(
  tx: ReadTx,
  principal: Principal,
  channelId: string,
  messageId: string,
  mode: 'read' | 'write',
): Promise<ReactionTarget> {
  const userId = principal.user.id;
  const dm = await tx.store('dm_channels').get(channelId);
  if (dm) {
    if (!dm.recipient_ids.includes(userId)) throw ApiError.of('UNKNOWN_CHANNEL');
    requireScopeOfResource(principal, `dm_channels.messages.${mode}`);
    const record = await tx.store('dm_messages').get([channelId, lobbyMessageOrderKey(messageId)]);
    if (!record) throw ApiError.of('UNKNOWN_MESSAGE');
    return {
      channelId,
      messageId: record.id,
      authorId: record.author_id,
      reactions: record.reactions ?? [],
      access: null,
      audience: { user_ids: [...dm.recipient_ids], bot_intent: INTENTS.DIRECT_MESSAGE_REACTIONS },
      save: (reactions) =>
        (tx as WriteTx)
          .store('dm_messages')
          .put(withReactions(record, reactions))
          .then(() => {}),
    };
  }
  requireScopeOfResource(principal, `messages.${mode}`);
  const access = await loadChannelAccess(tx, channelId, userId);
  requireView(access);
  const record = await tx.store('channel_messages').get([channelId, messageOrderKey(messageId)]);
  if (!record) throw ApiError.of('UNKNOWN_MESSAGE');
  return {
    channelId,
    messageId: record.id,
    authorId: record.author_id,
    reactions: record.reactions ?? [],
    access,
    audience: { guild_id: record.guild_id, intent: INTENTS.GUILD_MESSAGE_REACTIONS },
    save: (reactions) =>
      (tx as WriteTx)
        .store('channel_messages')
        .put(withReactions(record, reactions))
        .then(() => {}),
  };
}

/** The ids every reaction event carries: the channel, the message, and the guild in a guild. */
function eventIds(target: ReactionTarget) {
  return {
    channel_id: target.channelId,
    message_id: target.messageId,
    ...(target.access ? { guild_id: target.access.view.guild.id } : {}),
  };
}

/** Throws 403 50003 in a DM channel, else 403 50013 without MANAGE_MESSAGES: removing what others added. */
function requireManageMessages(target: ReactionTarget): void {
  if (!target.access) throw ApiError.of('CANNOT_EXECUTE_IN_DM');
  requireChannelPermissions(target.access, PERMISSIONS.MANAGE_MESSAGES);
}

/** The path of a reaction route: the channel, the message, and the `{emoji}` as sent. */
export interface ReactionPath {
  channelId: string;
  messageId: string;
  emoji: string;
}

/**
 * `PUT .../reactions/{emoji}/@me`: the caller reacts. Reacting again with the same emoji changes
 * nothing and logs nothing.
 * @example await addReaction(ctx, principal, { channelId, messageId, emoji: '%F0%9F%91%8D' });
 */
export async function addReaction(ctx: PlatformContext, principal: Principal, path: ReactionPath): Promise<void> {
  const user = principal.user;
  await write(ctx, [...REACTION_STORES], async (tx, emit) => {
    const target = await loadTarget(tx, principal, path.channelId, path.messageId, 'write');
    const { key, emoji } = await resolveReactionEmoji(tx, path.emoji, user.id, principal.application.id);
    const present = target.reactions.some((r) => r.key === key);
    if (target.access) {
      requireChannelPermissions(target.access, PERMISSIONS.READ_MESSAGE_HISTORY);
      if (!present) requireChannelPermissions(target.access, PERMISSIONS.ADD_REACTIONS);
    }
    if (!present && target.reactions.length >= REACTIONS_PER_MESSAGE_MAX) throw ApiError.of('REACTIONS_MAX');
    const recordKey = [target.channelId, target.messageId, key, '0', snowflakeKey(user.id)] as const;
    if (await tx.store('message_reactions').getKey([...recordKey])) return;
    await tx.store('message_reactions').add({
      channel_id: target.channelId,
      message_id: target.messageId,
      emoji_key: key,
      type: '0',
      user_key: snowflakeKey(user.id),
      user_id: user.id,
      created_at: ctx.clock.now(),
    });
    await target.save(withReactionAdded(target.reactions, key, emoji, '0'));
    const member = target.access?.view.member;
    emit({
      type: 'MESSAGE_REACTION_ADD',
      data: {
        user_id: user.id,
        ...eventIds(target),
        ...(member ? { member: serializeMember(member, user) } : {}),
        emoji,
        message_author_id: target.authorId,
        burst: false,
        burst_colors: [],
        type: 0,
      },
      audience: target.audience,
    });
  });
}

/**
 * `DELETE .../reactions/{emoji}/@me` and `DELETE .../reactions/{emoji}/{user_id}`: removes one
 * user's normal reaction. Another user's needs MANAGE_MESSAGES (403 50003 in a DM channel).
 * Removing a reaction that is not there changes nothing and logs nothing.
 */
export async function removeUserReaction(
  ctx: PlatformContext,
  principal: Principal,
  path: ReactionPath,
  userId: string = principal.user.id,
): Promise<void> {
  await write(ctx, [...REACTION_STORES], async (tx, emit) => {
    const target = await loadTarget(tx, principal, path.channelId, path.messageId, 'write');
    if (userId !== principal.user.id) requireManageMessages(target);
    const { key, emoji } = await resolveReactionEmoji(
      tx,
      path.emoji,
      principal.user.id,
      principal.application.id,
      target.reactions,
    );
    const recordKey = [target.channelId, target.messageId, key, '0', snowflakeKey(userId)];
    if (!(await tx.store('message_reactions').getKey(recordKey))) return;
    await tx.store('message_reactions').delete(recordKey);
    await target.save(withReactionRemoved(target.reactions, key, '0'));
    emit({
      type: 'MESSAGE_REACTION_REMOVE',
      data: { user_id: userId, ...eventIds(target), emoji, burst: false, type: 0 },
      audience: target.audience,
    });
  });
}

/** `DELETE .../reactions/{emoji}`: every reaction of one emoji (MANAGE_MESSAGES); logs MESSAGE_REACTION_REMOVE_EMOJI. */
export async function removeEmojiReactions(ctx: PlatformContext, principal: Principal, path: ReactionPath) {
  await write(ctx, [...REACTION_STORES], async (tx, emit) => {
    const target = await loadTarget(tx, principal, path.channelId, path.messageId, 'write');
    requireManageMessages(target);
    const { key, emoji } = await resolveReactionEmoji(
      tx,
      path.emoji,
      principal.user.id,
      principal.application.id,
      target.reactions,
    );
    if (!target.reactions.some((r) => r.key === key)) return;
    await tx.store('message_reactions').delete(emojiReactionsRange(target.channelId, target.messageId, key));
    await target.save(target.reactions.filter((r) => r.key !== key));
    emit({ type: 'MESSAGE_REACTION_REMOVE_EMOJI', data: { ...eventIds(target), emoji }, audience: target.audience });
  });
}

/** `DELETE .../reactions`: every reaction of the message (MANAGE_MESSAGES); logs MESSAGE_REACTION_REMOVE_ALL. */
export async function removeAllReactions(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  messageId: string,
): Promise<void> {
  await write(ctx, [...REACTION_STORES], async (tx, emit) => {
    const target = await loadTarget(tx, principal, channelId, messageId, 'write');
    requireManageMessages(target);
    if (!target.reactions.length) return;
    await tx.store('message_reactions').delete(messageReactionsRange(target.channelId, target.messageId));
    await target.save([]);
    emit({ type: 'MESSAGE_REACTION_REMOVE_ALL', data: eventIds(target), audience: target.audience });
  });
}

/** The query of Get Reactions. */
export interface ReactionUsersQuery {
  type?: 0 | 1;
  after?: string;
  limit?: number;
}

/**
 * `GET .../reactions/{emoji}?type&after&limit`: the users who reacted with the emoji (normal
 * reactions unless `type=1`), in user id order after `after`; VIEW_CHANNEL and
 * READ_MESSAGE_HISTORY in a guild channel.
 */
export async function listReactionUsers(
  ctx: PlatformContext,
  principal: Principal,
  path: ReactionPath,
  query: ReactionUsersQuery,
): Promise<User[]> {
  const tx = ctx.db.read([...REACTION_STORES]);
  const target = await loadTarget(tx, principal, path.channelId, path.messageId, 'read');
  if (target.access) requireChannelPermissions(target.access, PERMISSIONS.READ_MESSAGE_HISTORY);
  const { key }: ResolvedEmoji = await resolveReactionEmoji(
    tx,
    path.emoji,
    principal.user.id,
    principal.application.id,
    target.reactions,
  );
  const type = query.type === 1 ? '1' : '0';
  const records = await tx
    .store('message_reactions')
    .getAll(
      reactionUsersRange(target.channelId, target.messageId, key, type, query.after),
      query.limit ?? REACTION_USERS_PAGE_DEFAULT,
    );
  const users = await Promise.all(records.map((r) => tx.store('users').get(r.user_id)));
  return records.map((r, i) => (users[i] ? serializeUser(users[i]!) : deletedUser(r.user_id)));
}
