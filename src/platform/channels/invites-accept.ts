/**
 * A user accepting an invite, as the platform's client does when someone opens an invite link
 * (the sandbox route `POST /sandbox/invites/{code}/accept {user_id}` stands in for the client).
 * The user joins the guild with the invite's roles (GUILD_MEMBER_ADD to the guild, GUILD_CREATE
 * to the user); the invite counts a use and is deleted (INVITE_DELETE) once used up. An invite
 * with target users is unknown (10006) to anyone else, and one that expired or was used up is
 * unknown to everyone. A user who is already a member joins nothing and uses nothing; a user
 * banned from the guild is refused (403 40007) and uses nothing. An
 * activity invite (INVITE_USER_EMBEDDED) also joins the user to the inviter's activity: the
 * activity hears ACTIVITY_JOIN with the invite's join secret, member or not.
 */
import { isThreadType } from '../../store/records/threads';
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { InviteRecord } from '../../store/records/guilds';
import { serializeChannel, serializeGuild, serializeMember } from '../guilds/wire';
import { INTENTS } from '../core/intents';
import { invitesPaused } from '../guilds/guild-settings';
import { INVITE_STORES, findLiveInvite, inviteAudience, isInviteTarget, serializeInvite } from './invites-store';
import type { MemberRecord } from '../../store/records/core';
import { recordActivityJoin } from '../activities/activity-joins';
import { refuseBannedUser } from '../guilds/bans';

/**
 * Accepts invite `code` for `userId`; resolves to the invite (as it was when accepted), the
 * member, and whether the user joined now.
 * @example const { member, joined } = await acceptInvite(ctx, 'aB3dE5gH7j', userId);
 */
export async function acceptInvite(ctx: PlatformContext, code: string, userId: string) {
  return write(ctx, INVITE_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const invite = await findLiveInvite(tx, code, now);
    const user = await tx.store('users').get(userId);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    if (user.bot)
      throw ApiError.of('BOTS_CANNOT_USE_ENDPOINT', 'Bots cannot accept invites: they join guilds through OAuth2.');
    if (!isInviteTarget(invite, userId)) throw ApiError.of('UNKNOWN_INVITE');
    const wire = await serializeInvite(tx, invite, false);
    if (invite.target_application_id)
      await recordActivityJoin(tx, emit, {
        user_id: userId,
        application_id: invite.target_application_id,
        secret: invite.join_secret ?? '',
        from_user_id: invite.inviter_id,
        invite_code: invite.code,
        created_at: now,
      });
    const existing = await tx.store('members').get([invite.guild_id, userId]);
    if (existing) return { invite: wire, member: serializeMember(existing, user), joined: false };
    if (invitesPaused(await tx.store('guild_settings').get(invite.guild_id), now)) throw ApiError.of('INVITES_PAUSED');
    await refuseBannedUser(tx, invite.guild_id, userId);

    const guild = (await tx.store('guilds').get(invite.guild_id))!;
    const roles = await tx.store('roles').index('by_guild').getAll(invite.guild_id);
    // Roles deleted since the invite was made are not granted.
    const granted = invite.role_ids.filter((id) => roles.some((r) => r.id === id));
    const member: MemberRecord = {
      guild_id: invite.guild_id,
      user_id: userId,
      nick: null,
      roles: granted,
      joined_at: now,
      avatar: null,
      banner: null,
      bio: null,
      flags: 0,
    };
    await tx.store('members').add(member);
    emit({
      type: 'GUILD_MEMBER_ADD',
      data: { ...serializeMember(member, user), guild_id: guild.id },
      audience: { guild_id: guild.id, intent: INTENTS.GUILD_MEMBERS },
    });
    const channels = await tx.store('channels').index('by_guild').getAll(guild.id);
    emit({
      type: 'GUILD_CREATE',
      data: {
        ...serializeGuild(guild, roles),
        channels: channels.filter((c) => !isThreadType(c.type)).map(serializeChannel),
        members: [serializeMember(member, user)],
      },
      audience: { user_ids: [userId] },
    });
    const used: InviteRecord = { ...invite, uses: invite.uses + 1 };
    if (used.max_uses !== 0 && used.uses >= used.max_uses) {
      await tx.store('invites').delete(code);
      emit({
        type: 'INVITE_DELETE',
        data: { channel_id: invite.channel_id, guild_id: invite.guild_id, code },
        audience: inviteAudience(invite),
      });
    } else {
      await tx.store('invites').put(used);
    }
    return { invite: wire, member: serializeMember(member, user), joined: true };
  });
}
