/**
 * Create Lobby Channel Invite for Self (`POST /lobbies/{lobby.id}/members/@me/invites`, a user
 * who is a lobby member, Bearer) and for User (`POST /lobbies/{lobby.id}/members/{user.id}/invites`,
 * the application's bot, for a lobby member): a single-use guild invite to the lobby's linked
 * channel, valid one hour by the platform clock, that only that user can accept. Answers the
 * lobby invite object `{code}`; the invite itself is an ordinary guild invite (INVITE_CREATE).
 */
import type { PlatformDB } from '../../store/schema';
import { write } from '../../store/write';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { InviteRecord } from '../../store/records/guilds';
import { storeNewInvite } from '../channels/invites';
import { INVITE_STORES, generateInviteCode } from '../channels/invites-store';
import { LOBBY_CHANNEL_INVITE_TTL_MS } from '../core/limits';
import { findLobby, LOBBY_WRITE_STORES, sweepIdleLobbies } from './store';
import { type PlatformStoreName } from '../../store/schema';

const STORES: PlatformStoreName[] = [...new Set([...LOBBY_WRITE_STORES, ...INVITE_STORES])];

/**
 * Makes the invite for `userId`, who must be a member of the lobby (50001 otherwise); a lobby
 * without a linked channel (or whose channel is gone) has nothing to invite to (404 10003).
 * @example const { code } = await createLobbyChannelInvite(ctx, principal, lobbyId, principal.user.id);
 */
export async function createLobbyChannelInvite(
  ctx: PlatformContext,
  principal: Principal,
  lobbyId: string,
  userId: string,
): Promise<{ code: string }> {
  return write(ctx, STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    await sweepIdleLobbies(tx, emit, now);
    const lobby = await findLobby(tx, principal, lobbyId, now);
    if (!(await tx.store('lobby_members').get([lobby.id, userId]))) {
      throw ApiError.of('MISSING_ACCESS', 'The user is not a member of this lobby.');
    }
    const channel = lobby.linked_channel_id ? await tx.store('channels').get(lobby.linked_channel_id) : undefined;
    if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL', 'This lobby has no linked channel.');
    const invite: InviteRecord = {
      code: generateInviteCode(),
      guild_id: channel.guild_id,
      channel_id: channel.id,
      inviter_id: principal.user.id,
      max_age: LOBBY_CHANNEL_INVITE_TTL_MS / 1000,
      max_uses: 1,
      uses: 0,
      temporary: false,
      expires_at: now + LOBBY_CHANNEL_INVITE_TTL_MS,
      target_user_ids: [userId],
      target_users_updated_at: now,
      role_ids: [],
      lobby_id: lobby.id,
      created_at: now,
    };
    await storeNewInvite(ctx, tx, emit, invite);
    return { code: invite.code };
  });
}
