/**
 * Who may do what with the messages of a guild channel: the channel, the guild as the caller
 * sees it and the caller's permissions in the channel, read in the caller's transaction; the
 * dated permission splits (pinning, slowmode bypass); and whether an application may read a
 * message's content (the MESSAGE_CONTENT privileged intent, own messages, mentions).
 */
import type { PlatformDB } from '../../store/schema';
import { inForce, RULE_DATES } from '../core/dates';
import { ApiError } from '../core/errors';
import { channelPermissions, loadGuildView, type GuildStoreReader, type GuildView } from '../guilds/access';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { CHANNEL_TYPES, type ChannelRecord } from '../../store/records/core';
import type { ChannelMessageRecord } from '../../store/records/messages';
import { type ReadTx, type PlatformStoreName } from '../../store/schema';
import { THREAD_TYPES } from '../../store/records/threads';
import { canViewThread, isThread } from '../threads/access';

/** A transaction that includes the channel, guild, role and member stores. */
export type MessageTx = ReadTx;

/** Stores every message operation reads (writes add their own). */
export const MESSAGE_READ_STORES: PlatformStoreName[] = [
  'channels',
  'guilds',
  'roles',
  'members',
  'users',
  'channel_messages',
  'thread_members',
  'message_reactions',
  'poll_votes',
];

/** Channel types that hold messages: text, voice (text in voice), announcement and stage channels, and threads. */
export const TEXT_CHANNEL_TYPES: readonly number[] = [
  CHANNEL_TYPES.GUILD_TEXT,
  CHANNEL_TYPES.GUILD_VOICE,
  CHANNEL_TYPES.GUILD_ANNOUNCEMENT,
  CHANNEL_TYPES.GUILD_STAGE_VOICE,
  THREAD_TYPES.ANNOUNCEMENT_THREAD,
  THREAD_TYPES.PUBLIC_THREAD,
  THREAD_TYPES.PRIVATE_THREAD,
];

/** A guild channel as one user sees it. */
export interface ChannelAccess {
  channel: ChannelRecord;
  view: GuildView;
  /** The user's permissions in the channel (none when not a member or without VIEW_CHANNEL). */
  permissions: bigint;
}

/** A guild reader over a transaction of any mode. */
export function messageGuildReader(tx: MessageTx): GuildStoreReader {
  return {
    guild: (id) => tx.store('guilds').get(id),
    roles: (guildId) => tx.store('roles').index('by_guild').getAll(guildId),
    member: (guildId, userId) => tx.store('members').get([guildId, userId]),
  };
}

/**
 * The channel and the user's permissions in it. An unknown channel, or one that is not a guild
 * channel, is 404 10003; a channel that holds no messages is 400 50008.
 */
export async function loadChannelAccess(tx: MessageTx, channelId: string, userId: string): Promise<ChannelAccess> {
  const channel = await tx.store('channels').get(channelId);
  if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  if (!TEXT_CHANNEL_TYPES.includes(channel.type)) throw ApiError.of('NON_TEXT_CHANNEL');
  const view = await loadGuildView(messageGuildReader(tx), channel.guild_id, userId);
  if (!isThread(channel)) return { channel, view, permissions: channelPermissions(view, channel) };
  // A thread: its parent's permissions, and none in a private thread one may not see.
  const [parent, member] = await Promise.all([
    channel.parent_id ? tx.store('channels').get(channel.parent_id) : undefined,
    channel.type === THREAD_TYPES.PRIVATE_THREAD ? tx.store('thread_members').get([channel.id, userId]) : undefined,
  ]);
  const visible = canViewThread(view, channel, parent, !!member);
  return { channel, view, permissions: visible && parent ? channelPermissions(view, parent) : 0n };
}

/** Throws 403 50001 unless the user is a member who can view the channel. */
export function requireView(access: ChannelAccess): void {
  if (!access.view.member || !hasPermission(access.permissions, PERMISSIONS.VIEW_CHANNEL))
    throw ApiError.of('MISSING_ACCESS');
}

/** Throws 403 50013 unless the user has every bit of `required` in the channel (after {@link requireView}). */
export function requireChannelPermissions(access: ChannelAccess, required: bigint): void {
  requireView(access);
  if (!hasPermission(access.permissions, required)) throw ApiError.of('MISSING_PERMISSIONS');
}

/** True when the user may read the channel's history. */
export function canReadHistory(access: ChannelAccess): boolean {
  return hasPermission(access.permissions, PERMISSIONS.VIEW_CHANNEL | PERMISSIONS.READ_MESSAGE_HISTORY);
}

/**
 * Whether these permissions may pin and unpin: from 2026-02-23 (platform clock) only
 * PIN_MESSAGES does (MANAGE_MESSAGES no longer suffices); before, MANAGE_MESSAGES did too.
 */
export function canPin(permissions: bigint, now: number): boolean {
  if (hasPermission(permissions, PERMISSIONS.PIN_MESSAGES)) return true;
  return !inForce(RULE_DATES.PERMISSION_SPLIT, now) && hasPermission(permissions, PERMISSIONS.MANAGE_MESSAGES);
}

/**
 * Whether these permissions bypass slowmode: from 2026-02-23 (platform clock) only
 * BYPASS_SLOWMODE does; before, MANAGE_MESSAGES or MANAGE_CHANNELS did too.
 */
export function bypassesSlowmode(permissions: bigint, now: number): boolean {
  if (hasPermission(permissions, PERMISSIONS.BYPASS_SLOWMODE)) return true;
  if (inForce(RULE_DATES.PERMISSION_SPLIT, now)) return false;
  return (
    hasPermission(permissions, PERMISSIONS.MANAGE_MESSAGES) || hasPermission(permissions, PERMISSIONS.MANAGE_CHANNELS)
  );
}

/**
 * Who reads a message, for the content rule: a user reads every message they can see; an
 * application's bot reads content only with the MESSAGE_CONTENT intent granted, in its own
 * messages, and in messages that mention it.
 */
export interface ContentReader {
  userId: string;
  /** True for a user, or for a bot whose application has MESSAGE_CONTENT granted. */
  contentIntent: boolean;
  /** When the read happens (by the platform clock): whether a poll is finalized depends on it. */
  now?: number;
}

/** True when `reader` may see the content of `message`. */
export function canReadContent(
  reader: ContentReader,
  message: Pick<ChannelMessageRecord, 'author_id' | 'mention_ids'>,
): boolean {
  return reader.contentIntent || message.author_id === reader.userId || message.mention_ids.includes(reader.userId);
}
