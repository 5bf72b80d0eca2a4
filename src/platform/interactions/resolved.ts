/**
 * `resolved` data of an interaction: the users, members, roles, channels, messages and
 * attachments its options or select values name, in their partial forms. Resolved channels
 * carry the invoking user's `permissions` and, only when the app's bot is in the guild, the
 * bot's permissions there as `app_permissions` (spec: Interaction resolved channel).
 */
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { channelPermissions, dbReader, loadGuildView } from '../guilds/access';
import { serializeMember, serializeRole } from '../guilds/wire';
import type { InteractionPlace } from './place';
import type { PreparedFile } from './files';
import { resolvedAttachments } from './files';
import type { ChannelMessage } from '../messages/wire';
import { serializeUser } from '../accounts/users';

/** What an interaction's `data.resolved` holds (only the maps that have entries are answered). */
export interface Resolved {
  users: Record<string, unknown>;
  members: Record<string, unknown>;
  roles: Record<string, unknown>;
  channels: Record<string, unknown>;
  messages: Record<string, ChannelMessage>;
  attachments: Record<string, unknown>;
}

/** An empty resolved. */
export function emptyResolved(): Resolved {
  return { users: {}, members: {}, roles: {}, channels: {}, messages: {}, attachments: {} };
}

/** The resolved maps that have entries, or undefined when none has. */
export function compactResolved(resolved: Resolved): Partial<Resolved> | undefined {
  const out = Object.fromEntries(Object.entries(resolved).filter(([, map]) => Object.keys(map).length > 0));
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Adds a user (and in a guild their partial member: no user, deaf, mute) or throws 50035 naming `path`. */
export async function resolveUser(
  ctx: PlatformContext,
  place: InteractionPlace,
  resolved: Resolved,
  id: string,
  path: string,
): Promise<void> {
  const user = await ctx.db.get('users', id);
  if (!user) throw ApiError.invalidForm({ [path]: 'Unknown user.' });
  resolved.users[id] = serializeUser(user);
  if (!place.guild) return;
  const member = await ctx.db.get('members', [place.guild.guild.id, id]);
  if (!member) return;
  const { user: _u, deaf: _d, mute: _m, ...partial } = serializeMember(member, user);
  const view = await loadGuildView(dbReader(ctx.db), place.guild.guild.id, id);
  resolved.members[id] = {
    ...partial,
    permissions: place.channel ? channelPermissions(view, place.channel).toString() : '0',
  };
}

/** Adds a role of the guild or throws 50035 naming `path`. */
export function resolveRole(place: InteractionPlace, resolved: Resolved, id: string, path: string): void {
  const role = place.guild?.roles.find((r) => r.id === id);
  if (!role) throw ApiError.invalidForm({ [path]: 'Unknown role of this guild.' });
  resolved.roles[id] = serializeRole(role);
}

/** A user id or a role id (a mentionable). */
export async function resolveMentionable(
  ctx: PlatformContext,
  place: InteractionPlace,
  resolved: Resolved,
  id: string,
  path: string,
): Promise<void> {
  if (place.guild?.roles.some((r) => r.id === id)) return resolveRole(place, resolved, id, path);
  return resolveUser(ctx, place, resolved, id, path);
}

/**
 * Adds a channel of the guild (or the interaction's DM channel), in its partial form, or throws
 * 50035 naming `path`; `channelTypes` restricts the types allowed.
 */
export async function resolveChannel(
  ctx: PlatformContext,
  place: InteractionPlace,
  resolved: Resolved,
  id: string,
  path: string,
  channelTypes?: readonly number[],
): Promise<void> {
  if (!place.guild) {
    if (id !== place.channelId) throw ApiError.invalidForm({ [path]: 'Unknown channel.' });
    resolved.channels[id] = {
      id,
      type: 1,
      permissions: place.userPermissions.toString(),
      app_permissions: place.appPermissions.toString(),
    };
    return;
  }
  const channel = await ctx.db.get('channels', id);
  if (!channel || channel.guild_id !== place.guild.guild.id)
    throw ApiError.invalidForm({ [path]: 'Unknown channel of this guild.' });
  if (channelTypes && channelTypes.length > 0 && !channelTypes.includes(channel.type))
    throw ApiError.invalidForm({ [path]: 'This channel type is not allowed here.' });
  const partial: Record<string, unknown> = {
    id: channel.id,
    name: channel.name,
    type: channel.type,
    guild_id: channel.guild_id,
    parent_id: channel.parent_id,
    position: channel.position,
    flags: channel.flags,
    topic: channel.topic,
    nsfw: false,
    rate_limit_per_user: channel.rate_limit_per_user ?? 0,
    permissions: channelPermissions(place.guild, channel).toString(),
  };
  if (place.botInGuild) {
    const botView = await loadGuildView(dbReader(ctx.db), place.guild.guild.id, place.bot.id);
    partial.app_permissions = channelPermissions(botView, channel).toString();
  }
  resolved.channels[id] = partial;
}

/** Adds stored files as resolved attachments. */
export function resolveFiles(resolved: Resolved, files: readonly PreparedFile[]): void {
  Object.assign(resolved.attachments, resolvedAttachments(files));
}
