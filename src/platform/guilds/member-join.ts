/**
 * Finding and adding guild members for bots (public docs): Search Guild Members (`GET
 * /guilds/{guild.id}/members/search`, usernames and nicknames starting with the query) and Add
 * Guild Member (`PUT /guilds/{guild.id}/members/{user.id}` with the user's OAuth2 access token
 * granted `guilds.join` to the bot's application; the bot must be in the guild with
 * CREATE_INSTANT_INVITE). `nick`, `roles`, `mute` and `deaf` need MANAGE_NICKNAMES,
 * MANAGE_ROLES (with the hierarchy), MUTE_MEMBERS and DEAFEN_MEMBERS. A user banned from the
 * guild is refused (40007); one already a member is left as they are.
 */
import { write } from '../../store/write';
import { keyRange } from '../../store/port';
import { authenticate, type BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  bypassesHierarchy,
  dbReader,
  guildPermissions,
  highestRolePosition,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
} from './access';
import { refuseBannedUser } from './bans';
import { serializeChannel, serializeGuild, serializeMember } from './wire';
import { INTENTS } from '../core/intents';
import { PERMISSIONS } from '../core/permissions';
import type { MemberRecord } from '../../store/records/core';

/**
 * Members whose username or nickname starts with `query` (case-insensitive), by user id, at
 * most `limit`.
 * @example await searchGuildMembers(ctx, bot, guildId, { query: 'ali', limit: 10 });
 */
export async function searchGuildMembers(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  options: { query: string; limit: number },
) {
  requireMember(await loadGuildView(dbReader(ctx.db), guildId, principal.user.id));
  const tx = ctx.db.read(['members', 'users']);
  const members = (await tx.store('members').getAll(keyRange.bound([guildId], [guildId, []]))).sort((a, b) =>
    BigInt(a.user_id) < BigInt(b.user_id) ? -1 : 1,
  );
  const prefix = options.query.toLowerCase();
  const found = [];
  for (const member of members) {
    if (found.length >= options.limit) break;
    const user = await tx.store('users').get(member.user_id);
    if (!user) continue;
    const names = [user.username, member.nick ?? ''].map((n) => n.toLowerCase());
    if (names.some((n) => n.length > 0 && n.startsWith(prefix))) found.push(serializeMember(member, user));
  }
  return found;
}

/** What Add Guild Member takes besides the token. */
export interface AddMemberInput {
  access_token: string;
  nick?: string | null;
  roles?: string[] | null;
  mute?: boolean | null;
  deaf?: boolean | null;
}

/**
 * Adds the token's user to the guild; resolves to the new member, or null when the user was
 * a member already (204 on the platform).
 * @example const member = await addGuildMember(ctx, bot, guildId, userId, { access_token });
 */
export async function addGuildMember(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  userId: string,
  input: AddMemberInput,
) {
  const invalidToken = () => ApiError.of('MISSING_SCOPE');
  const holder = await authenticate(ctx, `Bearer ${input.access_token}`).catch(() => {
    throw invalidToken();
  });
  if (
    holder.kind !== 'bearer' ||
    holder.application.id !== principal.application.id ||
    holder.user.id !== userId ||
    !holder.scopes.has('guilds.join')
  )
    throw invalidToken();
  return write(ctx, ['guilds', 'roles', 'members', 'users', 'channels', 'guild_bans'], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const bits = guildPermissions(view);
    requirePermissions(bits, PERMISSIONS.CREATE_INSTANT_INVITE);
    if (await tx.store('members').get([guildId, userId])) return null;
    await refuseBannedUser(tx, guildId, userId);
    if (input.nick != null) requirePermissions(bits, PERMISSIONS.MANAGE_NICKNAMES);
    if (input.mute != null) requirePermissions(bits, PERMISSIONS.MUTE_MEMBERS);
    if (input.deaf != null) requirePermissions(bits, PERMISSIONS.DEAFEN_MEMBERS);
    const roles = [...new Set(input.roles ?? [])];
    if (roles.length > 0) {
      requirePermissions(bits, PERMISSIONS.MANAGE_ROLES);
      const bad: Record<string, string> = {};
      roles.forEach((id, i) => {
        const role = view.roles.find((r) => r.id === id);
        if (!role || id === guildId || role.managed)
          bad[`roles.${i}`] = 'Unknown role, or a role that cannot be assigned.';
      });
      if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
      const top = highestRolePosition(view, view.member!.roles);
      if (!bypassesHierarchy(view) && view.roles.some((r) => roles.includes(r.id) && r.position >= top))
        throw ApiError.of('MISSING_PERMISSIONS');
    }
    const member: MemberRecord = {
      guild_id: guildId,
      user_id: userId,
      nick: input.nick || null,
      roles,
      joined_at: ctx.clock.now(),
      avatar: null,
      banner: null,
      bio: null,
      flags: 0,
      mute: input.mute ?? false,
      deaf: input.deaf ?? false,
    };
    await tx.store('members').add(member);
    const wire = serializeMember(member, holder.user);
    emit({
      type: 'GUILD_MEMBER_ADD',
      data: { ...wire, guild_id: guildId },
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
    });
    const channels = await tx.store('channels').index('by_guild').getAll(guildId);
    emit({
      type: 'GUILD_CREATE',
      data: { ...serializeGuild(view.guild, view.roles), channels: channels.map(serializeChannel), members: [wire] },
      audience: { user_ids: [userId] },
    });
    return wire;
  });
}
