/**
 * Lobby calls: each lobby has one voice "channel", addressed on the gateway by a Voice State
 * Update with `guild_id: null` and `channel_id: <lobby_id>` (and left with both null). A user
 * is in at most one lobby call per application: joining another leaves the first. Every change
 * emits VOICE_STATE_UPDATE (with `guild_id: null` and the `lobby_id`) to the lobby's members,
 * as lobby events reach them whatever their intents.
 */
import type { Emit, WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { isLobbyLive, lobbyAudience, loadLobbyMembers } from '../lobbies/store';
import type { LobbyVoiceStateRecord } from '../../store/records/voice';
import type { VoiceCaller, VoiceCredential, VoiceJoinOutcome } from './caller';
import type { LobbyVoiceState } from '../../store/records/dispatches';
import { changePrivateCall, type PrivateCallKind, type SelfFlags, serializePrivateCallState } from './private-calls';

/** A lobby call voice state as VOICE_STATE_UPDATE carries it; `left` gives `channel_id: null`. */
export function serializeLobbyVoiceState(state: LobbyVoiceStateRecord, left = false): LobbyVoiceState {
  return serializePrivateCallState(state, left ? null : state.lobby_id, { lobby_id: state.lobby_id });
}

/** Emits the state to every member of its lobby (the user who left included). */
export async function emitLobbyVoiceState(
  tx: WriteTx,
  emit: Emit,
  state: LobbyVoiceStateRecord,
  left: boolean,
): Promise<void> {
  const lobby = await tx.store('lobbies').get(state.lobby_id);
  if (!lobby) return;
  const members = await loadLobbyMembers(tx, lobby.id);
  const audience = lobbyAudience(lobby, [...members.keys(), state.user_id]);
  emit({ type: 'VOICE_STATE_UPDATE', data: serializeLobbyVoiceState(state, left), audience });
}

/** The stores a lobby call change reads and writes. */
export const LOBBY_CALL_STORES = ['lobbies', 'lobby_members', 'lobby_voice_states', 'voice_tokens'] as const;

/** Lobby calls as a kind of private call: the members of a live lobby of the caller's application may join. */
const LOBBY_CALL: PrivateCallKind<LobbyVoiceStateRecord> = {
  states: (tx) => tx.store('lobby_voice_states'),
  callOf: (state) => state.lobby_id,
  stateIn: (lobbyId, state) => ({ ...state, lobby_id: lobbyId }),
  admits: async (ctx, tx, caller, lobbyId) => {
    const lobby = await tx.store('lobbies').get(lobbyId);
    if (!lobby || lobby.application_id !== caller.application_id || !isLobbyLive(lobby, ctx.clock.now())) return false;
    return (await tx.store('lobby_members').get([lobbyId, caller.user_id])) !== undefined;
  },
  emitState: emitLobbyVoiceState,
};

/**
 * Inside a write: the caller joins the call of lobby `lobbyId` (or, with null, leaves their
 * lobby call). Refused (nothing changes) when the lobby is not the caller's application's, is
 * gone, or the caller is not a member. A new join issues a voice server token.
 */
export function changeLobbyCall(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  caller: VoiceCaller,
  lobbyId: string | null,
  self: SelfFlags,
  credential: VoiceCredential,
): Promise<VoiceJoinOutcome> {
  return changePrivateCall(ctx, tx, emit, LOBBY_CALL, caller, lobbyId, self, credential);
}
