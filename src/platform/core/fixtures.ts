/**
 * The sandbox's fixtures (CONTRACT §3): users, applications with their bots, guilds with
 * roles, channels and members. Each is one committed write with the events it emits.
 */
import { write } from '../../store/write';
import { reserveSnowflakesThrough } from '../../store/meta';
import { ALL_STORES } from '../../store/schema';
import type { PlatformContext } from './context';
import { ApiError } from './errors';
import { INTENTS } from './intents';
import { DEFAULT_EVERYONE_PERMISSIONS, serializePermissions } from './permissions';
import type {
  ApplicationRecord,
  ChannelRecord,
  GuildRecord,
  MemberRecord,
  OverwriteRecord,
  RoleColors,
  RoleRecord,
  UserRecord,
} from './records';
import { CHANNEL_TYPES } from './records';
import { REAL_TIME } from './clock';
import { SNOWFLAKE_LEASE_MS } from './snowflake';
import { generateBotToken, generateSecret, hashSecret } from './secrets';
import { NO_ROLE_COLORS, resolveRoleColors, type RoleColorInput } from '../guilds/role-colors';
import { serializeChannel, serializeGuild, serializeMember, serializeRole } from '../guilds/wire';

/** Empties every store and returns the clock to real time. */
export async function resetPlatform(ctx: PlatformContext): Promise<void> {
  const tx = ctx.db.transaction([...ALL_STORES], 'readwrite');
  await Promise.all(ALL_STORES.filter((s) => s !== 'meta').map((s) => tx.objectStore(s).clear()));
  // The snowflake allocation survives a reset, raised to cover real time: ids stay unique and
  // increasing across it even when the clock stood in the future.
  await reserveSnowflakesThrough(tx.objectStore('meta'), ctx.clock.readingUnder(REAL_TIME) + SNOWFLAKE_LEASE_MS);
  await tx.objectStore('meta').delete('clock');
  await tx.done;
  ctx.clock.set(REAL_TIME);
  ctx.announce({ type: 'reset' });
}

/** A new user (or bot user). */
export async function createUser(
  ctx: PlatformContext,
  input: {
    username: string;
    global_name?: string | null;
    premium_type?: 0 | 1 | 2 | 3;
    bot?: boolean;
    provisional?: boolean;
  },
): Promise<UserRecord> {
  const user: UserRecord = {
    id: ctx.ids.next(),
    username: input.username,
    global_name: input.global_name ?? null,
    discriminator: '0',
    avatar: null,
    bot: input.bot ?? false,
    premium_type: input.premium_type ?? 0,
    primary_guild: null,
    provisional: input.provisional ?? false,
    created_at: ctx.clock.now(),
  };
  await write(ctx, ['users'], async (tx) => {
    await tx.objectStore('users').add(user);
  });
  return user;
}

/** A new application, its bot user, and its secrets (answered once, stored only as hashes). */
export async function createApplication(
  ctx: PlatformContext,
  input: { name: string; owner_id?: string; flags?: number | string; bot_public?: boolean },
): Promise<{ application: ApplicationRecord; bot: UserRecord; bot_token: string; client_secret: string }> {
  const id = ctx.ids.next();
  const botId = ctx.ids.next();
  const botToken = generateBotToken(botId);
  const clientSecret = generateSecret(24);
  const [botTokenHash, secretHash] = await Promise.all([hashSecret(botToken), hashSecret(clientSecret)]);
  const now = ctx.clock.now();
  const bot: UserRecord = {
    id: botId,
    username: input.name.toLowerCase().replace(/[^a-z0-9_.]/g, '') || 'bot',
    global_name: input.name,
    discriminator: '0',
    avatar: null,
    bot: true,
    premium_type: 0,
    primary_guild: null,
    provisional: false,
    created_at: now,
  };
  const application: ApplicationRecord = {
    id,
    name: input.name,
    description: '',
    owner_id: input.owner_id ?? null,
    bot_user_id: botId,
    bot_public: input.bot_public ?? true,
    bot_require_code_grant: false,
    flags: String(BigInt(input.flags ?? 0)),
    bot_token_hash: botTokenHash,
    client_secret_hash: secretHash,
    redirect_uris: [],
    integration_types_config: { '0': {}, '1': {} },
    approximate_user_install_count: 0,
    approvals: { identify_premium: false, sdk_terms_accepted: false, privileged_intents_approved: false },
    channel_obfuscation: false,
    created_at: now,
  };
  await write(ctx, ['users', 'applications'], async (tx) => {
    if (input.owner_id && !(await tx.objectStore('users').get(input.owner_id)))
      throw ApiError.invalidForm({ owner_id: 'Unknown user.' });
    await tx.objectStore('users').add(bot);
    await tx.objectStore('applications').add(application);
  });
  return { application, bot, bot_token: botToken, client_secret: clientSecret };
}

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
    const owner = await tx.objectStore('users').get(input.owner_id);
    if (!owner) throw ApiError.invalidForm({ owner_id: 'Unknown user.' });
    await tx.objectStore('guilds').add(guild);
    await tx.objectStore('roles').add(everyone);
    await Promise.all(channels.map((c) => tx.objectStore('channels').add(c)));
    await tx.objectStore('members').add(member);
    emit({
      type: 'GUILD_CREATE',
      data: {
        ...serializeGuild(guild, [everyone]),
        channels: channels.map(serializeChannel),
        members: [serializeMember(member, owner)],
      },
      audience: { user_ids: [input.owner_id] },
    });
  });
  return { guild, roles: [everyone], channels, member };
}

