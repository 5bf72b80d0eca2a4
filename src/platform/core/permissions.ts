/**
 * Permissions as 64-bit bit sets (bigint; decimal strings on the wire), with the platform's
 * computation of a member's guild and channel permissions.
 */

const bit = (n: number): bigint => 1n << BigInt(n);

/** Every permission bit: the platform's standard ones and those the spec names. */
export const PERMISSIONS = {
  CREATE_INSTANT_INVITE: bit(0),
  KICK_MEMBERS: bit(1),
  BAN_MEMBERS: bit(2),
  ADMINISTRATOR: bit(3),
  MANAGE_CHANNELS: bit(4),
  MANAGE_GUILD: bit(5),
  ADD_REACTIONS: bit(6),
  VIEW_AUDIT_LOG: bit(7),
  PRIORITY_SPEAKER: bit(8),
  STREAM: bit(9),
  VIEW_CHANNEL: bit(10),
  SEND_MESSAGES: bit(11),
  SEND_TTS_MESSAGES: bit(12),
  MANAGE_MESSAGES: bit(13),
  EMBED_LINKS: bit(14),
  ATTACH_FILES: bit(15),
  READ_MESSAGE_HISTORY: bit(16),
  MENTION_EVERYONE: bit(17),
  USE_EXTERNAL_EMOJIS: bit(18),
  VIEW_GUILD_INSIGHTS: bit(19),
  CONNECT: bit(20),
  SPEAK: bit(21),
  MUTE_MEMBERS: bit(22),
  DEAFEN_MEMBERS: bit(23),
  MOVE_MEMBERS: bit(24),
  USE_VAD: bit(25),
  CHANGE_NICKNAME: bit(26),
  MANAGE_NICKNAMES: bit(27),
  MANAGE_ROLES: bit(28),
  MANAGE_WEBHOOKS: bit(29),
  MANAGE_GUILD_EXPRESSIONS: bit(30),
  USE_APPLICATION_COMMANDS: bit(31),
  REQUEST_TO_SPEAK: bit(32),
  MANAGE_EVENTS: bit(33),
  MANAGE_THREADS: bit(34),
  CREATE_PUBLIC_THREADS: bit(35),
  CREATE_PRIVATE_THREADS: bit(36),
  USE_EXTERNAL_STICKERS: bit(37),
  SEND_MESSAGES_IN_THREADS: bit(38),
  USE_EMBEDDED_ACTIVITIES: bit(39),
  MODERATE_MEMBERS: bit(40),
  VIEW_CREATOR_MONETIZATION_ANALYTICS: bit(41),
  USE_SOUNDBOARD: bit(42),
  CREATE_GUILD_EXPRESSIONS: bit(43),
  CREATE_EVENTS: bit(44),
  USE_EXTERNAL_SOUNDS: bit(45),
  SEND_VOICE_MESSAGES: bit(46),
  SET_VOICE_CHANNEL_STATUS: bit(48),
  SEND_POLLS: bit(49),
  USE_EXTERNAL_APPS: bit(50),
  PIN_MESSAGES: bit(51),
  BYPASS_SLOWMODE: bit(52),
} as const;

/** The name of a permission bit. */
export type PermissionName = keyof typeof PERMISSIONS;

/** Every bit set. */
export const ALL_PERMISSIONS = Object.values(PERMISSIONS).reduce((all, p) => all | p, 0n);

/**
 * The @everyone role's permissions in a new guild. USE_EXTERNAL_APPS is on by default for
 * servers (spec: permission bits).
 */
