/**
 * Reading guilds and their channels and roles over HTTP: the guild channel list (with the
 * spec's dated omission of channels the caller cannot view; threads are never listed), one
 * channel (a thread too), one role, the member
 * count per role, and the current user's guilds.
 */
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { inForce, RULE_DATES } from '../core/dates';
import { ApiError } from '../core/errors';
import { canViewChannel, dbReader, guildPermissions, loadGuildView, requireMember, type GuildView } from './access';
import { serializeChannel, serializeRole } from './wire';
import { serializePermissions } from '../core/permissions';
import { keyRange } from '../../store/port';
import { isThreadType } from '../../store/records/threads';
import { canViewThread, isThread } from '../threads/access';
import { serializeThread } from '../threads/wire';

/** A guild the caller must be a member of (50001 otherwise). */
async function memberView(ctx: PlatformContext, principal: Principal, guildId: string): Promise<GuildView> {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  return view;
}

/**
 * `GET /guilds/{guild.id}/channels`. From 2026-11-16 (platform clock) channels the caller lacks
 * VIEW_CHANNEL for are omitted; before, they are listed in full. There is no early opt-in over
 * HTTP: obfuscation is a gateway matter.
 */
export async function listGuildChannels(ctx: PlatformContext, principal: Principal, guildId: string) {
  const view = await memberView(ctx, principal, guildId);
  const channels = await ctx.db.getAllFromIndex('channels', 'by_guild', guildId);
  const omitHidden = inForce(RULE_DATES.CHANNEL_LIST_OMITS_HIDDEN, ctx.clock.now());
  return channels
    .filter((c) => !isThreadType(c.type) && (!omitHidden || canViewChannel(view, c)))
    .sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
    .map(serializeChannel);
}

/** `GET /channels/{channel.id}`: a guild channel the caller can view (50001 otherwise). */
export async function getChannel(ctx: PlatformContext, principal: Principal, channelId: string) {
  const channel = await ctx.db.get('channels', channelId);
  if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  const view = await memberView(ctx, principal, channel.guild_id);
  if (isThread(channel)) {
    // A thread is seen through its parent (and, when private, its membership).
    const [parent, member] = await Promise.all([
      channel.parent_id ? ctx.db.get('channels', channel.parent_id) : undefined,
      ctx.db.get('thread_members', [channel.id, principal.user.id]),
    ]);
    if (!canViewThread(view, channel, parent, !!member)) throw ApiError.of('MISSING_ACCESS');
    return serializeThread(channel, ctx.clock.now());
  }
  if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
  return serializeChannel(channel);
}

/** `GET /guilds/{guild.id}/roles/{role.id}`. */
export async function getGuildRole(ctx: PlatformContext, principal: Principal, guildId: string, roleId: string) {
  const view = await memberView(ctx, principal, guildId);
  const role = view.roles.find((r) => r.id === roleId);
  if (!role) throw ApiError.of('UNKNOWN_ROLE');
  return serializeRole(role);
}

/**
 * `GET /guilds/{guild.id}/roles/member-counts`: `{role_id: members}` for every role except
 * @everyone (which every member has).
 */
export async function roleMemberCounts(
  ctx: PlatformContext,
  principal: Principal,
  guildId: string,
): Promise<Record<string, number>> {
  const view = await memberView(ctx, principal, guildId);
  const counts: Record<string, number> = {};
  for (const role of view.roles) if (role.id !== guildId) counts[role.id] = 0;
  const members = await ctx.db.getAll('members', keyRange.bound([guildId], [guildId, []]));
  for (const member of members) for (const roleId of member.roles) if (roleId in counts) counts[roleId] += 1;
  return counts;
}

/**
 * `GET /users/@me/guilds`: the caller's guilds in id order as partial guilds; each includes
 * `banner` (spec). `before` / `after` / `limit` page through them; `with_counts` adds the
 * approximate member count.
 */
export async function listCurrentUserGuilds(
  ctx: PlatformContext,
  principal: Principal,
  options: { before?: string; after?: string; limit: number; with_counts: boolean },
) {
  const memberships = await ctx.db.getAllFromIndex('members', 'by_user', principal.user.id);
  const ids = memberships
    .map((m) => m.guild_id)
    .filter(
      (id) =>
        (options.after === undefined || BigInt(id) > BigInt(options.after)) &&
        (options.before === undefined || BigInt(id) < BigInt(options.before)),
    )
    .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
    .slice(0, options.limit);
  const reader = dbReader(ctx.db);
  return Promise.all(
    ids.map(async (id) => {
      const view = await loadGuildView(reader, id, principal.user.id);
      const count = options.with_counts ? await ctx.db.count('members', keyRange.bound([id], [id, []])) : undefined;
      return {
        id,
        name: view.guild.name,
        icon: view.guild.icon,
        banner: view.guild.banner,
        owner: view.guild.owner_id === principal.user.id,
        permissions: serializePermissions(guildPermissions(view)),
        features: view.guild.features,
        ...(count !== undefined ? { approximate_member_count: count } : {}),
      };
    }),
  );
}
