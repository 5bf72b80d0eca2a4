/**
 * The voice gateway: the signaling of voice calls (guild voice channels and lobby calls),
 * served by the shared worker next to the gateway and reached the same way, through a socket
 * with the WebSocket interface (`VoiceGatewaySocket('/voice?v=8')`). There is no media server:
 * the pages of a call send their audio to each other over WebRTC (Select Protocol `webrtc`),
 * and the gateway relays their peer signals and their end-to-end encryption messages
 * (PEER_SIGNAL, E2EE_MESSAGE) without reading them: it never holds a media key or a sample.
 * Its rules: the version, the voice token (stored hashed by the join's write), the encryption
 * modes and the E2EE (DAVE) requirement by the platform clock, who is in the call (Clients
 * Connect, Client Disconnect, Speaking between the sessions of one channel), heartbeats, and
 * resume (buffered from v8). Who speaks is also told to the platform's own watchers
 * (`speakers`: activities' SPEAKING_*).
 *
 * Voice sessions live in the worker's memory, as live connections do: the durable part (voice
 * states and tokens) is in IndexedDB, so after the worker restarted a client identifies again
 * with its token (Resume answers 4006) and the call goes on.
 */
import type { Announcement } from '../platform/core/announcements';
import type { EventRecord } from '../store/schema';
import type { PlatformContext } from '../platform/core/context';
import { VOICE_RESUME_WINDOW_MS, VOICE_SECRET_KEY_BYTES } from '../platform/core/limits';
import { negotiateDaveVersion, offeredEncryptionModes } from '../platform/voice/rules';
import { verifyVoiceToken } from '../platform/voice/tokens';
import { redactSecrets } from '../platform/core/secrets';
import { latestEventSeq, readEventsAfter } from '../store/event-log';
import type { GatewayTransport } from './connection';
import { REAL_TIMERS, type GatewayTimers } from './timers';
import { VoiceConnection, type VoiceConnectionHost } from './voice-connection';
import { voiceEndingsFor } from './voice-log';
import { SpeakingWatch, type SpeakingCall } from './voice-speaking';
import type { VoiceIdentifyData, VoiceResumeData } from './voice-protocol';
import { VOICE_CLOSE_CODES as CLOSE, VOICE_OPCODES as OPS } from './voice-protocol';
import { voiceSessionKey, VoiceSession } from './voice-session';

type EventsAnnouncement = Extract<Announcement, { type: 'events' }>;

/** Events read from the log per step. */
const LOG_PAGE = 500;
/** Ready's address: there is no UDP server behind it (a browser has no UDP), so it names none. */
const NO_MEDIA_SERVER = { ip: '127.0.0.1', port: 0 } as const;

/** The voice gateway of one shared worker (or one unit test). */
export class VoiceGateway implements VoiceConnectionHost {
  /** Who speaks in each call, for the platform's own watchers (activities' SPEAKING_START / STOP). */
  readonly speakers = new SpeakingWatch();
  readonly #sessions = new Map<string, VoiceSession>();
  /** The sessions of each call, by channel id (a lobby id for a lobby call). */
  readonly #calls = new Map<string, Set<VoiceSession>>();
  #nextSsrc = 1;
  #logPosition: Promise<number>;
  #lock: Promise<unknown> = Promise.resolve();

  constructor(
    readonly ctx: PlatformContext,
    readonly timers: GatewayTimers = REAL_TIMERS,
    private readonly log: (line: string) => void = console.error,
  ) {
    // Only what happens from now on can end a session: every session starts after this.
    this.#logPosition = latestEventSeq(ctx.db);
  }

  /**
   * Opens a connection: Hello at once, or the close code for a bad version.
   * @example const connection = voice.connect('/voice?v=8', { send, close });
   */
  connect(url: string, transport: GatewayTransport): VoiceConnection {
    return new VoiceConnection(this, transport, url);
  }

  /** Reacts to announcements: the clock, the log (endings), a reset (every call ends). */
  async announce(message: Announcement): Promise<void> {
    if (message.type === 'clock') this.ctx.clock.set({ frozenAt: message.frozenAt });
    if (message.type === 'events') await this.#serialized(() => this.#readLog(message));
    if (message.type === 'reset') {
      await this.#serialized(async () => {
        for (const session of [...this.#sessions.values()])
          this.#end(session, CLOSE.CALL_TERMINATED, 'The sandbox was reset.');
        this.#logPosition = latestEventSeq(this.ctx.db);
        await this.#logPosition;
      });
    }
  }

