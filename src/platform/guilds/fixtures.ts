/**
 * The sandbox's guild fixtures (CONTRACT §3): guilds with their @everyone role and default
 * channels, members (bots too), roles and channels. Each is one committed write with the events
 * it emits. `POST /guilds` builds on `createGuild` (`create-guild.ts`).
 */
import { isThreadType } from '../../store/records/threads';
import { write, type Emit, type WriteTx } from '../../store/write';
import {
  CHANNEL_TYPES,
  type ChannelRecord,
  type GuildRecord,
  type MemberRecord,
  type OverwriteRecord,
  type RoleColors,
  type RoleRecord,
  type UserRecord,
} from '../../store/records/core';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { GUILD_CHANNELS_MAX } from '../core/limits';
import { DEFAULT_EVERYONE_PERMISSIONS, serializePermissions } from '../core/permissions';
import { NO_ROLE_COLORS, resolveRoleColors, type RoleColorInput } from './role-colors';
import { requireVoiceSettings } from './voice-channel-settings';
import { serializeChannel, serializeGuild, serializeMember, serializeRole } from './wire';

/** A guild with its @everyone role (id = guild id), default channels and its owner as member. */
export async function createGuild(
  ctx: PlatformContext,
  input: { name: string; owner_id: string; features?: string[] },
): Promise<{ guild: GuildRecord; roles: RoleRecord[]; channels: ChannelRecord[]; member: MemberRecord }> {
  const now = ctx.clock.now();
  const guild: GuildRecord = {
    id: ctx.ids.next(),
    name: input.name,
    icon: null,
    banner: null,
    owner_id: input.owner_id,
    features: input.features ?? [],
    created_at: now,
  };
  const everyone = newRole(guild.id, guild.id, {
    name: '@everyone',
    permissions: serializePermissions(DEFAULT_EVERYONE_PERMISSIONS),
    position: 0,
  });
  const textCategory = newChannel(ctx.ids.next(), guild.id, {
    name: 'Text Channels',
    type: CHANNEL_TYPES.GUILD_CATEGORY,
    position: 0,
  });
  const voiceCategory = newChannel(ctx.ids.next(), guild.id, {
    name: 'Voice Channels',
    type: CHANNEL_TYPES.GUILD_CATEGORY,
    position: 1,
  });
  const channels = [
    textCategory,
    newChannel(ctx.ids.next(), guild.id, {
      name: 'general',
      type: CHANNEL_TYPES.GUILD_TEXT,
      parent_id: textCategory.id,
      position: 0,
    }),
    voiceCategory,
    newChannel(ctx.ids.next(), guild.id, {
      name: 'General',
      type: CHANNEL_TYPES.GUILD_VOICE,
      parent_id: voiceCategory.id,
      position: 0,
    }),
  ];
  const member = newMember(guild.id, input.owner_id, now, {});
  await write(ctx, ['users', 'guilds', 'roles', 'channels', 'members'], async (tx, emit) => {
    const owner = await tx.store('users').get(input.owner_id);
    if (!owner) throw ApiError.invalidForm({ owner_id: 'Unknown user.' });
    await tx.store('guilds').add(guild);
    await tx.store('roles').add(everyone);
    await Promise.all(channels.map((c) => tx.store('channels').add(c)));
    await tx.store('members').add(member);
    emit({
      type: 'GUILD_CREATE',
      data: {
        ...serializeGuild(guild, [everyone]),
        channels: channels.filter((c) => !isThreadType(c.type)).map(serializeChannel),
        members: [serializeMember(member, owner)],
      },
      audience: { user_ids: [input.owner_id] },
    });
  });
  return { guild, roles: [everyone], channels, member };
}

/** Adds a user (or bot) to a guild, or updates their roles and nickname; answers the member with their user. */
export async function putGuildMember(
  ctx: PlatformContext,
  guildId: string,
  userId: string,
  input: { roles?: string[]; nick?: string | null },
): Promise<{ member: MemberRecord; user: UserRecord }> {
  return write(ctx, ['users', 'guilds', 'roles', 'channels', 'members'], async (tx, emit) => {
    const guild = await tx.store('guilds').get(guildId);
    if (!guild) throw ApiError.of('UNKNOWN_GUILD');
    const user = await tx.store('users').get(userId);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    const roles = await tx.store('roles').index('by_guild').getAll(guildId);
    const roleIds = new Set(roles.map((r) => r.id));
    const unknown = (input.roles ?? []).filter((r) => !roleIds.has(r) || r === guildId);
    if (unknown.length > 0) throw ApiError.invalidForm({ roles: `Unknown role: ${unknown.join(', ')}` });
    const existing = await tx.store('members').get([guildId, userId]);
    const member: MemberRecord = existing
      ? {
          ...existing,
          roles: input.roles ?? existing.roles,
          nick: input.nick === undefined ? existing.nick : input.nick,
        }
      : newMember(guildId, userId, ctx.clock.now(), input);
    await tx.store('members').put(member);
    const wire = { ...serializeMember(member, user), guild_id: guildId };
    emit({
      type: existing ? 'GUILD_MEMBER_UPDATE' : 'GUILD_MEMBER_ADD',
      data: wire,
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
    });
    if (!existing) {
      const channels = await tx.store('channels').index('by_guild').getAll(guildId);
      emit({
        type: 'GUILD_CREATE',
        data: {
          ...serializeGuild(guild, roles),
          channels: channels.filter((c) => !isThreadType(c.type)).map(serializeChannel),
          members: [serializeMember(member, user)],
        },
        audience: { user_ids: [userId] },
      });
    }
    return { member, user };
  });
}