export const DEFAULT_EVERYONE_PERMISSIONS = [
  'CREATE_INSTANT_INVITE',
  'ADD_REACTIONS',
  'STREAM',
  'VIEW_CHANNEL',
  'SEND_MESSAGES',
  'EMBED_LINKS',
  'ATTACH_FILES',
  'READ_MESSAGE_HISTORY',
  'MENTION_EVERYONE',
  'USE_EXTERNAL_EMOJIS',
  'CONNECT',
  'SPEAK',
  'USE_VAD',
  'CHANGE_NICKNAME',
  'USE_APPLICATION_COMMANDS',
  'REQUEST_TO_SPEAK',
  'CREATE_PUBLIC_THREADS',
  'CREATE_PRIVATE_THREADS',
  'USE_EXTERNAL_STICKERS',
  'SEND_MESSAGES_IN_THREADS',
  'USE_EMBEDDED_ACTIVITIES',
  'USE_SOUNDBOARD',
  'USE_EXTERNAL_SOUNDS',
  'SEND_VOICE_MESSAGES',
  'SEND_POLLS',
  'USE_EXTERNAL_APPS',
].reduce((all, name) => all | PERMISSIONS[name as PermissionName], 0n);

/**
 * Parses a permission bit set from its decimal string form. Returns null for anything that
 * is not a non-negative integer below 2^64.
 * @example parsePermissions('2048') // 2048n
 */
export function parsePermissions(value: unknown): bigint | null {
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value)) return null;
  const bits = BigInt(value);
  return bits < 1n << 64n ? bits : null;
}

/** The decimal string form of a bit set. */
export function serializePermissions(bits: bigint): string {
  return bits.toString();
}

/** True when every bit of `required` is in `bits`. */
export function hasPermission(bits: bigint, required: bigint): boolean {
  return (bits & required) === required;
}

/** A role as the computation needs it. */
export interface PermissionRole {
  id: string;
  permissions: bigint;
}

/** A channel permission overwrite: type 0 is a role, 1 a member. */
export interface PermissionOverwrite {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

/** Everything the computation reads about a guild and a member. */
export interface PermissionContext {
  guildId: string;
  ownerId: string;
  userId: string;
  /** Every role of the guild (the @everyone role has the guild's id). */
  roles: readonly PermissionRole[];
  /** The ids of the member's roles, without @everyone. */
  memberRoleIds: readonly string[];
}

/**
 * A member's guild-level permissions: the owner and ADMINISTRATOR have every bit; otherwise
 * @everyone's bits or'ed with every role of the member.
 */
export function computeBasePermissions(ctx: PermissionContext): bigint {
  if (ctx.userId === ctx.ownerId) return ALL_PERMISSIONS;
  const byId = new Map(ctx.roles.map((r) => [r.id, r.permissions]));
  let bits = byId.get(ctx.guildId) ?? 0n;
  for (const roleId of ctx.memberRoleIds) bits |= byId.get(roleId) ?? 0n;
  return hasPermission(bits, PERMISSIONS.ADMINISTRATOR) ? ALL_PERMISSIONS : bits;
}

/**
 * A member's permissions in a channel: the base permissions, then the @everyone overwrite,
 * then every role overwrite of the member combined (deny, then allow), then the member's own
 * overwrite. Without VIEW_CHANNEL the member has no permission in the channel at all.
 * @example computeChannelPermissions(ctx, channel.permission_overwrites) & PERMISSIONS.SEND_MESSAGES
 */
export function computeChannelPermissions(ctx: PermissionContext, overwrites: readonly PermissionOverwrite[]): bigint {
  const base = computeBasePermissions(ctx);
  if (hasPermission(base, PERMISSIONS.ADMINISTRATOR)) return ALL_PERMISSIONS;
  let bits = base;
  const everyone = overwrites.find((o) => o.type === 0 && o.id === ctx.guildId);
  if (everyone) bits = (bits & ~everyone.deny) | everyone.allow;
  let allow = 0n;
  let deny = 0n;
  const memberRoles = new Set(ctx.memberRoleIds);
  for (const o of overwrites) {
    if (o.type === 0 && o.id !== ctx.guildId && memberRoles.has(o.id)) {
      allow |= o.allow;
      deny |= o.deny;
    }
  }
  bits = (bits & ~deny) | allow;
  const own = overwrites.find((o) => o.type === 1 && o.id === ctx.userId);
  if (own) bits = (bits & ~own.deny) | own.allow;
  return hasPermission(bits, PERMISSIONS.VIEW_CHANNEL) ? bits : 0n;
}
