/**
 * The signaling of one lobby call, as a state machine (see `CallStatus`): Joining (the lobby
 * checked over HTTP, then a Voice State Update on the gateway, until both VOICE_STATE_UPDATE
 * and VOICE_SERVER_UPDATE arrived), Connecting (a voice gateway socket to the endpoint, `?v=8`),
 * SignalingConnected (Ready; Select Protocol sent), Connected (Session Description). A voice
 * socket that drops (1006, 4015) goes Reconnecting and Resumes with `seq_ack`, so the voice
 * gateway delivers again what was missed. Anything else ends in Disconnected, and the call stays
 * there: it is recovered by ending it and joining again (spec, "Other named states").
 */
import {
  SDK_CALL_JOIN_TIMEOUT_MS,
  SDK_CALL_RECONNECT_ATTEMPTS,
  VOICE_DAVE_PROTOCOL_VERSION,
  VOICE_GATEWAY_VERSION_MAX,
} from '../platform/core/limits';
import { SUPPORTED_ENCRYPTION_MODES } from '../platform/voice/rules';
import { VOICE_CLOSE_CODES, VOICE_OPCODES as OP, type VoicePayload } from '../gateway/voice-protocol';
import { CallError, CallStatus, callErrorToString, callStatusToString, type CallStatusChangedCallback } from './call';
import type { SdkLogger } from './logger';
import type { LinkTimers, SocketFactory, WebSocketLike } from './socket';

/** Voice socket closes after which the session can be resumed: a dropped socket, a crashed server. */
const RESUMABLE_CLOSE_CODES = new Set<number>([1001, 1006, VOICE_CLOSE_CODES.VOICE_SERVER_CRASHED]);
/** The code a call closes its own dropped socket with before resuming (1000 would end the session). */
const ABNORMAL_CLOSURE = 1006;

/** A Voice State Update's `d` for a lobby call. */
export interface LobbyVoiceState {
  guild_id: null;
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
  sendVoiceState(d: LobbyVoiceState): boolean;
  /** Resolves when the user may join the lobby's call; rejects with the refusal (an `SdkError` with its HTTP status). */
  checkLobby(lobbyId: string): Promise<unknown>;
}

/** One lobby call's signaling; `Call` is its public face. */
export class CallSignaling {
  status: CallStatus = CallStatus.Joining;
  readonly participants = new Set<string>();
  self = { self_mute: false, self_deaf: false };
  statusCallback: CallStatusChangedCallback | null = null;
  participantCallback: ((userId: string, added: boolean) => void) | null = null;
  speakingCallback: ((userId: string, isPlayingSound: boolean) => void) | null = null;
  #sessionId: string | null = null;
  #server: { token: string; endpoint: string } | null = null;
  #socket: WebSocketLike | null = null;
  #seqAck = -1;
  #resuming = false;
  #heartbeat: unknown = null;
  #acked = true;
  #nonce = 0;
  #joinTimer: unknown = null;
  #retry: unknown = null;
  #attempt = 0;

  constructor(
    readonly lobbyId: string,
    private readonly ctx: CallContext,
  ) {}

  /** Starts joining: the lobby checked, then the Voice State Update; Disconnected (JoinTimeout) if not Connected in time. */
  start(): void {
    this.#joinTimer = this.ctx.timers.setTimeout(() => this.fail(CallError.JoinTimeout, 0), SDK_CALL_JOIN_TIMEOUT_MS);
    this.ctx.checkLobby(this.lobbyId).then(
      () => {
        if (this.status !== CallStatus.Joining) return;
        if (!this.ctx.sendVoiceState({ guild_id: null, channel_id: this.lobbyId, ...this.self }))
          this.fail(CallError.SignalingConnectionFailed, 0);
      },
      (error: { status?: number }) => this.fail(CallError.Forbidden, error.status ?? 0),
    );
  }

