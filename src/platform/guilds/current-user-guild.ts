/**
 * The current user and one of their guilds: `DELETE /users/@me/guilds/{guild.id}` (a bot leaves
 * a guild; the owner cannot, 400 50055) and `GET /users/@me/guilds/{guild.id}/member` (a user's
 * own member object, OAuth2 scope `guilds.members.read`). Leaving emits GUILD_MEMBER_REMOVE to
 * the guild (GUILD_MEMBERS intent), GUILD_DELETE to the leaver's own sessions, and drops the
 * leaver's interest in the guild's scheduled events.
 */
import { write } from '../../store/write';
import type { BotPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { serializeMember } from './wire';
import { dropInterestsOfLeaver } from './scheduled-event-users';

/**
 * Leaves the guild. A guild the caller is not in is 404 (10004), as the platform answers it.
 * @example await leaveGuild(ctx, bot, guildId);
 */
export async function leaveGuild(ctx: PlatformContext, principal: BotPrincipal, guildId: string): Promise<void> {
  const userId = principal.user.id;
  await write(ctx, ['guilds', 'members', 'users', 'guild_scheduled_event_users'], async (tx, emit) => {
    const guild = await tx.store('guilds').get(guildId);
    const member = await tx.store('members').get([guildId, userId]);
    if (!guild || !member) throw ApiError.of('UNKNOWN_GUILD');
    if (guild.owner_id === userId) throw ApiError.of('INVALID_GUILD', 'The owner cannot leave the guild.');
    await tx.store('members').delete([guildId, userId]);
    await dropInterestsOfLeaver(tx, emit, guildId, userId);
    emit({
      type: 'GUILD_MEMBER_REMOVE',
      data: { guild_id: guildId, user: serializeMember(member, principal.user).user },
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
    });
    emit({ type: 'GUILD_DELETE', data: { id: guildId }, audience: { user_ids: [userId] } });
  });
}

/** `GET /users/@me/guilds/{guild.id}/member`: the caller's member object; not a member is 404 (10004). */
export async function getCurrentUserMember(ctx: PlatformContext, principal: Principal, guildId: string) {
  const member = await ctx.db.get('members', [guildId, principal.user.id]);
  if (!member || !(await ctx.db.get('guilds', guildId))) throw ApiError.of('UNKNOWN_GUILD');
  return serializeMember(member, principal.user);
}
