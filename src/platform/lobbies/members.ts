/**
 * Lobby members: the bot adds, updates and removes them one at a time or up to 25 in one
 * request; a user leaves with `@me`.
 */
import type { BotPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { LobbyEditor, lastEntryPerUser } from './editor';
import type { BulkLobbyMemberInput, LobbyMemberInput } from './schemas';
import { findLobby, serializeLobbyMember, writeLobbies } from './store';
import type { LobbyMember } from '../../store/records/core';

/**
 * `PUT /lobbies/{id}/members/{user_id}`: adds the user, or updates their metadata and flags
 * when they are already a member. Resolves to the member.
 */
export async function putLobbyMember(
  ctx: PlatformContext,
  principal: BotPrincipal,
  lobbyId: string,
  input: LobbyMemberInput,
): Promise<LobbyMember> {
  return writeLobbies(ctx, async (tx, emit, now) => {
    const editor = await LobbyEditor.open(tx, emit, await findLobby(tx, principal, lobbyId, now), now);
    // 'refuse' never resolves to null: a user over a limit is an error here.
    const member = (await editor.upsert(input, 'refuse'))!;
    await editor.save();
    return serializeLobbyMember(member);
  });
}

/**
 * `DELETE /lobbies/{id}/members/{user_id}` (the bot) and `.../members/@me` (a user leaving):
 * safe when the user is not a member; 404 10031 when the lobby does not exist. The last member
 * leaving starts the lobby's idle timeout.
 */
export async function removeLobbyMember(
  ctx: PlatformContext,
  principal: Principal,
  lobbyId: string,
  userId: string,
): Promise<void> {
  await writeLobbies(ctx, async (tx, emit, now) => {
    const editor = await LobbyEditor.open(tx, emit, await findLobby(tx, principal, lobbyId, now), now);
    await editor.remove(userId);
    await editor.save();
  });
}

/**
 * `POST /lobbies/{id}/members/bulk`: 1 to 25 entries, each an upsert or, with
 * `remove_member: true`, a removal. Any unknown user fails the whole request (404 10013); a
 * user already in the most lobbies of the application is silently left out (as the public
 * docs describe). Resolves to the upserted members; removed ones are not included.
 */
export async function bulkUpdateLobbyMembers(
  ctx: PlatformContext,
  principal: BotPrincipal,
  lobbyId: string,
  entries: readonly BulkLobbyMemberInput[],
): Promise<LobbyMember[]> {
  return writeLobbies(ctx, async (tx, emit, now) => {
    const editor = await LobbyEditor.open(tx, emit, await findLobby(tx, principal, lobbyId, now), now);
    const last = lastEntryPerUser(entries);
    const users = await Promise.all(last.map((e) => tx.store('users').getKey(e.id)));
    if (users.some((key) => key === undefined)) throw ApiError.of('UNKNOWN_USER');
    // Removals first, so that swapping members of a full lobby does not hit its member limit.
    for (const entry of last) if (entry.remove_member) await editor.remove(entry.id);
    const upserted: LobbyMember[] = [];
    for (const { remove_member: remove, ...entry } of last) {
      if (remove) continue;
      const member = await editor.upsert(entry, 'drop');
      if (member) upserted.push(serializeLobbyMember(member));
    }
    await editor.save();
    return upserted;
  });
}