/** A new role in a guild. */
export async function createRole(
  ctx: PlatformContext,
  guildId: string,
  input: { name: string; permissions: string } & RoleColorInput,
): Promise<RoleRecord> {
  return write(ctx, ['guilds', 'roles'], async (tx, emit) => {
    const guild = await tx.store('guilds').get(guildId);
    if (!guild) throw ApiError.of('UNKNOWN_GUILD');
    const position = await tx.store('roles').index('by_guild').count(guildId);
    const role = newRole(ctx.ids.next(), guildId, {
      name: input.name,
      permissions: input.permissions,
      position,
      colors: resolveRoleColors(NO_ROLE_COLORS, input, guild.features),
    });
    await tx.store('roles').add(role);
    emit({
      type: 'GUILD_ROLE_CREATE',
      data: { guild_id: guildId, role: serializeRole(role) },
      audience: { guild_id: guildId, intent: INTENTS.GUILDS },
    });
    return role;
  });
}

/** What a new guild channel is made of (the sandbox's fixture and `POST /guilds/{guild.id}/channels`). */
export interface NewChannelInput {
  name: string;
  type: number;
  parent_id?: string | null;
  permission_overwrites?: OverwriteRecord[];
  rate_limit_per_user?: number;
  bitrate?: number;
  user_limit?: number;
  topic?: string | null;
  nsfw?: boolean;
  position?: number;
}

/**
 * Adds a channel to a guild in the caller's write (stores `guilds` and `channels`) and appends
 * CHANNEL_CREATE: 404 10004 for an unknown guild, 400 30013 past 500 channels, 400 50035 for a
 * parent that is not a category of the guild or voice settings the type or boost level refuses.
 */
export async function insertGuildChannel(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  guildId: string,
  input: NewChannelInput,
): Promise<ChannelRecord> {
  const guild = await tx.store('guilds').get(guildId);
  if (!guild) throw ApiError.of('UNKNOWN_GUILD');
  requireVoiceSettings(input.type, guild.premium_tier ?? 0, input);
  if (input.parent_id) {
    const parent = await tx.store('channels').get(input.parent_id);
    if (!parent || parent.guild_id !== guildId || parent.type !== CHANNEL_TYPES.GUILD_CATEGORY) {
      throw ApiError.invalidForm({ parent_id: 'Must be a category of this guild.' });
    }
  }
  const count = await tx.store('channels').index('by_guild').count(guildId);
  if (count >= GUILD_CHANNELS_MAX) throw ApiError.of('GUILD_CHANNELS_MAX');
  const channel = newChannel(ctx.ids.next(), guildId, { ...input, position: input.position ?? count });
  await tx.store('channels').add(channel);
  emit({
    type: 'CHANNEL_CREATE',
    data: serializeChannel(channel),
    audience: { guild_id: guildId, intent: INTENTS.GUILDS },
  });
  return channel;
}

/** A new channel in a guild. */
export async function createChannel(
  ctx: PlatformContext,
  guildId: string,
  input: NewChannelInput,
): Promise<ChannelRecord> {
  return write(ctx, ['guilds', 'channels'], (tx, emit) => insertGuildChannel(ctx, tx, emit, guildId, input));
}

/**
 * Sets a guild's boost level (0-3; level 2 and up raise the upload limit), as the sandbox's
 * stand-in for members boosting it; 404 (10004) for an unknown guild.
 */
export async function setGuildPremiumTier(ctx: PlatformContext, guildId: string, premiumTier: number): Promise<void> {
  await write(ctx, ['guilds'], async (tx) => {
    const guild = await tx.store('guilds').get(guildId);
    if (!guild) throw ApiError.of('UNKNOWN_GUILD');
    await tx.store('guilds').put({ ...guild, premium_tier: premiumTier });
  });
}

function newRole(
  id: string,
  guildId: string,
  input: { name: string; permissions: string; position: number; colors?: RoleColors },
): RoleRecord {
  const colors = input.colors ?? NO_ROLE_COLORS;
  return {
    id,
    guild_id: guildId,
    name: input.name,
    permissions: input.permissions,
    position: input.position,
    color: colors.primary_color,
    colors: { ...colors },
    hoist: false,
    managed: false,
    mentionable: false,
    icon: null,
    unicode_emoji: null,
  };
}

function newChannel(id: string, guildId: string, input: NewChannelInput & { position: number }): ChannelRecord {
  return {
    id,
    type: input.type,
    guild_id: guildId,
    name: input.name,
    parent_id: input.parent_id ?? null,
    position: input.position,
    flags: 0,
    permission_overwrites: input.permission_overwrites ?? [],
    topic: input.topic ?? null,
    ...(input.nsfw ? { nsfw: true } : {}),
    ...(input.rate_limit_per_user ? { rate_limit_per_user: input.rate_limit_per_user } : {}),
    ...(input.bitrate !== undefined ? { bitrate: input.bitrate } : {}),
    ...(input.user_limit !== undefined ? { user_limit: input.user_limit } : {}),
  };
}

function newMember(
  guildId: string,
  userId: string,
  now: number,
  input: { roles?: string[]; nick?: string | null },
): MemberRecord {
  return {
    guild_id: guildId,
    user_id: userId,
    nick: input.nick ?? null,
    roles: input.roles ?? [],
    joined_at: now,
    avatar: null,
    banner: null,
    bio: null,
    flags: 0,
  };
}
