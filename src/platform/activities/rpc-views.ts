/**
 * What the embedded-app RPC host (the platform's client, CONTRACT §5) reads with an activity's
 * token: the session behind the token, a channel with the user's view of it, the user's
 * permissions there, and a guild's status. GET_CHANNEL answers a DM (type 1) or group DM
 * (type 3) the user is in as well, without a guild; permissions are a guild channel's only.
 */
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  computeChannelPermissions,
  parsePermissions,
  PERMISSIONS,
  hasPermission,
  serializePermissions,
} from '../core/permissions';
import { countOnlineMembers } from '../presence/presence';
import type { ChannelRecord, GuildRecord, MemberRecord, RoleRecord } from '../../store/records/core';
import { serializeUser } from '../accounts/users';
import { isLobbyLive } from '../lobbies/store';

/** The latest instant a Date can hold: the expiry of a token that never expires. */
const MAX_DATE_MS = 8.64e15;

/** The session an access token stands for, whatever its scopes: the client knows its user. */
export function rpcSession(principal: BearerPrincipal) {
  const { application, token } = principal;
  return {
    application: { id: application.id, name: application.name, description: application.description, icon: null },
    user: serializeUser(principal.user, principal),
    scopes: token.scopes,
    expires: new Date(token.expires_at ?? MAX_DATE_MS).toISOString(),
    /** What the scopes let the activity do now (`scopesFor`): the RPC host checks commands and subscriptions against it. */
    effective_scopes: [...principal.scopes],
  };
}

interface ChannelView {
  channel: ChannelRecord;
  guild: GuildRecord;
  member: MemberRecord;
  permissions: bigint;
}

/**
 * Loads a guild channel as `userId` sees it. An unknown (or non-guild) channel is 10003; a
 * channel of a guild the user is not in, or one they cannot view, is 50001.
 */
async function loadChannelView(ctx: PlatformContext, userId: string, channelId: string): Promise<ChannelView> {
  const channel = await ctx.db.get('channels', channelId);
  if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  const [guild, member, roles] = await Promise.all([
    ctx.db.get('guilds', channel.guild_id),
    ctx.db.get('members', [channel.guild_id, userId]),
    ctx.db.getAllFromIndex('roles', 'by_guild', channel.guild_id),
  ]);
  if (!guild) throw ApiError.of('UNKNOWN_CHANNEL');
  if (!member) throw ApiError.of('MISSING_ACCESS');
  const permissions = computeChannelPermissions(
    {
      guildId: guild.id,
      ownerId: guild.owner_id,
      userId,
      roles: roles.map(toPermissionRole),
      memberRoleIds: member.roles,
    },
    channel.permission_overwrites.map((o) => ({
      id: o.id,
      type: o.type,
      allow: parsePermissions(o.allow) ?? 0n,
      deny: parsePermissions(o.deny) ?? 0n,
    })),
  );
  if (!hasPermission(permissions, PERMISSIONS.VIEW_CHANNEL)) throw ApiError.of('MISSING_ACCESS');
  return { channel, guild, member, permissions };
}

function toPermissionRole(role: RoleRecord) {
  return { id: role.id, permissions: parsePermissions(role.permissions) ?? 0n };
}

/**
 * GET_CHANNEL's answer. The platform stores no voice states and no guild channel messages yet,
 * so both lists hold what the store holds: nothing.
 */
export async function rpcChannel(ctx: PlatformContext, userId: string, channelId: string) {
  const guildChannel = await ctx.db.get('channels', channelId);
  if (!guildChannel?.guild_id) {
    const privateChannel = await rpcPrivateChannel(ctx, userId, channelId);
    if (privateChannel) return privateChannel;
  }
  const { channel } = await loadChannelView(ctx, userId, channelId);
  return {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guild_id,
    name: channel.name,
    topic: channel.topic,
    bitrate: null,
    user_limit: null,
    position: channel.position,
    voice_states: [],
    messages: [],
  };
}

/**
 * GET_CHANNEL's answer for a DM or group DM of `userId` (undefined when the channel is neither):
 * no guild, the group DM's name, no voice settings or position. Another user's private channel
 * is 50001, as a guild channel the user cannot view.
 */
async function rpcPrivateChannel(ctx: PlatformContext, userId: string, channelId: string) {
  const [group, dm] = await Promise.all([
    ctx.db.get('group_dm_channels', channelId),
    ctx.db.get('dm_channels', channelId),
  ]);
  const members = group?.member_ids ?? dm?.recipient_ids;
  if (!members) return undefined;
  if (!members.includes(userId)) throw ApiError.of('MISSING_ACCESS');
  return {
    id: channelId,
    type: group ? 3 : 1,
    guild_id: null,
    name: group?.name ?? null,
    topic: null,
    bitrate: null,
    user_limit: null,
    position: null,
    voice_states: [],
    messages: [],
  };
}

/** GET_CHANNEL_PERMISSIONS' answer: the user's permissions in the channel, as a decimal string. */
export async function rpcChannelPermissions(ctx: PlatformContext, userId: string, channelId: string) {
  const { permissions } = await loadChannelView(ctx, userId, channelId);
  return { permissions: serializePermissions(permissions) };
}

/** GUILD_STATUS' data: the guild and how many of its members are online. Non-members get 50001. */
export async function rpcGuildStatus(ctx: PlatformContext, userId: string, guildId: string) {
  const [guild, member] = await Promise.all([ctx.db.get('guilds', guildId), ctx.db.get('members', [guildId, userId])]);
  if (!guild) throw ApiError.of('UNKNOWN_GUILD');
  if (!member) throw ApiError.of('MISSING_ACCESS');
  return { guild: { id: guild.id, name: guild.name, icon_url: null }, online: await countOnlineMembers(ctx, guildId) };
}

/**
 * A lobby of the token's application that its user is a member of (whose call they may hear
 * about): `{id}`. A lobby belongs to one application, as the lobby routes have it: another
 * application's lobby, an unknown or expired one all answer as a lobby the user is not in (50001),
 * so an activity learns nothing of lobbies that are not its own.
 */
export async function rpcLobby(ctx: PlatformContext, principal: BearerPrincipal, lobbyId: string) {
  const [lobby, member] = await Promise.all([
    ctx.db.get('lobbies', lobbyId),
    ctx.db.get('lobby_members', [lobbyId, principal.user.id]),
  ]);
  const ours = lobby && lobby.application_id === principal.application.id && isLobbyLive(lobby, ctx.clock.now());
  if (!ours || !member) throw ApiError.of('MISSING_ACCESS');
  return { id: lobbyId };
}