  /** The users in a call (a guild voice channel's id, or a lobby's id for its call). */
  participants(channelId: string): string[] {
    return [...new Set([...(this.#calls.get(channelId) ?? [])].map((s) => s.userId))];
  }

  /** Logs an unexpected error (secrets redacted). */
  reportError(error: unknown): void {
    const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
    this.log(redactSecrets(`platformpp voice gateway: internal error: ${detail}`));
  }

  /** Identify: the token checked, the DAVE rule applied, Ready, then who else is in the call. */
  async identify(connection: VoiceConnection, d: VoiceIdentifyData): Promise<void> {
    const verified = await verifyVoiceToken(this.ctx, d);
    if (!verified.ok) return connection.closeWith(verified.code, verified.reason);
    const now = this.ctx.clock.now();
    const dave = negotiateDaveVersion(d.max_dave_protocol_version, verified.identity.kind, now);
    if ('reason' in dave) return connection.closeWith(CLOSE.E2EE_REQUIRED, dave.reason);
    if (connection.closed) return;
    const session = new VoiceSession(verified.identity, this.#nextSsrc++, dave.version, connection.buffersMessages);
    const previous = this.#sessions.get(session.key);
    if (previous)
      this.#end(previous, CLOSE.SESSION_NO_LONGER_VALID, 'The session identified again on another connection.');
    const call = this.#calls.get(session.channelId) ?? new Set<VoiceSession>();
    this.#calls.set(session.channelId, call);
    const others = [...call];
    this.#sessions.set(session.key, session);
    call.add(session);
    session.sink = connection;
    connection.attach(session);
    connection.sendPayload({
      op: OPS.READY,
      d: { ssrc: session.ssrc, ...NO_MEDIA_SERVER, modes: offeredEncryptionModes(now) },
    });
    // The newcomer learns who is there; everyone there learns of the newcomer.
    const present = [...new Set(others.map((s) => s.userId))];
    if (present.length > 0) session.deliver(OPS.CLIENTS_CONNECT, { user_ids: present });
    for (const other of others) other.deliver(OPS.CLIENTS_CONNECT, { user_ids: [session.userId] });
  }

  /**
   * Resume: the session's token and voice state checked again, Resumed, then (from v8) every
   * numbered message after `seq_ack` sent again; 4006 when the session is gone or the buffer
   * no longer holds what the client missed.
   */
  async resume(connection: VoiceConnection, d: VoiceResumeData): Promise<void> {
    const key = voiceSessionKey(d.server_id, d.session_id);
    const session = this.#sessions.get(key);
    if (!session) return connection.closeWith(CLOSE.SESSION_NO_LONGER_VALID, 'Unknown voice session: identify anew.');
    const verified = await verifyVoiceToken(this.ctx, { ...d, user_id: session.userId });
    if (!verified.ok || verified.identity.token_hash !== session.identity.token_hash) {
      // A wrong token says nothing about the session; a changed voice state ends it.
      if (verified.ok || verified.code === CLOSE.SESSION_NO_LONGER_VALID) this.#end(session);
      return connection.closeWith(
        verified.ok ? CLOSE.AUTHENTICATION_FAILED : verified.code,
        verified.ok ? undefined : verified.reason,
      );
    }
    if (this.#sessions.get(key) !== session || connection.closed)
      return connection.closeWith(CLOSE.SESSION_NO_LONGER_VALID);
    const missed = session.missedAfter(d.seq_ack);
    if (missed === null) {
      this.#end(session);
      return connection.closeWith(
        CLOSE.SESSION_NO_LONGER_VALID,
        'The messages missed are no longer buffered: identify anew.',
      );
    }
    const previous = session.sink;
    session.sink = null;
    previous?.closeWith(CLOSE.SESSION_NO_LONGER_VALID, 'The session was resumed on another connection.');
    this.timers.clearTimeout(session.expiry);
    session.buffered = connection.buffersMessages;
    session.sink = connection;
    connection.attach(session);
    connection.sendPayload({ op: OPS.RESUMED, d: null });
    for (const payload of missed) connection.sendPayload(payload);
  }

  /**
   * Select Protocol with an accepted mode: Session Description, with a fresh transport key for
   * `udp`; for `webrtc` the peers' connections negotiate their own (DTLS-SRTP), and Opus is named.
   */
  selectProtocol(session: VoiceSession, protocol: 'udp' | 'webrtc', mode: string): void {
    session.mode = mode;
    const transport =
      protocol === 'udp'
        ? { secret_key: Array.from(crypto.getRandomValues(new Uint8Array(VOICE_SECRET_KEY_BYTES))) }
        : { audio_codec: 'opus' };
    session.sink?.sendPayload({
      op: OPS.SESSION_DESCRIPTION,
      d: { mode, ...transport, dave_protocol_version: session.daveVersion },
    });
  }

  /**
   * PEER_SIGNAL or E2EE_MESSAGE: `d` goes, with the sender's user id, to `target` (a user in
   * the same call) or to everyone else in the call when `target` is null. A target that is not
   * (or no longer) in the call gets nothing: it may have just left.
   */
  relay(session: VoiceSession, op: number, target: string | null, d: Record<string, unknown>): void {
    const payload = { user_id: session.userId, ...d };
    for (const other of this.#calls.get(session.channelId) ?? []) {
      if (other !== session && (target === null || other.userId === target)) other.deliver(op, payload);
    }
  }

  /** Speaking: everyone else in the call hears of it, with the speaker's user id and ssrc. */
  speaking(session: VoiceSession, flags: number): void {
    this.speakers.update(callOf(session), session.userId, flags !== 0);
    for (const other of this.#calls.get(session.channelId) ?? []) {
      if (other !== session)
        other.deliver(OPS.SPEAKING, { user_id: session.userId, ssrc: session.ssrc, speaking: flags });
    }
  }

  /** A connection closed: its session ends (`end`), or waits for a Resume for a while. */
  detach(connection: VoiceConnection, session: VoiceSession | null, options: { end: boolean }): void {
    if (!session || session.sink !== connection) return;
    session.sink = null;
    if (options.end) return this.#end(session);
    session.expiry = this.timers.setTimeout(() => this.#end(session), VOICE_RESUME_WINDOW_MS);
  }

  /** Ends a session (closing its connection with `code`, if any): the others hear Client Disconnect. */
  #end(session: VoiceSession, code?: number, reason?: string): void {
    if (this.#sessions.get(session.key) !== session) return;
    this.timers.clearTimeout(session.expiry);
    this.#sessions.delete(session.key);
    const call = this.#calls.get(session.channelId);
    call?.delete(session);
    if (call?.size === 0) this.#calls.delete(session.channelId);
    const sink = session.sink;
    session.sink = null;
    if (sink && code !== undefined) sink.closeWith(code, reason);
    // A user still in the call on another session has not left it.
    if (call && [...call].some((s) => s.userId === session.userId)) return;
    this.speakers.left(callOf(session), session.userId);
    for (const other of call ?? []) other.deliver(OPS.CLIENT_DISCONNECT, { user_id: session.userId });
  }

  /**
   * Ends the sessions that events committed since the last read end. An announcement that
   * carries its events and continues right where the last read ended is all the log holds up to
   * its `seq`: its events are taken as they are, without reading them back.
   */
  async #readLog(heard?: EventsAnnouncement): Promise<void> {
    if (heard?.events && heard.after !== undefined && heard.after === (await this.#logPosition)) {
      this.#logPosition = Promise.resolve(heard.seq);
      return this.#endFor(heard.events);
    }
    for (;;) {
      const after = await this.#logPosition;
      const events = await readEventsAfter(this.ctx.db, after, LOG_PAGE);
      if (events.length === 0) return;
      this.#logPosition = Promise.resolve(events[events.length - 1].seq!);
      this.#endFor(events);
      if (events.length < LOG_PAGE) return;
    }
  }

  /** Ends the sessions that `events` end. */
  #endFor(events: readonly EventRecord[]): void {
    for (const ending of events.flatMap(voiceEndingsFor)) {
      for (const session of [...this.#sessions.values()])
        if (ending.ends(session)) this.#end(session, ending.code, ending.reason);
    }
  }

  #serialized<T>(body: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(body, body);
    this.#lock = run.catch(() => undefined);
    return run;
  }
}

/** The call a session is in, as speaking watchers name it. */
function callOf(session: VoiceSession): SpeakingCall {
  return { id: session.channelId, lobby: session.identity.guild_id === null };
}
