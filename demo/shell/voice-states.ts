/**
 * Who is in which voice call, from the voice states the client's gateway session receives: a
 * guild voice channel's (GUILD_CREATE's `voice_states`, then VOICE_STATE_UPDATE with the guild),
 * and a lobby call's (VOICE_STATE_UPDATE with `guild_id: null` and the `lobby_id`, which the
 * platform sends to the lobby's members as they join and leave; READY and GUILD_CREATE carry
 * none of them). A user is in one voice channel per guild and in one lobby call per
 * application at a time, so each state replaces the one before it.
 */
import type { WireVoiceState } from './wire';

/** The voice states the client heard of. */
export class VoiceStates {
  /** `<guild id>:<user id>` → the user's voice state in that guild. */
  readonly #guild = new Map<string, WireVoiceState>();
  /** user id → the user's lobby call (the demo's lobbies all belong to its one application). */
  readonly #lobby = new Map<string, WireVoiceState>();

  /**
   * Applies a voice state; `channel_id: null` is a leave. Answers whether anything changed.
   * @example states.apply({ guild_id: null, lobby_id: lobbyId, channel_id: lobbyId, user_id, self_mute: false, self_deaf: false })
   */
  apply(state: WireVoiceState): boolean {
    if (state.guild_id) {
      const key = `${state.guild_id}:${state.user_id}`;
      if (state.channel_id) this.#guild.set(key, state);
      else return this.#guild.delete(key);
      return true;
    }
    if (!state.lobby_id) return false;
    if (state.channel_id) {
      this.#lobby.set(state.user_id, state);
      return true;
    }
    // A leave names the lobby it leaves: a late one must not remove the user from the next call.
    if (this.#lobby.get(state.user_id)?.lobby_id !== state.lobby_id) return false;
    return this.#lobby.delete(state.user_id);
  }

  /** Forgets everything (a new session: what it hears next replaces what an earlier one heard). */
  clear(): void {
    this.#guild.clear();
    this.#lobby.clear();
  }

  /** The voice states of everyone in the call of `channelId`: a guild voice channel, or a lobby (by its id). */
  in(channelId: string): WireVoiceState[] {
    return [...this.#guild.values(), ...this.#lobby.values()].filter((v) => v.channel_id === channelId);
  }

  /** `userId`'s voice state in the call of `channelId`, when they are in it. */
  of(userId: string, channelId: string): WireVoiceState | undefined {
    return this.in(channelId).find((v) => v.user_id === userId);
  }
}
