/**
 * The client's lobby calls: one `Call` per lobby, started with a Voice State Update on the
 * gateway and signaled on the voice gateway (see `CallSignaling`). A lobby's call is addressed
 * as the platform addresses private calls: `guild_id: null` and the lobby's id as the channel
 * (and as the voice `server_id`). The user is in one lobby call at a time per game: starting
 * another moves them there, and the voice gateway disconnects the first (it then reads
 * Disconnected). A call stays in the map, whatever its status, until `endCall`.
 */
import { Call, CallError, CallStatus } from './call';
import { CallSignaling, type CallContext } from './call-signaling';
import { SdkError } from './errors';
import type { VoiceDispatch } from './client-events';

const SNOWFLAKE = /^\d{1,20}$/;

/** What the calls need of the client, and whether it is Ready to send a Voice State Update. */
export interface CallsContext extends CallContext {
  ready(): boolean;
}

/** The client's calls by lobby id. */
export class ClientCalls {
  readonly #calls = new Map<string, { signaling: CallSignaling; call: Call }>();

  constructor(private readonly ctx: CallsContext) {}

  /**
   * The lobby's call: the one there is (whatever its status: a Disconnected call is recovered
   * only by `end` and a new `start`), or a new one, Joining.
   */
  start(lobbyId: string): Call {
    if (typeof lobbyId !== 'string' || !SNOWFLAKE.test(lobbyId))
      throw SdkError.validation('startCall() takes the lobby id (a snowflake string).');
    const existing = this.#calls.get(lobbyId);
    if (existing) return existing.call;
    if (!this.ctx.ready())
      throw SdkError.notReady('startCall() needs a connected client: call connect() first and wait for Ready.');
    const signaling = new CallSignaling(lobbyId, this.ctx);
    const call = new Call(signaling);
    this.#calls.set(lobbyId, { signaling, call });
    signaling.start();
    return call;
  }

  /**
   * Ends the lobby's call (Disconnecting, then Disconnected) and forgets it. The user leaves on
   * the gateway too, unless another of their calls is the one they are in now.
   */
  end(lobbyId: string): void {
    const entry = this.#calls.get(lobbyId);
    if (!entry) return;
    this.#calls.delete(lobbyId);
    const elsewhere = [...this.#calls.values()].some((c) => c.signaling.status !== CallStatus.Disconnected);
    entry.signaling.end(!elsewhere);
  }

  /** The lobby's call, until it is ended. */
  get(lobbyId: string): Call | undefined {
    return this.#calls.get(lobbyId)?.call;
  }

  /** Every call not yet ended. */
  all(): Call[] {
    return [...this.#calls.values()].map((c) => c.call);
  }

  /** A voice dispatch of the gateway: the current user's lobby voice states and voice servers. */
  dispatch(dispatch: VoiceDispatch): void {
    // Lobby calls only: a guild's voice states and voice servers name their guild.
    if (dispatch.t === 'VOICE_SERVER_UPDATE') {
      const server = dispatch.d;
      if (server.guild_id !== null || server.channel_id === undefined) return;
      return this.#calls.get(server.channel_id)?.signaling.voiceServer(server);
    }
    const state = dispatch.d;
    if (state.guild_id !== null) return;
    if (state.user_id === this.ctx.userId()) this.#calls.get(state.lobby_id)?.signaling.voiceState(state);
  }

  /** The gateway connection ended: no call can stand without it. */
  connectionLost(): void {
    for (const { signaling } of this.#calls.values()) signaling.fail(CallError.SignalingConnectionFailed, 0);
  }
}
