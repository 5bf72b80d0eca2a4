/**
 * Invites in the store and on the wire: codes, when an invite still works (by the platform
 * clock), the invite object with its metadata and partial roles, and the checks every invite
 * route shares.
 */
import type { PlatformDB } from '../../store/schema';
import { ApiError } from '../core/errors';
import type { InviteRecord } from '../../store/records/guilds';
import type { GuildStoreReader, GuildView } from '../guilds/access';
import { bypassesHierarchy, guildPermissions, highestRolePosition, requirePermissions } from '../guilds/access';
import { INTENTS } from '../core/intents';
import { PERMISSIONS, hasPermission, parsePermissions } from '../core/permissions';
import type { RoleRecord } from '../../store/records/core';
import { serializeUser } from '../accounts/users';
import { type PlatformStoreName, type ReadTx } from '../../store/schema';

/** Stores an invite read or write touches (the event log is added by `write`). */
export const INVITE_STORES: PlatformStoreName[] = [
  'invites',
  'activity_joins',
  'guilds',
  'channels',
  'roles',
  'members',
  'users',
  'audit_log_entries',
  'guild_bans',
  // Incident actions: nobody joins through an invite while the guild's invites are paused.
  'guild_settings',
];

/** A transaction over at least the invite stores, read-only or read-write. */
export type InviteTx = ReadTx;

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CODE_LENGTH = 10;

/** A new random invite code (10 letters and digits, like the platform's). */
export function generateInviteCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(CODE_LENGTH));
  // 62 symbols from 256 byte values: the slight bias is harmless for a sandbox code.
  return [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

/** True while an invite works: not past `expires_at` and not used up. */
export function isInviteLive(invite: InviteRecord, now: number): boolean {
  return (
    (invite.expires_at === null || now < invite.expires_at) && (invite.max_uses === 0 || invite.uses < invite.max_uses)
  );
}

/** True when `userId` may see and accept the invite (anyone, unless it has target users). */
export function isInviteTarget(invite: InviteRecord, userId: string): boolean {
  return invite.target_user_ids === null || invite.target_user_ids.includes(userId);
}

/** The partial role an invite carries: exactly id, name, position, color, colors, icon, unicode_emoji. */
export function serializeInviteRole(role: RoleRecord) {
  return {
    id: role.id,
    name: role.name,
    position: role.position,
    color: role.color,
    colors: role.colors,
    icon: role.icon,
    unicode_emoji: role.unicode_emoji,
  };
}

/** A guild reader over an invite transaction, read-only or read-write. */
export function inviteReader(tx: InviteTx): GuildStoreReader {
  return {
    guild: (id) => tx.store('guilds').get(id),
    roles: (guildId) => tx.store('roles').index('by_guild').getAll(guildId),
    member: (guildId, userId) => tx.store('members').get([guildId, userId]),
  };
}

/** The live invite `code`, or 404 (10006) when there is none or it no longer works. */
export async function findLiveInvite(tx: InviteTx, code: string, now: number): Promise<InviteRecord> {
  const invite = await tx.store('invites').get(code);
  if (!invite || !isInviteLive(invite, now)) throw ApiError.of('UNKNOWN_INVITE');
  return invite;
}

/**
 * The invite object: its guild and channel (partial), inviter, expiry, flags and roles; with
 * `withMetadata` also uses, max_uses, max_age, temporary and created_at.
 */
export async function serializeInvite(tx: InviteTx, invite: InviteRecord, withMetadata: boolean) {
  const [guild, channel, inviter, roles] = await Promise.all([
    tx.store('guilds').get(invite.guild_id),
    tx.store('channels').get(invite.channel_id),
    tx.store('users').get(invite.inviter_id),
    tx.store('roles').index('by_guild').getAll(invite.guild_id),
  ]);
  const byId = new Map(roles.map((r) => [r.id, r]));
  return {
    type: 0,
    code: invite.code,
    guild_id: invite.guild_id,
    guild: guild && {
      id: guild.id,
      name: guild.name,
      icon: guild.icon,
      banner: guild.banner,
      features: guild.features,
      // The guild's public profile: the sandbox's guilds have no splash, description, vanity
      // URL or verification and content levels beyond the defaults (0: none, default).
      splash: null,
      description: null,
      verification_level: 0,
      vanity_url_code: null,
      nsfw_level: 0,
      nsfw: false,
      premium_subscription_count: guild.premium_subscription_count ?? 0,
    },
    channel: channel ? { id: channel.id, name: channel.name, type: channel.type } : null,
    ...(inviter ? { inviter: serializeUser(inviter) } : {}),
    // An activity invite: target type EMBEDDED_APPLICATION (2) and the application it invites to.
    ...(invite.target_application_id
      ? {
          target_type: INVITE_TARGET_TYPES.EMBEDDED_APPLICATION,
          target_application: { id: invite.target_application_id },
        }
      : {}),
    expires_at: invite.expires_at === null ? null : new Date(invite.expires_at).toISOString(),
    flags: 0,
    // Roles deleted since the invite was made are no longer granted, and no longer shown.
    roles: invite.role_ids.flatMap((id) => (byId.has(id) ? [serializeInviteRole(byId.get(id)!)] : [])),
    ...(withMetadata
      ? {
          uses: invite.uses,
          max_uses: invite.max_uses,
          max_age: invite.max_age,
          temporary: invite.temporary,
          created_at: new Date(invite.created_at).toISOString(),
        }
      : {}),
  };
}

/** Invite target types (the platform's public values). */
export const INVITE_TARGET_TYPES = { STREAM: 1, EMBEDDED_APPLICATION: 2 } as const;

/** The invite's gateway audience: the guild's sessions with GUILD_INVITES. */
export function inviteAudience(invite: InviteRecord) {
  return { guild_id: invite.guild_id, intent: INTENTS.GUILD_INVITES };
}

/**
 * Roles an invite may grant on accept: the caller needs MANAGE_ROLES, and each role must be a
 * role of the guild (not @everyone, not managed) below the caller's highest role, with no
 * permission the caller lacks (owners and administrators pass the last two).
 */
export function requireGrantableRoles(view: GuildView, roleIds: readonly string[]): void {
  if (roleIds.length === 0) return;
  const bits = guildPermissions(view);
  requirePermissions(bits, PERMISSIONS.MANAGE_ROLES);
  const unknown: Record<string, string> = {};
  roleIds.forEach((id, i) => {
    const role = view.roles.find((r) => r.id === id);
    if (!role || role.id === view.guild.id || role.managed)
      unknown[`role_ids.${i}`] = 'Unknown role, or a role that cannot be granted.';
  });
  if (Object.keys(unknown).length > 0) throw ApiError.invalidForm(unknown);
  if (bypassesHierarchy(view)) return;
  const top = highestRolePosition(view, view.member?.roles ?? []);
  for (const id of roleIds) {
    const role = view.roles.find((r) => r.id === id)!;
    if (role.position >= top || !hasPermission(bits, parsePermissions(role.permissions) ?? 0n))
      throw ApiError.of('MISSING_PERMISSIONS');
  }
}
