/**
 * The signaling of one call, as a state machine (see `CallStatus`): Joining (the call checked
 * over HTTP, then a Voice State Update on the gateway, until both VOICE_STATE_UPDATE and
 * VOICE_SERVER_UPDATE arrived), Connecting (a voice gateway socket to the endpoint, `?v=8`),
 * SignalingConnected (Ready; Select Protocol sent), Connected (Session Description). A voice
 * socket that drops (1006, 4015) goes Reconnecting and Resumes with `seq_ack`, so the voice
 * gateway delivers again what was missed. Anything else ends in Disconnected, and the call stays
 * there: it is recovered by ending it and joining again (spec, "Other named states").
 *
 * A call is private (`guild_id: null`, the lobby or DM channel as channel and voice server) or
 * a guild voice channel's (the guild as voice server). From Ready on, its media (`CallMediaLink`) sends and
 * receives the audio: Select Protocol asks for `webrtc`, and Clients Connect, Client Disconnect,
 * PEER_SIGNAL and E2EE_MESSAGE feed it. Identify's `max_dave_protocol_version` says whether
 * this client encrypts frames end to end.
 */
import {
  SDK_CALL_JOIN_TIMEOUT_MS,
  SDK_CALL_RECONNECT_ATTEMPTS,
  VOICE_DAVE_PROTOCOL_VERSION,
  VOICE_GATEWAY_VERSION_MAX,
} from '../platform/core/limits';
import { SUPPORTED_ENCRYPTION_MODES } from '../platform/voice/rules';
import { VOICE_CLOSE_CODES, VOICE_OPCODES as OP, type VoicePayload } from '../gateway/voice-protocol';
import {
  CallError,
  CallStatus,
  callErrorToString,
  callStatusToString,
  type CallStatusChangedCallback,
} from './call-status';
import type { CallMediaLink } from './call-media-link';
import { CallRoster } from './call-roster';
import type { SdkLogger } from './logger';
import type { LinkTimers, SocketFactory, WebSocketLike } from './socket';
import { VoiceSocketLink } from './voice-socket-link';

/** Voice socket closes after which the session can be resumed: a dropped socket, a crashed server. */
const RESUMABLE_CLOSE_CODES = new Set<number>([1001, 1006, VOICE_CLOSE_CODES.VOICE_SERVER_CRASHED]);

/** Which call: a private one (`guildId` null: a lobby's or a DM channel's) or a guild voice channel. */
export interface CallTarget {
  guildId: string | null;
  channelId: string;
}

/** A Voice State Update's `d`. */
export interface CallVoiceState {
  guild_id: string | null;
  channel_id: string | null;
  self_mute: boolean;
  self_deaf: boolean;
}

/** What a call needs of its client. */
export interface CallContext {
  voiceSocketFactory: SocketFactory;
  timers: LinkTimers;
  log: SdkLogger;
  reconnectDelayMs(attempt: number): number;
  /** The current user's id (from READY). */
  userId(): string | undefined;
  /** Sends a Voice State Update on the gateway; false while the client is not Ready. */
  sendVoiceState(d: CallVoiceState): boolean;
  /** Resolves when the user may join the call; rejects with the refusal (an `SdkError` with its HTTP status). */
  checkCall(target: CallTarget): Promise<unknown>;
}

/** One call's signaling; `Call` is its public face. */
export class CallSignaling {
  status: CallStatus = CallStatus.Joining;
  readonly roster: CallRoster;
  self = { self_mute: false, self_deaf: false };
  statusCallback: CallStatusChangedCallback | null = null;
  #sessionId: string | null = null;
  #server: { token: string; endpoint: string } | null = null;
  readonly #voice: VoiceSocketLink;
  #joinTimer: unknown = null;
  #retry: unknown = null;
  #attempt = 0;

