/**
 * Reading a guild as a client shows it: channels under their categories in position order,
 * the ones the user may view (computed as the platform computes permissions), members grouped
 * by their highest role, and names.
 */
import {
  computeChannelPermissions,
  hasPermission,
  PERMISSIONS,
  parsePermissions,
} from '../../src/platform/core/permissions';
import { CHANNEL_OBFUSCATED } from '../../src/store/records/core';
import type { GuildState, WireChannel, WireMember, WireRole, WireUser } from './client-state';

/** Channel types the shell names. */
export const CHANNEL_TYPE = { TEXT: 0, VOICE: 2, CATEGORY: 4 } as const;

/** A category (or none, for top-level channels) and its channels. */
export interface ChannelGroup {
  category: WireChannel | null;
  channels: WireChannel[];
}

const byPosition = (a: WireChannel, b: WireChannel) =>
  a.position - b.position || a.id.length - b.id.length || (a.id < b.id ? -1 : 1);

/** The user's permissions in a channel of the guild. */
export function channelPermissions(guild: GuildState, userId: string, channel: WireChannel): bigint {
  const member = guild.members.get(userId);
  return computeChannelPermissions(
    {
      guildId: guild.id,
      ownerId: guild.owner_id,
      userId,
      roles: [...guild.roles.values()].map((r) => ({ id: r.id, permissions: parsePermissions(r.permissions) ?? 0n })),
      memberRoleIds: member?.roles ?? [],
    },
    channel.permission_overwrites.map((o) => ({
      id: o.id,
      type: o.type,
      allow: parsePermissions(o.allow) ?? 0n,
      deny: parsePermissions(o.deny) ?? 0n,
    })),
  );
}

/** Whether the user may view the channel. */
export function canView(guild: GuildState, userId: string, channel: WireChannel): boolean {
  return hasPermission(channelPermissions(guild, userId, channel), PERMISSIONS.VIEW_CHANNEL);
}

/** Whether @everyone is denied VIEW_CHANNEL on the channel (a private channel). */
export function isPrivate(guild: { id: string }, channel: WireChannel): boolean {
  const everyone = channel.permission_overwrites.find((o) => o.type === 0 && o.id === guild.id);
  return everyone ? ((parsePermissions(everyone.deny) ?? 0n) & PERMISSIONS.VIEW_CHANNEL) !== 0n : false;
}

/** Whether the platform sent the channel obfuscated (flag CHANNEL_OBFUSCATED). */
export function isObfuscated(channel: WireChannel): boolean {
  return (channel.flags & CHANNEL_OBFUSCATED) !== 0;
}

/**
 * Channels grouped under their categories, both in position order; `include` filters
 * (e.g. what the user may view). Categories left empty are dropped.
 */
export function channelGroups(
  channels: Iterable<WireChannel>,
  include: (c: WireChannel) => boolean = () => true,
): ChannelGroup[] {
  const all = [...channels].sort(byPosition);
  const categories = all.filter((c) => c.type === CHANNEL_TYPE.CATEGORY);
  const inside = (parent: string | null) =>
    all.filter((c) => c.type !== CHANNEL_TYPE.CATEGORY && (c.parent_id ?? null) === parent && include(c));
  const groups: ChannelGroup[] = [
    { category: null, channels: inside(null) },
    ...categories.map((category) => ({ category, channels: inside(category.id) })),
  ];
  return groups.filter((g) => g.channels.length > 0);
}

/** The name a member shows: nickname, global name, username. */
export function memberName(member: WireMember | undefined, user?: WireUser): string {
  const u = member?.user ?? user;
  return member?.nick || u?.global_name || u?.username || 'Unknown user';
}

/** The member's highest role (by position), or null for @everyone only. */
export function topRole(guild: GuildState, member: WireMember): WireRole | null {
  let top: WireRole | null = null;
  for (const id of member.roles) {
    const role = guild.roles.get(id);
    if (role && (!top || role.position > top.position)) top = role;
  }
  return top;
}

/** Members grouped by highest role, roles from the highest down, then "Members". */
export function memberGroups(guild: GuildState): { title: string; role: WireRole | null; members: WireMember[] }[] {
  const groups = new Map<string, { title: string; role: WireRole | null; members: WireMember[] }>();
  for (const member of guild.members.values()) {
    const role = topRole(guild, member);
    const key = role?.id ?? '';
    if (!groups.has(key)) groups.set(key, { title: role?.name ?? 'Members', role, members: [] });
    groups.get(key)!.members.push(member);
  }
  for (const group of groups.values()) group.members.sort((a, b) => memberName(a).localeCompare(memberName(b)));
  return [...groups.values()].sort((a, b) => (b.role?.position ?? -1) - (a.role?.position ?? -1));
}

/** A role colour as CSS, or undefined for a role without one (the seeded colours read on white at 4.5:1). */
export function roleColour(role: WireRole | null): string | undefined {
  if (!role || !role.color) return undefined;
  return `#${role.color.toString(16).padStart(6, '0')}`;
}
