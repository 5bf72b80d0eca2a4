/**
 * A voice state stands on the gateway session that joined: when that session ends, the user
 * leaves the call, as on the platform. The gateway removes the voice states of a session that
 * ended for good at once, and those of a session that dropped once it has stayed away for
 * `VOICE_STATE_SESSION_GRACE_MS`; after a restart of the shared worker, those of every
 * session no gateway has connected. Each removal is a leave: VOICE_STATE_UPDATE with
 * `channel_id: null` to the same audience, so the voice server disconnects the voice session too.
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { DM_CALL_STORES, emitDmVoiceState } from './dm-calls';
import { emitLobbyVoiceState, LOBBY_CALL_STORES } from './lobby-calls';
import { emitVoiceStateUpdate } from './states';

const STORES = [
  ...new Set([...LOBBY_CALL_STORES, ...DM_CALL_STORES, 'voice_states', 'members', 'users', 'presences'] as const),
];

/**
 * Removes the voice states (guild voice channels, lobby and DM calls) of the sessions `ids`, and
 * resolves with how many were removed.
 * @example if (await endVoiceOfSessions(ctx, new Set([sessionId]))) await gateway.pump();
 */
export function endVoiceOfSessions(ctx: PlatformContext, ids: ReadonlySet<string>): Promise<number> {
  return removeVoiceStates(ctx, async () => (sessionId) => ids.has(sessionId));
}

/**
 * Removes the voice states of every session that no running gateway counts as connected (the
 * presence records list the connected sessions), and resolves with how many were removed.
 */
export function endVoiceOfDisconnectedSessions(ctx: PlatformContext): Promise<number> {
  return removeVoiceStates(ctx, async (tx) => {
    const connected = new Set(
      (await tx.store('presences').getAll()).flatMap((p) => (p.sessions ?? []).map((s) => s.session_id)),
    );
    return (sessionId) => !connected.has(sessionId);
  });
}

/**
 * One write: the voice states whose session `pick` names are deleted and announced as left. The
 * stores hold only the calls going on now, so reading them whole is proportional to the answer.
 */
async function removeVoiceStates(
  ctx: PlatformContext,
  pick: (tx: WriteTx) => Promise<(sessionId: string) => boolean>,
): Promise<number> {
  return write(ctx, [...STORES], async (tx, emit: Emit) => {
    const ended = await pick(tx);
    const [guildStates, lobbyStates, dmStates] = await Promise.all([
      tx.store('voice_states').getAll(),
      tx.store('lobby_voice_states').getAll(),
      tx.store('dm_voice_states').getAll(),
    ]);
    const guildEnded = guildStates.filter((s) => ended(s.session_id));
    const lobbyEnded = lobbyStates.filter((s) => ended(s.session_id));
    const dmEnded = dmStates.filter((s) => ended(s.session_id));
    for (const state of guildEnded) {
      const [member, user] = await Promise.all([
        tx.store('members').get([state.guild_id, state.user_id]),
        tx.store('users').get(state.user_id),
        tx.store('voice_states').delete([state.guild_id, state.user_id]),
      ]);
      if (member && user) emitVoiceStateUpdate(emit, state, member, user, true);
    }
    for (const state of lobbyEnded) {
      await tx.store('lobby_voice_states').delete([state.application_id, state.user_id]);
      await emitLobbyVoiceState(tx, emit, state, true);
    }
    for (const state of dmEnded) {
      await tx.store('dm_voice_states').delete([state.application_id, state.user_id]);
      await emitDmVoiceState(tx, emit, state, true);
    }
    return guildEnded.length + lobbyEnded.length + dmEnded.length;
  });
}