  constructor(
    readonly target: CallTarget,
    private readonly ctx: CallContext,
    readonly media: CallMediaLink,
  ) {
    this.roster = new CallRoster(ctx.log);
    this.#voice = new VoiceSocketLink(ctx.timers, {
      payload: (payload) => this.#receive(payload),
      closed: (code) => this.#lost(code),
      warning: (message) => ctx.log.warning(message),
    });
  }

  /** The voice server: the guild, or the lobby for a lobby call. */
  get serverId(): string {
    return this.target.guildId ?? this.target.channelId;
  }

  /** Starts joining: the call checked, then the Voice State Update; Disconnected (JoinTimeout) if not Connected in time. */
  start(): void {
    this.#joinTimer = this.ctx.timers.setTimeout(() => this.fail(CallError.JoinTimeout, 0), SDK_CALL_JOIN_TIMEOUT_MS);
    this.ctx.checkCall(this.target).then(
      () => {
        if (this.status !== CallStatus.Joining) return;
        if (!this.ctx.sendVoiceState(this.#voiceState(this.target.channelId)))
          this.fail(CallError.SignalingConnectionFailed, 0);
      },
      (error: { status?: number }) => this.fail(CallError.Forbidden, error.status ?? 0),
    );
  }

  /** A VOICE_STATE_UPDATE of this call's server about the current user. */
  voiceState(d: { channel_id: string | null; session_id: string; self_mute: boolean; self_deaf: boolean }): void {
    if (d.channel_id === this.target.channelId) {
      this.#sessionId = d.session_id;
      this.self = { self_mute: d.self_mute, self_deaf: d.self_deaf };
      this.media.setSelf(d.self_mute, d.self_deaf);
      return this.#maybeConnect();
    }
    // While joining, an earlier leave may still arrive; once in, leaving means the call is over.
    if (this.#sessionId !== null) this.fail(CallError.SignalingUnexpectedClose, VOICE_CLOSE_CODES.DISCONNECTED);
  }

  /** Another participant's voice state: their self mute and deafen. */
  participantVoiceState(d: {
    user_id: string;
    channel_id: string | null;
    self_mute: boolean;
    self_deaf: boolean;
  }): void {
    const state = { selfMute: d.self_mute, selfDeaf: d.self_deaf };
    this.roster.voiceState(d.user_id, d.channel_id === this.target.channelId, state);
  }

  /** The VOICE_SERVER_UPDATE of this call. */
  voiceServer(d: { token: string; endpoint: string }): void {
    if (this.status !== CallStatus.Joining) return;
    this.#server = { token: d.token, endpoint: d.endpoint };
    this.#maybeConnect();
  }

  /** Changes the self mute or deafen: the media at once, and a Voice State Update while the call is up. */
  setSelf(change: Partial<{ self_mute: boolean; self_deaf: boolean }>): void {
    this.self = { ...this.self, ...change };
    this.media.setSelf(this.self.self_mute, this.self.self_deaf);
    if (this.status !== CallStatus.Disconnected && this.status !== CallStatus.Disconnecting) {
      this.ctx.sendVoiceState(this.#voiceState(this.target.channelId));
    }
  }

  /** Ends the call: Disconnecting, the voice socket closed (the session ends), Disconnected. `leave` also leaves on the gateway. */
  end(leave: boolean): void {
    const active = this.status !== CallStatus.Disconnected;
    if (active) this.#set(CallStatus.Disconnecting);
    if (leave) this.ctx.sendVoiceState(this.#voiceState(null));
    this.#stop();
    if (active) this.#set(CallStatus.Disconnected);
  }

  /** Fails the call: Disconnected, and it stays so until it is ended and joined again. */
  fail(error: CallError, detail: number): void {
    if (this.status === CallStatus.Disconnected || this.status === CallStatus.Disconnecting) return;
    this.#stop();
    this.#set(CallStatus.Disconnected, error, detail);
  }

  #voiceState(channelId: string | null): CallVoiceState {
    return { guild_id: this.target.guildId, channel_id: channelId, ...this.self };
  }

  #stop(): void {
    for (const timer of [this.#joinTimer, this.#retry]) this.ctx.timers.clearTimeout(timer);
    this.#voice.close();
    this.media.stop();
    for (const userId of [...this.roster.participants]) this.#participant(userId, false);
  }

  #maybeConnect(): void {
    if (this.status !== CallStatus.Joining || !this.#sessionId || !this.#server) return;
    this.#set(CallStatus.Connecting);
    void this.#open();
  }

  async #open(): Promise<void> {
    let socket: WebSocketLike;
    try {
      socket = await this.ctx.voiceSocketFactory(`${this.#server!.endpoint}?v=${VOICE_GATEWAY_VERSION_MAX}`);
    } catch (error) {
      this.ctx.log.error(
        `Call: could not open a voice socket: ${error instanceof Error ? error.message : String(error)}`,
      );
      return this.#lost(0);
    }
    if (this.status !== CallStatus.Connecting && this.status !== CallStatus.Reconnecting) return socket.close(1000);
    this.#voice.attach(socket);
  }

  #receive(payload: VoicePayload<any>): void {
    const d = payload.d;
    switch (payload.op) {
      case OP.HELLO:
        this.#voice.startHeartbeat(Number(d?.heartbeat_interval) || 13_750);
        return this.#authenticate();
      case OP.READY:
        return this.#ready(d);
      case OP.SESSION_DESCRIPTION:
      case OP.RESUMED:
        this.ctx.timers.clearTimeout(this.#joinTimer);
        this.#attempt = 0;
        this.#voice.resumed();
        return this.#set(CallStatus.Connected);
      case OP.CLIENTS_CONNECT:
        for (const userId of d?.user_ids ?? []) this.#participant(String(userId), true);
        return;
      case OP.CLIENT_DISCONNECT:
        return this.#participant(String(d?.user_id), false);
      case OP.SPEAKING:
        return this.roster.speakingChanged(String(d?.user_id), Number(d?.speaking) !== 0);
      case OP.PEER_SIGNAL:
      case OP.E2EE_MESSAGE:
        if (typeof d?.user_id === 'string') this.media.with((media) => media.receive(payload.op, d));
        return;
    }
  }

  /** Ready: the user is in; the media starts (WebRTC) or the call stays signaling only (udp). */
  #ready(d: any): void {
    this.#set(CallStatus.SignalingConnected);
    const me = this.ctx.userId();
    if (me) this.#participant(me, true);
    const offered: string[] = Array.isArray(d?.modes) ? d.modes : [];
    const mode = SUPPORTED_ENCRYPTION_MODES.find((m) => offered.includes(m)) ?? SUPPORTED_ENCRYPTION_MODES[1];
    if (me && this.media.carriesAudio) {
      this.media.start(
        {
          selfId: me,
          callId: this.target.channelId,
          ssrc: Number(d?.ssrc) || 0,
          send: (op, payload) => this.#voice.send(op, payload),
          speaking: (userId, speaking) => this.roster.speakingChanged(userId, speaking),
          log: { info: (m) => this.ctx.log.info(m), warning: (m) => this.ctx.log.warning(m) },
        },
        (error) =>
          this.ctx.log.error(`Call: the media did not start: ${error instanceof Error ? error.message : error}`),
      );
      return this.#voice.send(OP.SELECT_PROTOCOL, { protocol: 'webrtc', data: { mode } });
    }
    return this.#voice.send(OP.SELECT_PROTOCOL, {
      protocol: 'udp',
      data: { address: d?.ip ?? '127.0.0.1', port: d?.port ?? 0, mode },
    });
  }

  /** Identify, or Resume a session the voice gateway has seen Ready. */
  #authenticate(): void {
    const common = { server_id: this.serverId, session_id: this.#sessionId!, token: this.#server!.token };
    if (this.#voice.resuming) return this.#voice.send(OP.RESUME, { ...common, seq_ack: this.#voice.seqAck });
    this.#voice.send(OP.IDENTIFY, {
      ...common,
      user_id: this.ctx.userId(),
      max_dave_protocol_version: this.media.e2ee ? VOICE_DAVE_PROTOCOL_VERSION : 0,
    });
  }

  /** The voice socket is gone: resume on a new one when the session can be, else Disconnected. */
  #lost(code: number): void {
    if (this.status === CallStatus.Disconnected || this.status === CallStatus.Disconnecting) return;
    const identified =
      this.status === CallStatus.SignalingConnected ||
      this.status === CallStatus.Connected ||
      this.status === CallStatus.Reconnecting;
    if (!identified) return this.fail(CallError.SignalingConnectionFailed, code);
    if (!(RESUMABLE_CLOSE_CODES.has(code) || code === 0) || this.#attempt >= SDK_CALL_RECONNECT_ATTEMPTS)
      return this.fail(CallError.SignalingUnexpectedClose, code);
    this.#voice.resuming = true;
    this.#set(CallStatus.Reconnecting, CallError.SignalingUnexpectedClose, code);
    this.#retry = this.ctx.timers.setTimeout(() => void this.#open(), this.ctx.reconnectDelayMs(this.#attempt++));
  }

  /** A participant joined or left: the media links to them (or lets them go), then the game hears of it. */
  #participant(userId: string, added: boolean): void {
    if (added === this.roster.participants.has(userId)) return;
    if (userId !== this.ctx.userId())
      this.media.with((media) => (added ? media.participantJoined(userId) : media.participantLeft(userId)));
    this.roster.participant(userId, added);
  }

  #set(status: CallStatus, error: CallError = CallError.None, detail = 0): void {
    if (this.status === status && error === CallError.None) return;
    this.status = status;
    this.ctx.log.info(
      `Call ${this.target.channelId}: ${callStatusToString(status)}${error !== CallError.None ? ` (${callErrorToString(error)}, detail ${detail})` : ''}`,
    );
    this.roster.tell(() => this.statusCallback?.(status, error, detail));
  }
}
