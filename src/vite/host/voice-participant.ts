/**
 * A participant the cockpit makes speak, as a real voice client of the call where the
 * activities run: its own gateway session (the user's Bearer token), a Voice State Update
 * (opcode 4) into the channel, then the voice gateway named by VOICE_SERVER_UPDATE: Hello,
 * Identify with the voice token, Ready, Select Protocol, Session Description. Speaking is
 * opcode 5 with the microphone flag (1) or none (0), so everyone who learns who speaks from the
 * voice server learns it of this participant too: the frames' SPEAKING_START / SPEAKING_STOP
 * (the speaking watches of the hub or of the platform server), the other clients in the call
 * (op 5 with the speaker's user id and ssrc). Leaving is a Voice State Update with no channel,
 * and the voice socket closed: VOICE_STATE_UPDATE in the channel, and the voice state gone.
 *
 * Signaling only, as the game SDK's calls where there is no WebRTC: it sends no audio, so it
 * has nothing to encrypt and says it encrypts end to end (DAVE), as the voice gateway requires.
 * The token is never logged.
 */
import { GATEWAY_CLIENT_URL, GatewayClient } from '../../gateway/client';
import { GATEWAY_OPCODES } from '../../gateway/protocol';
import { SPEAKING_FLAGS, VOICE_OPCODES as OP, type VoicePayload } from '../../gateway/voice-protocol';
import { INTENTS } from '../../platform/core/intents';
import {
  SDK_CALL_JOIN_TIMEOUT_MS,
  VOICE_DAVE_PROTOCOL_VERSION,
  VOICE_GATEWAY_VERSION_MAX,
} from '../../platform/core/limits';
import { SUPPORTED_ENCRYPTION_MODES } from '../../platform/voice/rules';
import { REAL_TIMERS } from '../../sdk/socket';
import { VoiceSocketLink } from '../../sdk/voice-socket-link';
import { GatewaySocket } from '../../sockets/gateway-socket';
import { VoiceGatewaySocket } from '../../sockets/voice-gateway-socket';

/** The call: a guild voice channel, or a private call (`guild_id: null`: a DM channel's or a lobby's). */
export interface VoicePlace {
  guild_id: string | null;
  channel_id: string;
}

/** Who joins, where, and through which hub (ignored on a platform server). */
export interface VoiceParticipantOptions {
  userId: string;
  /** The user's access token (`guilds` scope for a guild voice channel). */
  token: string;
  place: VoicePlace;
  hubName?: string;
}

/** How long a dropped voice socket waits before it identifies again. */
const RECONNECT_MS = 1_000;

/**
 * One user in one call.
 * @example
 * const voice = new VoiceParticipant({ userId, token, place: { guild_id, channel_id } });
 * await voice.join();
 * voice.speak(true);
 * await voice.leave();
 */
export class VoiceParticipant {
  readonly #gateway: GatewayClient;
  readonly #voice: VoiceSocketLink;
  #sessionId: string | null = null;
  #server: { token: string; endpoint: string } | null = null;
  #ssrc = 0;
  #connected = false;
  #speaking = false;
  #leaving = false;
  #opened = false;
  #joined: { resolve: () => void; reject: (error: Error) => void } | null = null;