/** Adds a user (or bot) to a guild, or updates their roles and nickname. */
export async function putGuildMember(
  ctx: PlatformContext,
  guildId: string,
  userId: string,
  input: { roles?: string[]; nick?: string | null },
): Promise<MemberRecord> {
  return write(ctx, ['users', 'guilds', 'roles', 'channels', 'members'], async (tx, emit) => {
    const guild = await tx.objectStore('guilds').get(guildId);
    if (!guild) throw ApiError.of('UNKNOWN_GUILD');
    const user = await tx.objectStore('users').get(userId);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    const roles = await tx.objectStore('roles').index('by_guild').getAll(guildId);
    const roleIds = new Set(roles.map((r) => r.id));
    const unknown = (input.roles ?? []).filter((r) => !roleIds.has(r) || r === guildId);
    if (unknown.length > 0) throw ApiError.invalidForm({ roles: `Unknown role: ${unknown.join(', ')}` });
    const existing = await tx.objectStore('members').get([guildId, userId]);
    const member: MemberRecord = existing
      ? {
          ...existing,
          roles: input.roles ?? existing.roles,
          nick: input.nick === undefined ? existing.nick : input.nick,
        }
      : newMember(guildId, userId, ctx.clock.now(), input);
    await tx.objectStore('members').put(member);
    const wire = { ...serializeMember(member, user), guild_id: guildId };
    emit({
      type: existing ? 'GUILD_MEMBER_UPDATE' : 'GUILD_MEMBER_ADD',
      data: wire,
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
    });
    if (!existing) {
      const channels = await tx.objectStore('channels').index('by_guild').getAll(guildId);
      emit({
        type: 'GUILD_CREATE',
        data: {
          ...serializeGuild(guild, roles),
          channels: channels.map(serializeChannel),
          members: [serializeMember(member, user)],
        },
        audience: { user_ids: [userId] },
      });
    }
    return member;
  });
}

/** A new role in a guild. */
export async function createRole(
  ctx: PlatformContext,
  guildId: string,
  input: { name: string; permissions: string } & RoleColorInput,
): Promise<RoleRecord> {
  return write(ctx, ['guilds', 'roles'], async (tx, emit) => {
    const guild = await tx.objectStore('guilds').get(guildId);
    if (!guild) throw ApiError.of('UNKNOWN_GUILD');
    const position = await tx.objectStore('roles').index('by_guild').count(guildId);
    const role = newRole(ctx.ids.next(), guildId, {
      name: input.name,
      permissions: input.permissions,
      position,
      colors: resolveRoleColors(NO_ROLE_COLORS, input, guild.features),
    });
    await tx.objectStore('roles').add(role);
    emit({
      type: 'GUILD_ROLE_CREATE',
      data: { guild_id: guildId, role: serializeRole(role) },
      audience: { guild_id: guildId, intent: INTENTS.GUILDS },
    });
    return role;
  });
}

/** A new channel in a guild. */
export async function createChannel(
  ctx: PlatformContext,
  guildId: string,
  input: {
    name: string;
    type: number;
    parent_id?: string | null;
    permission_overwrites?: OverwriteRecord[];
    rate_limit_per_user?: number;
  },
): Promise<ChannelRecord> {
  return write(ctx, ['guilds', 'channels'], async (tx, emit) => {
    if (!(await tx.objectStore('guilds').get(guildId))) throw ApiError.of('UNKNOWN_GUILD');
    if (input.parent_id) {
      const parent = await tx.objectStore('channels').get(input.parent_id);
      if (!parent || parent.guild_id !== guildId || parent.type !== CHANNEL_TYPES.GUILD_CATEGORY) {
        throw ApiError.invalidForm({ parent_id: 'Must be a category of this guild.' });
      }
    }
    const position = await tx.objectStore('channels').index('by_guild').count(guildId);
    const channel = newChannel(ctx.ids.next(), guildId, { ...input, position });
    await tx.objectStore('channels').add(channel);
    emit({
      type: 'CHANNEL_CREATE',
      data: serializeChannel(channel),
      audience: { guild_id: guildId, intent: INTENTS.GUILDS },
    });
    return channel;
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

function newChannel(
  id: string,
  guildId: string,
  input: {
    name: string;
    type: number;
    parent_id?: string | null;
    position: number;
    permission_overwrites?: OverwriteRecord[];
    rate_limit_per_user?: number;
  },
): ChannelRecord {
  return {
    id,
    type: input.type,
    guild_id: guildId,
    name: input.name,
    parent_id: input.parent_id ?? null,
    position: input.position,
    flags: 0,
    permission_overwrites: input.permission_overwrites ?? [],
    topic: null,
    ...(input.rate_limit_per_user ? { rate_limit_per_user: input.rate_limit_per_user } : {}),
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
