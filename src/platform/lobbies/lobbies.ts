/**
 * The lobby resource: create or join by secret (a user through an application), create,
 * read, modify and delete (the application's bot). Members live in `lobbies/members.ts`,
 * messages in `lobbies/messages.ts`; the store helpers and the idle sweep in `lobbies/store.ts`.
 */
import type { BearerPrincipal, BotPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { LOBBY_IDLE_TIMEOUT_DEFAULT_S } from '../core/limits';
import type { Lobby, LobbyRecord, Metadata } from '../../store/records/core';
import { LobbyEditor, lastEntryPerUser } from './editor';
import { readLinkedChannel, serializeLinkedLobby } from './linking';
import type { CreateOrJoinLobbyInput, LobbyMemberInput, LobbySettingsInput } from './schemas';
import {
  destroyLobby,
  findLobby,
  isSecretLive,
  loadLobbyMembers,
  readLobbies,
  removeIdleLobbies,
  requireLobbyAccess,
  writeLobbies,
} from './store';

export { removeIdleLobbies } from './store';

/** A new, empty lobby record. */
function newLobby(
  id: string,
  applicationId: string,
  now: number,
  fields: { secret: string | null; metadata: Metadata | null; idle_timeout_seconds?: number; flags?: number | null },
): LobbyRecord {
  return {
    id,
    application_id: applicationId,
    secret: fields.secret,
    metadata: fields.metadata,
    idle_timeout_seconds: fields.idle_timeout_seconds ?? LOBBY_IDLE_TIMEOUT_DEFAULT_S,
    idle_deadline: null,
    linked_channel_id: null,
    member_count: 0,
    created_at: now,
    flags: fields.flags ?? 0,
  };
}

/**
 * `PUT /lobbies`: joins the caller to the application's lobby with this secret, creating it
 * when there is none. Joining an existing lobby adds the caller, or updates their member
 * metadata; the lobby's own metadata, flags and idle timeout apply only when it is created.
 * A secret stops joining 30 days after its lobby was created: the lobby stays, and the secret
 * then creates a new one.
 * @example await createOrJoinLobby(ctx, principal, { secret: 'match-42', member_metadata: { team: 'red' } })
 */
export async function createOrJoinLobby(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  input: CreateOrJoinLobbyInput,
): Promise<Lobby> {
  return writeLobbies(ctx, async (tx, emit, now) => {
    const applicationId = principal.application.id;
    const lobbies = tx.store('lobbies');
    const self: LobbyMemberInput = { id: principal.user.id, metadata: input.member_metadata };
    const found = await lobbies.index('by_secret').get([applicationId, input.secret]);
    if (found && isSecretLive(found, now)) {
      const editor = await LobbyEditor.open(tx, emit, found, now);
      await editor.upsert(self, 'refuse');
      await editor.save();
      return editor.toJSON();
    }
    // The expired secret gives itself up (its lobby stays) so that it can name the new lobby.
    if (found) await lobbies.put({ ...found, secret: null });
    const lobby = newLobby(ctx.ids.next(), applicationId, now, {
      secret: input.secret,
      metadata: input.lobby_metadata ?? null,
      idle_timeout_seconds: input.idle_timeout_seconds,
      flags: input.flags,
    });
    const editor = LobbyEditor.create(tx, emit, lobby, now);
    await editor.upsert(self, 'refuse');
    await editor.save();
    return editor.toJSON();
  });
}

/**
 * `POST /lobbies`: the bot creates a lobby of its application with up to 25 members. A lobby
 * created empty counts as idle from its creation.
 */
export async function createLobby(
  ctx: PlatformContext,
  principal: BotPrincipal,
  input: LobbySettingsInput,
): Promise<Lobby> {
  return writeLobbies(ctx, async (tx, emit, now) => {
    const lobby = newLobby(ctx.ids.next(), principal.application.id, now, {
      secret: null,
      metadata: input.metadata ?? null,
      idle_timeout_seconds: input.idle_timeout_seconds,
      flags: input.flags,
    });
    const editor = LobbyEditor.create(tx, emit, lobby, now);
    for (const member of lastEntryPerUser(input.members ?? [])) await editor.upsert(member, 'refuse');
    await editor.save();
    return editor.toJSON();
  });
}

/** `GET /lobbies/{id}`: for the application's bot, or a user who is a member; with `linked_channel` when linked. */
export async function getLobby(ctx: PlatformContext, principal: Principal, lobbyId: string): Promise<Lobby> {
  await removeIdleLobbies(ctx);
  const tx = readLobbies(ctx);
  const lobby = await findLobby(tx, principal, lobbyId, ctx.clock.now());
  await requireLobbyAccess(tx, principal, lobby);
  const members = await loadLobbyMembers(tx, lobby.id);
  return serializeLinkedLobby(lobby, members.values(), await readLinkedChannel(ctx, lobby));
}

/**
 * `PATCH /lobbies/{id}`: new metadata (overwrites), flags, idle timeout, and with `members` the whole
 * member list (members left out are removed; the others are added or updated).
 */
export async function modifyLobby(
  ctx: PlatformContext,
  principal: BotPrincipal,
  lobbyId: string,
  input: LobbySettingsInput,
): Promise<Lobby> {
  return writeLobbies(ctx, async (tx, emit, now) => {
    const editor = await LobbyEditor.open(tx, emit, await findLobby(tx, principal, lobbyId, now), now);
    if (input.members) {
      const next = lastEntryPerUser(input.members);
      const kept = new Set(next.map((m) => m.id));
      // Removals first, so that replacing members of a full lobby does not hit its member limit.
      for (const userId of [...editor.members.keys()]) if (!kept.has(userId)) await editor.remove(userId);
      for (const member of next) await editor.upsert(member, 'refuse');
    }
    editor.update({ metadata: input.metadata, idle_timeout_seconds: input.idle_timeout_seconds, flags: input.flags });
    await editor.save();
    return editor.toJSON();
  });
}

/**
 * `DELETE /lobbies/{id}`: removes the lobby, its members and messages. Idempotent: a lobby that
 * no longer exists is not an error; another application's lobby is 404 10031.
 */
export async function deleteLobby(ctx: PlatformContext, principal: BotPrincipal, lobbyId: string): Promise<void> {
  await writeLobbies(ctx, async (tx, emit) => {
    const lobby = await tx.store('lobbies').get(lobbyId);
    if (!lobby) return;
    if (lobby.application_id !== principal.application.id) throw ApiError.of('UNKNOWN_LOBBY');
    await destroyLobby(tx, emit, lobby);
  });
}
