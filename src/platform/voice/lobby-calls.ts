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
import { issueVoiceToken } from './tokens';
import type { LobbyVoiceState } from '../../store/records/dispatches';

/** A lobby call voice state as VOICE_STATE_UPDATE carries it; `left` gives `channel_id: null`. */
export function serializeLobbyVoiceState(state: LobbyVoiceStateRecord, left = false): LobbyVoiceState {
  return {
    guild_id: null,
    channel_id: left ? null : state.lobby_id,
    lobby_id: state.lobby_id,
    user_id: state.user_id,
    session_id: state.session_id,
    deaf: false,
    mute: false,
    self_deaf: state.self_deaf,
    self_mute: state.self_mute,
    self_stream: false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
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

/**
 * Inside a write: the caller joins the call of lobby `lobbyId` (or, with null, leaves their
 * lobby call). Refused (nothing changes) when the lobby is not the caller's application's, is
 * gone, or the caller is not a member. A new join issues a voice server token.
 */
export async function changeLobbyCall(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  caller: VoiceCaller,
  lobbyId: string | null,
  self: { self_mute: boolean; self_deaf: boolean },
  credential: VoiceCredential,
): Promise<VoiceJoinOutcome> {
  const states = tx.store('lobby_voice_states');
  const existing = await states.get([caller.application_id, caller.user_id]);
  if (lobbyId === null) {
    if (!existing) return { joined: false };
    await states.delete([caller.application_id, caller.user_id]);
    await emitLobbyVoiceState(tx, emit, existing, true);
    return { joined: false };
  }
  const lobby = await tx.store('lobbies').get(lobbyId);
  const member = lobby && (await tx.store('lobby_members').get([lobbyId, caller.user_id]));
  if (!lobby || lobby.application_id !== caller.application_id || !isLobbyLive(lobby, ctx.clock.now()) || !member)
    return { refused: true };
  if (existing?.lobby_id === lobbyId && existing.session_id === caller.session_id) {
    // Already in this call: only the self mute and deafen flags can change, and no new token is due.
    if (existing.self_mute === self.self_mute && existing.self_deaf === self.self_deaf) return { joined: false };
    const changed = { ...existing, ...self };
    await states.put(changed);
    await emitLobbyVoiceState(tx, emit, changed, false);
    return { joined: false };
  }
  // One lobby call at a time: moving to this one leaves the other.
  if (existing && existing.lobby_id !== lobbyId) await emitLobbyVoiceState(tx, emit, existing, true);
  const state: LobbyVoiceStateRecord = {
    application_id: caller.application_id,
    user_id: caller.user_id,
    lobby_id: lobbyId,
    session_id: caller.session_id,
    ...self,
    joined_at: ctx.clock.now(),
  };
  await states.put(state);
  await emitLobbyVoiceState(tx, emit, state, false);
  await issueVoiceToken(tx, {
    server_id: lobbyId,
    guild_id: null,
    channel_id: lobbyId,
    caller,
    credential,
    now: ctx.clock.now(),
  });
  return { joined: true, server: { token: credential.token, guild_id: null, channel_id: lobbyId } };
}