  /** A VOICE_STATE_UPDATE of this lobby's call about the current user. */
  voiceState(d: { channel_id: string | null; session_id: string; self_mute: boolean; self_deaf: boolean }): void {
    if (d.channel_id === this.lobbyId) {
      this.#sessionId = d.session_id;
      this.self = { self_mute: d.self_mute, self_deaf: d.self_deaf };
      return this.#maybeConnect();
    }
    // While joining, an earlier leave may still arrive; once in, leaving means the call is over.
    if (this.#sessionId !== null) this.fail(CallError.SignalingUnexpectedClose, VOICE_CLOSE_CODES.DISCONNECTED);
  }

  /** The VOICE_SERVER_UPDATE of this lobby's call. */
  voiceServer(d: { token: string; endpoint: string }): void {
    if (this.status !== CallStatus.Joining) return;
    this.#server = { token: d.token, endpoint: d.endpoint };
    this.#maybeConnect();
  }

  /** Changes the self mute or deafen: a Voice State Update while the call is up. */
  setSelf(change: Partial<{ self_mute: boolean; self_deaf: boolean }>): void {
    this.self = { ...this.self, ...change };
    if (this.status !== CallStatus.Disconnected && this.status !== CallStatus.Disconnecting) {
      this.ctx.sendVoiceState({ guild_id: null, channel_id: this.lobbyId, ...this.self });
    }
  }

  /** Ends the call: Disconnecting, the voice socket closed (the session ends), Disconnected. `leave` also leaves on the gateway. */
  end(leave: boolean): void {
    const active = this.status !== CallStatus.Disconnected;
    if (active) this.#set(CallStatus.Disconnecting);
    if (leave) this.ctx.sendVoiceState({ guild_id: null, channel_id: null, ...this.self });
    this.#stop();
    if (active) this.#set(CallStatus.Disconnected);
  }

  /** Fails the call: Disconnected, and it stays so until it is ended and joined again. */
  fail(error: CallError, detail: number): void {
    if (this.status === CallStatus.Disconnected || this.status === CallStatus.Disconnecting) return;
    this.#stop();
    this.#set(CallStatus.Disconnected, error, detail);
  }

  #stop(): void {
    for (const timer of [this.#joinTimer, this.#retry, this.#heartbeat]) this.ctx.timers.clearTimeout(timer);
    const socket = this.#socket;
    this.#socket = null;
    socket?.close(1000, 'Call ended.');
    for (const userId of [...this.participants]) this.#participant(userId, false);
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
    this.#socket = socket;
    socket.addEventListener(
      'message',
      (event: { data: unknown }) => this.#socket === socket && this.#receive(event.data),
    );
    socket.addEventListener('close', (event: { code?: number }) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#lost(event.code ?? 0);
    });
  }

  #receive(data: unknown): void {
    let payload: VoicePayload<any>;
    try {
      payload = JSON.parse(String(data));
    } catch {
      return this.ctx.log.warning('Call: a voice payload was not JSON; ignored.');
    }
    if (typeof payload.seq === 'number') this.#seqAck = payload.seq;
    const d = payload.d;
    switch (payload.op) {
      case OP.HELLO:
        this.#startHeartbeat(Number(d?.heartbeat_interval) || 13_750);
        return this.#authenticate();
      case OP.READY: {
        this.#set(CallStatus.SignalingConnected);
        const me = this.ctx.userId();
        if (me) this.#participant(me, true);
        const offered: string[] = Array.isArray(d?.modes) ? d.modes : [];
        const mode = SUPPORTED_ENCRYPTION_MODES.find((m) => offered.includes(m)) ?? SUPPORTED_ENCRYPTION_MODES[1];
        return this.#send(OP.SELECT_PROTOCOL, {
          protocol: 'udp',
          data: { address: d?.ip ?? '127.0.0.1', port: d?.port ?? 0, mode },
        });
      }
      case OP.SESSION_DESCRIPTION:
      case OP.RESUMED:
        this.ctx.timers.clearTimeout(this.#joinTimer);
        this.#attempt = 0;
        this.#resuming = false;
        return this.#set(CallStatus.Connected);
      case OP.CLIENTS_CONNECT:
        for (const userId of d?.user_ids ?? []) this.#participant(String(userId), true);
        return;
      case OP.CLIENT_DISCONNECT:
        return this.#participant(String(d?.user_id), false);
      case OP.SPEAKING:
        return this.speakingCallback?.(String(d?.user_id), Number(d?.speaking) !== 0);
      case OP.HEARTBEAT_ACK:
        this.#acked = true;
    }
  }

  /** Identify, or Resume a session the voice gateway has seen Ready. */
  #authenticate(): void {
    const common = { server_id: this.lobbyId, session_id: this.#sessionId!, token: this.#server!.token };
    if (this.#resuming) return this.#send(OP.RESUME, { ...common, seq_ack: this.#seqAck });
    this.#send(OP.IDENTIFY, {
      ...common,
      user_id: this.ctx.userId(),
      max_dave_protocol_version: VOICE_DAVE_PROTOCOL_VERSION,
    });
  }

  /** The voice socket is gone: resume on a new one when the session can be, else Disconnected. */
  #lost(code: number): void {
    this.ctx.timers.clearTimeout(this.#heartbeat);
    if (this.status === CallStatus.Disconnected || this.status === CallStatus.Disconnecting) return;
    const identified =
      this.status === CallStatus.SignalingConnected ||
      this.status === CallStatus.Connected ||
      this.status === CallStatus.Reconnecting;
    if (!identified) return this.fail(CallError.SignalingConnectionFailed, code);
    if (!(RESUMABLE_CLOSE_CODES.has(code) || code === 0) || this.#attempt >= SDK_CALL_RECONNECT_ATTEMPTS)
      return this.fail(CallError.SignalingUnexpectedClose, code);
    this.#resuming = true;
    this.#set(CallStatus.Reconnecting, CallError.SignalingUnexpectedClose, code);
    this.#retry = this.ctx.timers.setTimeout(() => void this.#open(), this.ctx.reconnectDelayMs(this.#attempt++));
  }

  #startHeartbeat(interval: number): void {
    this.ctx.timers.clearTimeout(this.#heartbeat);
    this.#acked = true;
    const beat = (delay: number) => {
      this.#heartbeat = this.ctx.timers.setTimeout(() => {
        if (!this.#acked) {
          // No ACK for a whole interval: the socket is dead; drop it and resume on a new one.
          const socket = this.#socket;
          this.#socket = null;
          socket?.close(4000, 'Heartbeat not acknowledged.');
          return this.#lost(ABNORMAL_CLOSURE);
        }
        this.#acked = false;
        this.#send(OP.HEARTBEAT, { t: ++this.#nonce, seq_ack: this.#seqAck });
        beat(interval);
      }, delay);
    };
    // The first beat at a random point of the interval, so that clients do not beat in step.
    beat(Math.floor(interval * Math.random()));
  }

  #send(op: number, d: unknown): void {
    if (this.#socket && this.#socket.readyState === 1) this.#socket.send(JSON.stringify({ op, d }));
  }

  #participant(userId: string, added: boolean): void {
    if (added === this.participants.has(userId)) return;
    if (added) this.participants.add(userId);
    else this.participants.delete(userId);
    this.#tell(() => this.participantCallback?.(userId, added));
  }

  #set(status: CallStatus, error: CallError = CallError.None, detail = 0): void {
    if (this.status === status && error === CallError.None) return;
    this.status = status;
    this.ctx.log.info(
      `Call ${this.lobbyId}: ${callStatusToString(status)}${error !== CallError.None ? ` (${callErrorToString(error)}, detail ${detail})` : ''}`,
    );
    this.#tell(() => this.statusCallback?.(status, error, detail));
  }

  /** Runs a game callback; one that throws is logged, not fatal to the call. */
  #tell(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.ctx.log.error(`A call callback threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