  constructor(private readonly options: VoiceParticipantOptions) {
    const hub = { hubName: options.hubName };
    this.#gateway = new GatewayClient({
      openSocket: (url) => new GatewaySocket(url, undefined, hub),
      timers: REAL_TIMERS,
      url: GATEWAY_CLIENT_URL,
      identify: () => ({
        token: `Bearer ${options.token}`,
        intents: INTENTS.GUILDS | INTENTS.GUILD_VOICE_STATES,
        properties: { os: 'browser', browser: 'platformpp', device: 'platformpp cockpit' },
      }),
      listener: {
        state: (change) => {
          // A new session (not a resumed one) is not in the call yet.
          if (change.state === 'ready' && !change.resumed && !this.#leaving) this.#sendVoiceState(true);
          if (change.state === 'closed') this.#fail(`the gateway refused the session (${change.code ?? 0})`);
        },
        dispatch: (dispatch) => this.#dispatch(dispatch.t, dispatch.d as Record<string, any>),
      },
    });
    this.#voice = new VoiceSocketLink(REAL_TIMERS, {
      payload: (payload) => this.#receive(payload),
      closed: (code) => this.#lost(code),
      warning: () => undefined,
    });
  }

  /** The user. */
  get userId(): string {
    return this.options.userId;
  }

  /** Whether the participant speaks now. */
  get speaking(): boolean {
    return this.#speaking;
  }

  /** Joins the call; resolves once the voice gateway described the session. */
  join(): Promise<void> {
    const joined = new Promise<void>((resolve, reject) => (this.#joined = { resolve, reject }));
    const timer = setTimeout(
      () => this.#fail('the voice channel was not joined in time (may the user connect there?)'),
      SDK_CALL_JOIN_TIMEOUT_MS,
    );
    this.#gateway.start();
    return joined.finally(() => clearTimeout(timer));
  }

  /** Starts or stops speaking: Speaking (op 5) with the microphone flag, or none. */
  speak(speaking: boolean): void {
    this.#speaking = speaking;
    if (this.#connected) this.#sendSpeaking();
  }

  /** Leaves the call (a Voice State Update with no channel) and ends both sessions. */
  async leave(): Promise<void> {
    this.#leaving = true;
    this.#fail('the participant left');
    this.#sendVoiceState(false);
    this.#connected = false;
    this.#voice.close();
    await this.#gateway.stop('The participant left the call.');
  }

  #sendVoiceState(inCall: boolean): void {
    const { guild_id, channel_id } = this.options.place;
    this.#gateway.send(GATEWAY_OPCODES.VOICE_STATE_UPDATE, {
      guild_id,
      channel_id: inCall ? channel_id : null,
      self_mute: false,
      self_deaf: false,
    });
  }

  #sendSpeaking(): void {
    this.#voice.send(OP.SPEAKING, {
      speaking: this.#speaking ? SPEAKING_FLAGS.MICROPHONE : 0,
      delay: 0,
      ssrc: this.#ssrc,
    });
  }

  #dispatch(type: string, d: Record<string, any>): void {
    const { userId, place } = this.options;
    if (type === 'VOICE_STATE_UPDATE' && d.user_id === userId && d.channel_id === place.channel_id) {
      this.#sessionId = String(d.session_id);
    } else if (type === 'VOICE_SERVER_UPDATE' && (d.guild_id ?? null) === place.guild_id) {
      // One call at a time per session: the server of this session's call.
      this.#server = { token: String(d.token), endpoint: String(d.endpoint) };
    } else return;
    if (this.#sessionId && this.#server && !this.#opened) this.#open();
  }

  #open(): void {
    if (this.#leaving || !this.#server) return;
    this.#opened = true;
    const socket = new VoiceGatewaySocket(`${this.#server.endpoint}?v=${VOICE_GATEWAY_VERSION_MAX}`, undefined, {
      hubName: this.options.hubName,
    });
    this.#voice.attach(socket);
  }

  #receive(payload: VoicePayload<any>): void {
    const d = payload.d;
    switch (payload.op) {
      case OP.HELLO:
        this.#voice.startHeartbeat(Number(d?.heartbeat_interval) || 13_750);
        return this.#voice.send(OP.IDENTIFY, {
          server_id: this.options.place.guild_id ?? this.options.place.channel_id,
          user_id: this.options.userId,
          session_id: this.#sessionId,
          token: this.#server!.token,
          max_dave_protocol_version: VOICE_DAVE_PROTOCOL_VERSION,
        });
      case OP.READY: {
        this.#ssrc = Number(d?.ssrc) || 0;
        const offered: string[] = Array.isArray(d?.modes) ? d.modes : [];
        const mode = SUPPORTED_ENCRYPTION_MODES.find((m) => offered.includes(m)) ?? SUPPORTED_ENCRYPTION_MODES[0];
        return this.#voice.send(OP.SELECT_PROTOCOL, {
          protocol: 'udp',
          data: { address: d?.ip ?? '127.0.0.1', port: d?.port ?? 0, mode },
        });
      }
      case OP.SESSION_DESCRIPTION:
        this.#connected = true;
        this.#voice.resumed();
        // A participant who spoke before a reconnect still speaks.
        if (this.#speaking) this.#sendSpeaking();
        this.#joined?.resolve();
        this.#joined = null;
        return;
    }
  }

  /** The voice socket closed: before the call was up the join failed; after, it identifies again with its token. */
  #lost(code: number): void {
    const wasConnected = this.#connected;
    this.#connected = false;
    if (this.#leaving) return;
    if (!wasConnected) return this.#fail(`the voice gateway closed the connection (${code})`);
    setTimeout(() => this.#open(), RECONNECT_MS);
  }

  #fail(reason: string): void {
    this.#joined?.reject(new Error(reason));
    this.#joined = null;
  }
}
