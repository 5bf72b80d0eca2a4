/**
 * Who speaks in each voice call, as the platform's own client learns it from the voice server
 * (Speaking, opcode 5) and tells embedded activities (SPEAKING_START / SPEAKING_STOP). A user
 * starts speaking when their flags turn non-zero and stops when they turn zero or when they
 * leave the call; repeated flags change nothing. Watchers name a call by its id: a guild voice
 * channel's, or a lobby's for a lobby call. Memory only: who speaks now is no record.
 */

/** A change of who speaks in a call: `channel_id` for a guild voice channel, `lobby_id` for a lobby call. */
export interface SpeakingChange {
  user_id: string;
  speaking: boolean;
  channel_id?: string;
  lobby_id?: string;
}

/** Hears the changes of one call. */
export type SpeakingListener = (change: SpeakingChange) => void;

/** A call as a voice session names it: its id, and whether it is a lobby's. */
export interface SpeakingCall {
  id: string;
  lobby: boolean;
}

/**
 * The speakers of every call and who watches them.
 * @example const stop = voice.speakers.watch(channelId, (change) => host.speaking(change));
 */
export class SpeakingWatch {
  readonly #speaking = new Map<string, Set<string>>();
  readonly #listeners = new Map<string, Set<SpeakingListener>>();

  /** Calls `listener` with each later change in the call `callId`; returns the function that stops. */
  watch(callId: string, listener: SpeakingListener): () => void {
    let listeners = this.#listeners.get(callId);
    if (!listeners) this.#listeners.set(callId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(callId) === listeners) this.#listeners.delete(callId);
    };
  }

  /** Who speaks in `callId` now. */
  speakers(callId: string): string[] {
    return [...(this.#speaking.get(callId) ?? [])];
  }

  /** A user's Speaking in a call: only a start or a stop is told. */
  update(call: SpeakingCall, userId: string, speaking: boolean): void {
    const now = this.#speaking.get(call.id) ?? new Set<string>();
    if (now.has(userId) === speaking) return;
    if (speaking) now.add(userId);
    else now.delete(userId);
    if (now.size > 0) this.#speaking.set(call.id, now);
    else this.#speaking.delete(call.id);
    const change: SpeakingChange = {
      user_id: userId,
      speaking,
      ...(call.lobby ? { lobby_id: call.id } : { channel_id: call.id }),
    };
    for (const listener of [...(this.#listeners.get(call.id) ?? [])]) {
      try {
        listener(change);
      } catch {
        // One broken watcher (a page that went away) must not keep the others uninformed.
      }
    }
  }

  /** The user left the call: if they were speaking, they stopped. */
  left(call: SpeakingCall, userId: string): void {
    this.update(call, userId, false);
  }
}
