/**
 * Channel permission overwrites: `PUT` / `DELETE /channels/{channel.id}/permissions/{overwrite.id}`.
 * Both need MANAGE_ROLES in the channel (the bot must also view it, 50001), and a bot that is
 * neither owner nor administrator may only allow or deny bits it has in the channel itself.
 * Each change appends CHANNEL_UPDATE with the full channel (guild audience, GUILDS intent); the
 * gateway turns it into the obfuscated or the full form per session.
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  bypassesHierarchy,
  canViewChannel,
  channelPermissions,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
  type GuildView,
} from '../guilds/access';
import { serializeChannel } from '../guilds/wire';
import { INTENTS } from '../core/intents';
import { PERMISSIONS, hasPermission, serializePermissions } from '../core/permissions';
import type { ChannelRecord, OverwriteRecord } from '../../store/records/core';

/** The guild channel and the bot's view of its guild, checked for MANAGE_ROLES. */
async function managedChannel(
  tx: WriteTx,
  principal: BotPrincipal,
  channelId: string,
): Promise<{ channel: ChannelRecord; view: GuildView; bits: bigint }> {
  const channel = await tx.store('channels').get(channelId);
  if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  const view = await loadGuildView(txReader(tx), channel.guild_id, principal.user.id);
  requireMember(view);
  if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
  const bits = channelPermissions(view, channel);
  requirePermissions(bits, PERMISSIONS.MANAGE_ROLES);
  return { channel, view, bits };
}

/** Stores the channel and appends its CHANNEL_UPDATE. */
async function saveChannel(tx: WriteTx, emit: Emit, channel: ChannelRecord): Promise<void> {
  await tx.store('channels').put(channel);
  emit({
    type: 'CHANNEL_UPDATE',
    data: serializeChannel(channel),
    audience: { guild_id: channel.guild_id!, intent: INTENTS.GUILDS },
  });
}

/**
 * Creates or replaces the overwrite for a role (`type` 0) or member (`type` 1) of the guild.
 * @example await putOverwrite(ctx, bot, channelId, roleId, { type: 0, allow: 1024n, deny: 0n });
 */
export async function putOverwrite(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
  overwriteId: string,
  input: { type: 0 | 1; allow: bigint; deny: bigint },
): Promise<void> {
  await write(ctx, ['channels', 'guilds', 'roles', 'members'], async (tx, emit) => {
    const { channel, view, bits } = await managedChannel(tx, principal, channelId);
    if (!bypassesHierarchy(view) && !hasPermission(bits, input.allow | input.deny))
      throw ApiError.of('MISSING_PERMISSIONS');
    if (input.type === 0 && !view.roles.some((r) => r.id === overwriteId)) throw ApiError.of('UNKNOWN_ROLE');
    if (input.type === 1 && !(await tx.store('members').get([view.guild.id, overwriteId])))
      throw ApiError.of('UNKNOWN_MEMBER');
    const overwrite: OverwriteRecord = {
      id: overwriteId,
      type: input.type,
      allow: serializePermissions(input.allow),
      deny: serializePermissions(input.deny),
    };
    const others = channel.permission_overwrites.filter((o) => o.id !== overwriteId);
    await saveChannel(tx, emit, { ...channel, permission_overwrites: [...others, overwrite] });
  });
}

/** Deletes an overwrite; 404 (10009) when the channel has none with that id. */
export async function deleteOverwrite(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
  overwriteId: string,
): Promise<void> {
  await write(ctx, ['channels', 'guilds', 'roles', 'members'], async (tx, emit) => {
    const { channel } = await managedChannel(tx, principal, channelId);
    if (!channel.permission_overwrites.some((o) => o.id === overwriteId)) throw ApiError.of('UNKNOWN_OVERWRITE');
    await saveChannel(tx, emit, {
      ...channel,
      permission_overwrites: channel.permission_overwrites.filter((o) => o.id !== overwriteId),
    });
  });
}
