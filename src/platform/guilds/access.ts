/**
 * What a user (or bot) may do in a guild: the guild, its roles and the user's membership read
 * together, and the permission checks every guild and channel route makes. Reads go through a
 * small reader so the same checks run on the database and inside a write transaction.
 */
import type { PlatformStorage } from '../../store/schema';
import type { WriteTx } from '../../store/write';
import { ApiError } from '../core/errors';
import {
  PERMISSIONS,
  computeBasePermissions,
  computeChannelPermissions,
  hasPermission,
  parsePermissions,
  type PermissionContext,
  type PermissionOverwrite,
} from '../core/permissions';
import type { GuildRecord, MemberRecord, OverwriteRecord, RoleRecord } from '../../store/records/core';

/** A guild as one user sees it: its roles and that user's membership (null if not a member). */
export interface GuildView {
  guild: GuildRecord;
  roles: RoleRecord[];
  userId: string;
  member: MemberRecord | null;
}

/** The reads a {@link GuildView} needs, from the database or from a transaction. */
export interface GuildStoreReader {
  guild(id: string): Promise<GuildRecord | undefined>;
  roles(guildId: string): Promise<RoleRecord[]>;
  member(guildId: string, userId: string): Promise<MemberRecord | undefined>;
}

/** A reader over the database (each read its own transaction). */
export function dbReader(db: PlatformStorage): GuildStoreReader {
  return {
    guild: (id) => db.get('guilds', id),
    roles: (guildId) => db.getAllFromIndex('roles', 'by_guild', guildId),
    member: (guildId, userId) => db.get('members', [guildId, userId]),
  };
}

/** A reader inside a write transaction that includes `guilds`, `roles` and `members`. */
export function txReader(tx: WriteTx): GuildStoreReader {
  return {
    guild: (id) => tx.store('guilds').get(id),
    roles: (guildId) => tx.store('roles').index('by_guild').getAll(guildId),
    member: (guildId, userId) => tx.store('members').get([guildId, userId]),
  };
}

/**
 * Loads the guild as `userId` sees it; an unknown guild is 404 (10004).
 * @example const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
 */
export async function loadGuildView(reader: GuildStoreReader, guildId: string, userId: string): Promise<GuildView> {
  const [guild, roles, member] = await Promise.all([
    reader.guild(guildId),
    reader.roles(guildId),
    reader.member(guildId, userId),
  ]);
  if (!guild) throw ApiError.of('UNKNOWN_GUILD');
  return { guild, roles, userId, member: member ?? null };
}

/** The member of the view; a user who is not a member gets 403 (50001). */
export function requireMember(view: GuildView): MemberRecord {
  if (!view.member) throw ApiError.of('MISSING_ACCESS');
  return view.member;
}

/** The permission computation's input, with the member's roles (or `memberRoleIds` instead). */
export function permissionContext(
  view: GuildView,
  memberRoleIds: readonly string[] = view.member?.roles ?? [],
): PermissionContext {
  return {
    guildId: view.guild.id,
    ownerId: view.guild.owner_id,
    userId: view.userId,
    roles: view.roles.map((r) => ({ id: r.id, permissions: parsePermissions(r.permissions) ?? 0n })),
    memberRoleIds,
  };
}

/** Stored overwrites as the permission computation reads them. */
export function toPermissionOverwrites(overwrites: readonly OverwriteRecord[]): PermissionOverwrite[] {
  return overwrites.map((o) => ({
    id: o.id,
    type: o.type,
    allow: parsePermissions(o.allow) ?? 0n,
    deny: parsePermissions(o.deny) ?? 0n,
  }));
}

/** The viewer's guild-level permissions (none when not a member). */
export function guildPermissions(view: GuildView): bigint {
  return view.member ? computeBasePermissions(permissionContext(view)) : 0n;
}

/** The viewer's permissions in a channel (none when not a member). */
export function channelPermissions(
  view: GuildView,
  channel: { permission_overwrites: readonly OverwriteRecord[] },
  memberRoleIds?: readonly string[],
): bigint {
  if (!view.member) return 0n;
  return computeChannelPermissions(
    permissionContext(view, memberRoleIds),
    toPermissionOverwrites(channel.permission_overwrites),
  );
}

/**
 * True when the viewer has VIEW_CHANNEL in the channel.
 * @example const visible = channels.filter((c) => canViewChannel(view, c));
 */
export function canViewChannel(
  view: GuildView,
  channel: { permission_overwrites: readonly OverwriteRecord[] },
  memberRoleIds?: readonly string[],
): boolean {
  return hasPermission(channelPermissions(view, channel, memberRoleIds), PERMISSIONS.VIEW_CHANNEL);
}

/** Throws 403 (50013) unless `bits` holds every bit of `required`. */
export function requirePermissions(bits: bigint, required: bigint): void {
  if (!hasPermission(bits, required)) throw ApiError.of('MISSING_PERMISSIONS');
}

/**
 * The position of the highest of `roleIds` in the guild (0, @everyone's, when none): a member
 * may only manage roles and members below their own highest role.
 */
export function highestRolePosition(view: GuildView, roleIds: readonly string[]): number {
  const positions = view.roles.filter((r) => roleIds.includes(r.id)).map((r) => r.position);
  return Math.max(0, ...positions);
}

/** True when the viewer is the owner or an administrator: hierarchy checks do not apply. */
export function bypassesHierarchy(view: GuildView): boolean {
  return view.userId === view.guild.owner_id || hasPermission(guildPermissions(view), PERMISSIONS.ADMINISTRATOR);
}
