/**
 * The client's calls: one `Call` per channel, started with a Voice State Update on the gateway
 * and signaled on the voice gateway (see `CallSignaling`). A private call (a lobby's, or a DM
 * channel's) is addressed as the platform addresses private calls: `guild_id: null` and the
 * channel's id (also the voice `server_id`); a guild voice channel's by its guild and channel.
 * The user is in one private call at a time per game, and in one voice channel per guild:
 * starting another moves them there, and the voice gateway disconnects the first (it then reads
 * Disconnected). A call stays in the map, whatever its status, until `endCall`.
 */
import type { AudioPreferences } from '../media/call-media';
import { Call } from './call';
import { CallError, CallStatus } from './call-status';
import { CallMediaLink, type CallMediaFactory } from './call-media-link';
import { CallSignaling, type CallContext, type CallTarget } from './call-signaling';
import { SdkError } from './errors';
import type { VoiceDispatch } from './client-events';

const SNOWFLAKE = /^\d{1,20}$/;

/** What the calls need of the client, and whether it is Ready to send a Voice State Update. */
export interface CallsContext extends CallContext {
  ready(): boolean;
  /** Makes a call's media (null: signaling only). */
  media: CallMediaFactory | null;
  /** Whether calls encrypt frames end to end. */
  e2ee: boolean;
  iceServers?: RTCIceServer[];
  preferences(): AudioPreferences;
}

/** The client's calls by channel id. */
export class ClientCalls {
  readonly #calls = new Map<string, { signaling: CallSignaling; call: Call }>();

  constructor(private readonly ctx: CallsContext) {}

  /**
   * The call of `target`: the one there is (whatever its status: a Disconnected call is
   * recovered only by `end` and a new `start`), or a new one, Joining.
   */
  start(target: CallTarget, operation: string, self = { self_mute: false, self_deaf: false }): Call {
    for (const id of [target.channelId, target.guildId])
      if (id !== null && (typeof id !== 'string' || !SNOWFLAKE.test(id)))
        throw SdkError.validation(`${operation}() takes snowflake strings.`);
    const existing = this.#calls.get(target.channelId);
    if (existing) return existing.call;
    if (!this.ctx.ready())
      throw SdkError.notReady(`${operation}() needs a connected client: call connect() first and wait for Ready.`);
    const media = new CallMediaLink(this.ctx.media, this.ctx.e2ee, {
      preferences: () => this.ctx.preferences(),
      iceServers: this.ctx.iceServers,
    });
    const signaling = new CallSignaling(target, this.ctx, media);
    signaling.self = { ...self };
    media.setSelf(self.self_mute, self.self_deaf);
    const call = new Call(signaling);
    this.#calls.set(target.channelId, { signaling, call });
    signaling.start();
    return call;
  }

  /**
   * Ends the channel's call (Disconnecting, then Disconnected) and forgets it. The user leaves
   * on the gateway too, unless another of their calls on the same server is the one they are in now.
   */
  end(channelId: string): void {
    const entry = this.#calls.get(channelId);
    if (!entry) return;
    this.#calls.delete(channelId);
    const guildId = entry.signaling.target.guildId;
    const elsewhere = [...this.#calls.values()].some(
      (c) => c.signaling.target.guildId === guildId && c.signaling.status !== CallStatus.Disconnected,
    );
    entry.signaling.end(!elsewhere);
  }

  /** The channel's call, until it is ended. */
  get(channelId: string): Call | undefined {
    return this.#calls.get(channelId)?.call;
  }

  /** Every call not yet ended. */
  all(): Call[] {
    return [...this.#calls.values()].map((c) => c.call);
  }

  /** The user's audio settings changed: every call's media follows. */
  preferencesChanged(preferences: AudioPreferences): void {
    for (const { signaling } of this.#calls.values())
      signaling.media.applyPreferences(preferences, (error) =>
        this.ctx.log.warning(`Audio settings: ${error instanceof Error ? error.message : String(error)}`),
      );
  }

  /** A voice dispatch of the gateway: voice states (the user's own and the other participants') and voice servers. */
  dispatch(t: 'VOICE_STATE_UPDATE' | 'VOICE_SERVER_UPDATE', d: any): void {
    if (!d || typeof d !== 'object') return;
    const calls = [...this.#calls.values()].map((c) => c.signaling);
    if (t === 'VOICE_SERVER_UPDATE') {
      // A lobby call's names its channel; a guild's names the guild, where the user is in one channel.
      const call = calls.find((c) =>
        d.guild_id === null
          ? c.target.guildId === null && c.target.channelId === d.channel_id
          : c.target.guildId === d.guild_id && c.status === CallStatus.Joining,
      );
      return call?.voiceServer(d);
    }
    // A private call's voice state names its call (lobby_id, dm_channel_id), a leave's included.
    const channel = d.guild_id === null ? (d.lobby_id ?? d.dm_channel_id) : undefined;
    const mine = d.user_id === this.ctx.userId();
    for (const call of calls) {
      const same = d.guild_id === null ? call.target.channelId === channel : call.target.guildId === d.guild_id;
      if (!same) continue;
      if (mine) call.voiceState(d);
      else call.participantVoiceState(d);
    }
  }

  /** The gateway connection ended: no call can stand without it. */
  connectionLost(): void {
    for (const { signaling } of this.#calls.values()) signaling.fail(CallError.SignalingConnectionFailed, 0);
  }
}
