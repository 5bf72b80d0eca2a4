/**
 * The gateway: every connection and session of every page, dispatching the durable event log
 * in order. The service worker announces committed events (`{type: 'events'}`, usually with
 * the events themselves, kept in a {@link LogTail}); the gateway then takes the events after
 * each live session's position (from the tail when it reaches back that far, else from the log)
 * and sends each session what it may see. Every numbered dispatch's resume point is stored before it is sent, so a Resume replays
 * from the log what a client missed, also after the shared worker restarted. A batch of events
 * stores the resume points of every session it numbered for as one record
 * (`gateway_resume_batches`), then sends: one put per batch, not one per session.
 *
 * Everything that numbers dispatches runs one at a time (`#serialized`), so sequence numbers,
 * resume points and the order of events agree.
 */
import type * as v from 'valibot';
import type { Announcement } from '../platform/core/announcements';
import type { PlatformContext } from '../platform/core/context';
import {
  GATEWAY_HEARTBEAT_INTERVAL_MS,
  PRESENCE_RESTART_GRACE_MS,
  VOICE_STATE_SESSION_GRACE_MS,
} from '../platform/core/limits';
import { redactSecrets } from '../platform/core/secrets';
import { updateVoiceState, voiceServerUpdate } from '../platform/voice/join';
import { endVoiceOfDisconnectedSessions, endVoiceOfSessions } from '../platform/voice/session-end';
import { readEventsAfter } from '../store/event-log';
import { write } from '../store/write';
import { requestChannelInfo } from './channel-info';
import {
  GatewayConnection,
  type GatewayConnectionHost,
  type GatewayConnectionOptions,
  type GatewayTransport,
} from './connection';
import { dispatchesFor } from './dispatcher';
import { GuildReader } from './guild-reader';
import { LogTail } from './log-tail';
import { authenticateGatewayToken, identifySession } from './identify';
import { requestGuildMembers } from './member-requests';
import type {
  IdentifySchema,
  RequestChannelInfoSchema,
  RequestGuildMembersSchema,
  ResumeSchema,
  VoiceStateUpdateSchema,
} from './payload-schemas';
import {
  GATEWAY_CLOSE_CODES,
  GATEWAY_OPCODES,
  NON_RESUMABLE_CLOSE_CODES,
  opPayload,
  type Dispatch,
  type GatewayPayload,
} from './protocol';
import { findResumePoint } from './resume-marks';
import { applyGatewayFault } from './gateway-faults';
import { ResumeWriter } from './resume-writer';
import { sessionFromRecord, type GatewaySession } from './session';
import { credentialExists, credentialHash, questionsCredential } from './session-credentials';
import { SessionPresences, type GatewayLiveness, type PageLiveness, type PresenceUpdate } from './session-presence';
import { deadlinesOf, REAL_TIMERS, type Deadlines, type GatewayTimers } from './timers';

export type { GatewayTimers } from './timers';

/** Events read from the log per step. */
const LOG_PAGE = 500;

/** A dispatch with its resume point (see `GatewayResumeMark`). */
interface Numbered {
  dispatch: Dispatch;
  after: number;
  skip: number;
  /** The channels hidden from a session that obfuscates, where a Resume from here continues. */
  hidden?: string[];
}

/** The channels hidden from a session that obfuscates, as they are now; undefined for other sessions. */
function hiddenChannels(session: GatewaySession): string[] | undefined {
  return session.record.obfuscation ? [...session.hidden] : undefined;
}

/** The gateway of one shared worker (or one unit test). */
export class Gateway implements GatewayConnectionHost {
  readonly #sessions = new Map<string, GatewaySession>();
  readonly #connections = new Set<GatewayConnection>();
  #lock: Promise<unknown> = Promise.resolve();
  readonly #presences: SessionPresences;
  /** The events writers handed over with their announcements. */
  readonly #tail = new LogTail(LOG_PAGE);
  readonly #resumes: ResumeWriter;
  /**
   * Hello's `heartbeat_interval` for the connections opened from now on: the platform's 41.25 s,
   * or a server's `--heartbeat-interval`, so that a test meets a zombie connection in seconds.
   */
  heartbeatIntervalMs = GATEWAY_HEARTBEAT_INTERVAL_MS;
  /** The connections' heartbeat deadlines and the sweep after this start, as the host keeps them. */
  readonly deadlines: Deadlines;

  /**
   * @param presence `incarnation` names this start of the gateway (default: a random id);
   *   `isLive` tells whether another start still runs (default: none does); `pageLive` whether
   *   a page still lives (default: unknown, so its sessions wait for the grace period).
   */
  constructor(
    readonly ctx: PlatformContext,
    readonly timers: GatewayTimers = REAL_TIMERS,
    private readonly log: (line: string) => void = console.error,
    presence: { incarnation?: string; isLive?: GatewayLiveness; pageLive?: PageLiveness } = {},
  ) {
    const report = (error: unknown) => this.reportError(error);
    this.#presences = new SessionPresences(
      ctx,
      presence.incarnation ?? crypto.randomUUID(),
      () => void this.pump().catch(report),
      report,
    );
    this.#resumes = new ResumeWriter(ctx.db, this.#presences.incarnation);
    // Sessions an earlier start left connected: their pages resume them here meanwhile, or they
    // are gone, and so are the calls they were in.
    const sweep = async () => {
      await this.#presences.sweep(presence.isLive ?? (async () => false));
      await this.#endVoice(() => endVoiceOfDisconnectedSessions(ctx));
    };
    this.deadlines = deadlinesOf(timers);
    this.deadlines.arm(this.#presences, PRESENCE_RESTART_GRACE_MS, () => void sweep().catch(report));
    // Sessions whose page is gone as well (every one, after a browser restart) will not come back.
    if (presence.pageLive)
      void this.#presences.sweep(presence.isLive ?? (async () => false), presence.pageLive).catch(report);
  }

  /**
   * Opens a connection: Hello is sent at once (or the close code for a bad URL). Where the
   * gateway is a real WebSocket, `resumeGatewayUrl` is its URL, which READY names; `owner` is the
   * page it comes from, when known (see `PresenceSession.owner`).
   * @example const connection = gateway.connect('/gateway?v=10&encoding=json', { send, close });
   */
  connect(url: string, transport: GatewayTransport, options: GatewayConnectionOptions = {}): GatewayConnection {
    const connection = new GatewayConnection(this, transport, url, options);
    if (!connection.closed) this.#connections.add(connection);
    return connection;
  }

  /** Reacts to the service worker's announcements; resolves once their dispatches are sent. */
  async announce(message: Announcement): Promise<void> {
    if (message.type === 'clock') this.ctx.clock.set({ frozenAt: message.frozenAt });
    if (message.type === 'events') {
      this.#tail.heard(message);
      await this.#serialized(() => this.#advance(this.#listening(), 0, true));
    }
    if (message.type === 'fault') {
      const { fault } = message;
      await this.#serialized(async () => {
        applyGatewayFault(fault, this.#connections, (session, ended) => this.#release(session, ended));
      });
    }
    if (message.type === 'reset') {
      await this.#serialized(async () => {
        // Every store is empty: no session can be resumed, every client must identify anew.
        for (const connection of this.#connections) connection.invalidateSession();
        this.#sessions.clear();
        this.#tail.clear();
        this.#presences.reset();
      });
    }
  }

  /**
   * Dispatches everything committed to the log that live sessions have not been sent yet (the
   * gateway's own writes, which it does not hear announced, included).
   */
  pump(): Promise<void> {
    return this.#serialized(() => this.#advance(this.#listening()));
  }

  /** Asks every connected client to reconnect and resume (opcode 7). */
  reconnectAll(): void {
    for (const connection of [...this.#connections]) {
      if (!connection.session) continue;
      connection.sendPayload(opPayload(GATEWAY_OPCODES.RECONNECT));
      connection.closeWith(GATEWAY_CLOSE_CODES.UNKNOWN_ERROR, 'Reconnect and resume.');
    }
  }

  /** True when closing with `code` ends the session. */
  invalidatesSession(code: number): boolean {
    return NON_RESUMABLE_CLOSE_CODES.has(code);
  }

  /** Logs an unexpected error (secrets redacted). */
  reportError(error: unknown): void {
    const detail = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
    this.log(redactSecrets(`platformpp gateway: internal error: ${detail}`));
  }

  /** Identify on `connection`: READY and the guilds, or the close code. */
  async identify(
    connection: GatewayConnection,
    d: v.InferOutput<typeof IdentifySchema>,
    version: number,
  ): Promise<void> {
    const outcome = await identifySession(
      this.ctx,
      d,
      version,
      this.#presences.forOwner(connection.owner),
      connection.resumeGatewayUrl,
    );
    if (!outcome.ok) return connection.closeWith(outcome.code, outcome.reason);
    await this.#serialized(async () => {
      if (connection.closed) return this.#presences.disconnected(outcome.session.record);
      const { session } = outcome;
      this.#sessions.set(session.record.session_id, session);
      session.sink = connection;
      connection.attach(session);
      const at = session.record.log_seq;
      await this.#emit(
        session,
        outcome.dispatches.map((dispatch) => ({ dispatch, after: at, skip: 0 })),
      );
    });
    // Events committed while READY was read were announced before the session listened.
    this.pump().catch((error) => this.reportError(error));
  }

  /** Resume on `connection`: the missed events from the log, then RESUMED; or Invalid Session. */
  async resume(connection: GatewayConnection, d: v.InferOutput<typeof ResumeSchema>): Promise<void> {
    const principal = await authenticateGatewayToken(this.ctx, d.token);
    if (!principal) return connection.closeWith(GATEWAY_CLOSE_CODES.AUTHENTICATION_FAILED);
    await this.#serialized(async () => {
      const stored = this.#sessions.get(d.session_id) ?? (await this.#load(d.session_id));
      const seq = d.seq ?? 0;
      const invalid = () => connection.sendPayload(opPayload(GATEWAY_OPCODES.INVALID_SESSION, false));
      if (
        !stored ||
        stored.record.user_id !== principal.user.id ||
        stored.record.application_id !== principal.application.id
      )
        return invalid();
      // The token it was identified with was deleted (ban, revocation): another token does not revive it.
      if (!(await credentialExists(this.ctx.db, stored.record))) return this.#forget(d.session_id).then(invalid);
      const { mark, last } = await findResumePoint(this.ctx.db, d.session_id, seq);
      // A seq past the last numbered is none the session sent (its record knows the last as of
      // its own last write, should the points that say more be gone).
      if (seq > Math.max(last, stored.record.seq)) return connection.closeWith(GATEWAY_CLOSE_CODES.INVALID_SEQ);
      if (!mark) return invalid();
      const previous = stored.sink;
      if (previous instanceof GatewayConnection && previous !== connection) {
        stored.sink = null;
        previous.closeWith(GATEWAY_CLOSE_CODES.UNKNOWN_ERROR, 'The session was resumed on another connection.');
      }
      this.#sessions.set(d.session_id, stored);
      const r = stored.record;
      r.seq = seq;
      r.log_seq = mark.after;
      stored.marks.resumedAt(seq);
      // The replay reveals again what it revealed the first time.
      if (mark.hidden) stored.hidden = new Set(mark.hidden);
      // From now on the session stands on the token it was resumed with.
      r.token_hash = credentialHash(principal);
      stored.storedHidden = null;
      stored.sink = connection;
      connection.attach(stored);
      await this.#advance([stored], mark.skip);
      await this.#emit(stored, [{ dispatch: { t: 'RESUMED', d: {} }, after: r.log_seq, skip: 0 }]);
      // Not awaited: its events are dispatched under this lock once it is let go.
      this.#presences.connected(r, undefined, connection.owner).catch((error) => this.reportError(error));
    });
  }

  /** Request Guild Members for an identified session. */
  async requestGuildMembers(
    session: GatewaySession,
    d: v.InferOutput<typeof RequestGuildMembersSchema>,
  ): Promise<void> {
    await requestGuildMembers(this.ctx, session, d, (dispatches) => this.#answer(session, dispatches));
  }

  /** Request Channel Info for an identified session. */
  async requestChannelInfo(session: GatewaySession, d: v.InferOutput<typeof RequestChannelInfoSchema>): Promise<void> {
    await this.#answer(session, await requestChannelInfo(this.ctx, session, d));
  }

  /**
   * Voice State Update for an identified session: the write (VOICE_STATE_UPDATE to the log),
   * that event dispatched, then, for a join, VOICE_SERVER_UPDATE to this session alone (it
   * carries the voice token, so it never enters the log).
   */
  async updateVoiceState(
    session: GatewaySession,
    d: v.InferOutput<typeof VoiceStateUpdateSchema>,
    voiceEndpoint?: string,
  ): Promise<void> {
    const r = session.record;
    const outcome = await updateVoiceState(
      this.ctx,
      { user_id: r.user_id, application_id: r.application_id, session_id: r.session_id, guild_events: r.guild_events },
      d,
    );
    await this.pump();
    if ('joined' in outcome && outcome.joined)
      await this.#answer(session, [{ t: 'VOICE_SERVER_UPDATE', d: voiceServerUpdate(outcome.server, voiceEndpoint) }]);
  }

  /** Presence Update (op 3) for an identified session: its status, and a bot's activities. */
  async updatePresence(session: GatewaySession, d: PresenceUpdate): Promise<void> {
    await this.#presences.update(session.record, d);
  }

  /** A heartbeat acknowledged dispatch `seq`: older resume points are no longer needed. */
  acknowledge(session: GatewaySession, seq: number): void {
    if (seq <= session.record.seq) session.marks.acknowledge(seq);
  }

  /** A connection closed: its session stays for Resume, or ends. */
  detach(connection: GatewayConnection, options: { invalidate: boolean }): void {
    this.#connections.delete(connection);
    const session = connection.session;
    if (!session || session.sink !== connection) return;
    this.#release(session, options.invalidate);
  }

  /**
   * A session lost its connection: it waits in the store for a Resume, or, `ended`, is deleted and
   * its user leaves the calls it joined.
   */
  #release(session: GatewaySession, ended: boolean): void {
    session.sink = null;
    this.#presences.disconnected(session.record);
    const id = session.record.session_id;
    // A detached session lives on in the store only: Resume loads it from there.
    if (this.#sessions.get(id) === session) this.#sessions.delete(id);
    const report = (error: unknown) => this.reportError(error);
    if (ended) {
      // The session ended for good: its user leaves the calls it joined.
      void this.#serialized(() => this.#forget(id))
        .then(() => this.#endVoice(() => endVoiceOfSessions(this.ctx, new Set([id]))))
        .catch(report);
      return;
    }
    // Dropped: the calls wait for a Resume, then go with every session no gateway has connected.
    this.timers.setTimeout(() => {
      if (!this.#sessions.get(id)?.sink)
        void this.#endVoice(() => endVoiceOfDisconnectedSessions(this.ctx)).catch(report);
    }, VOICE_STATE_SESSION_GRACE_MS);
  }

  /** Runs a removal of voice states and dispatches the leaves it wrote. */
  async #endVoice(remove: () => Promise<number>): Promise<void> {
    if ((await remove()) > 0) await this.pump();
  }

  /** The sessions with a connection to send to. */
  #listening(): GatewaySession[] {
    return [...this.#sessions.values()].filter((s) => s.sink);
  }

  #serialized<T>(body: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(body, body);
    this.#lock = run.catch(() => undefined);
    return run;
  }

  /**
   * Deletes a session from the store: it can no longer be resumed (its resume points are read by
   * no Resume now, and go with their batches).
   */
  async #forget(sessionId: string): Promise<void> {
    await write(this.ctx, ['gateway_sessions'], (tx) => tx.store('gateway_sessions').delete(sessionId));
  }

  async #load(sessionId: string): Promise<GatewaySession | undefined> {
    const record = await this.ctx.db.get('gateway_sessions', sessionId);
    return record && sessionFromRecord(record, true);
  }

  /** Sends request answers after everything already dispatched to the session. */
  async #answer(session: GatewaySession, dispatches: Dispatch[]): Promise<void> {
    if (dispatches.length === 0) return;
    await this.#serialized(() =>
      this.#emit(
        session,
        dispatches.map((dispatch) => ({ dispatch, after: session.record.log_seq, skip: 0 })),
      ),
    );
  }

  /**
   * Works through the log after the sessions' positions. `skip` drops the first dispatches of
   * the first event (a Resume from the middle of an event's dispatches). `announced`: an
   * announcement's events are in the tail, which may serve the read when it reaches back far
   * enough; any other call reads the log, which also holds writes nobody announced.
   */
  async #advance(sessions: GatewaySession[], skip = 0, announced = false): Promise<void> {
    const resumeFrom = sessions.length === 1 ? sessions[0].record.log_seq + 1 : -1;
    for (;;) {
      const live = sessions.filter((s) => this.#sessions.get(s.record.session_id) === s);
      if (live.length === 0) return;
      const from = Math.min(...live.map((s) => s.record.log_seq));
      const events =
        (announced ? this.#tail.after(from, LOG_PAGE) : undefined) ??
        (await readEventsAfter(this.ctx.db, from, LOG_PAGE));
      if (events.length === 0) return;
      const reader = new GuildReader(this.ctx.db);
      const batch: { session: GatewaySession; payloads: GatewayPayload[]; revoked: boolean }[] = [];
      for (const session of live) {
        const numbered: Numbered[] = [];
        let revoked = false;
        for (const event of events) {
          const seq = event.seq!;
          if (seq <= session.record.log_seq || !event.channels.includes('gateway')) continue;
          // Nothing committed after its token was deleted reaches the session.
          if (questionsCredential(event, session.record) && !(await credentialExists(this.ctx.db, session.record))) {
            revoked = true;
            break;
          }
          // A Resume from inside an event derives its dispatches again from the channels hidden before it.
          const hiddenBefore = hiddenChannels(session);
          const dispatches = await dispatchesFor(session, event, reader);
          const hiddenAfter = hiddenChannels(session);
          const first = seq === resumeFrom ? skip : 0;
          for (let i = first; i < dispatches.length; i++) {
            const last = i === dispatches.length - 1;
            numbered.push({
              dispatch: dispatches[i],
              after: last ? seq : seq - 1,
              skip: last ? 0 : i + 1,
              hidden: last ? hiddenAfter : hiddenBefore,
            });
          }
        }
        session.record.log_seq = Math.max(session.record.log_seq, events[events.length - 1].seq!);
        batch.push({ session, payloads: this.#number(session, numbered), revoked });
      }
      await this.#persist(batch.filter((b) => b.payloads.length > 0).map((b) => b.session));
      for (const { session, payloads, revoked } of batch) {
        for (const payload of payloads) session.sink?.sendPayload(payload);
        // 4004 ends the session for good: detach() deletes it from the store.
        if (revoked) session.sink?.closeWith(GATEWAY_CLOSE_CODES.AUTHENTICATION_FAILED);
      }
      if (events.length < LOG_PAGE) return;
    }
  }

  /** Numbers dispatches, persists the session with their resume points, then sends them. */
  async #emit(session: GatewaySession, items: Numbered[]): Promise<void> {
    const payloads = this.#number(session, items);
    if (payloads.length === 0) return;
    await this.#persist([session]);
    for (const payload of payloads) session.sink?.sendPayload(payload);
  }

  /** Numbers dispatches in the session's record, with their resume points: nothing is stored or sent yet. */
  #number(session: GatewaySession, items: Numbered[]): GatewayPayload[] {
    const r = session.record;
    return items.map(({ dispatch, after, skip, hidden }) => {
      r.seq += 1;
      session.marks.add(r.seq, after, skip, hidden ?? hiddenChannels(session));
      return { op: GATEWAY_OPCODES.DISPATCH, d: dispatch.d, s: r.seq, t: dispatch.t };
    });
  }

  /** Stores what the live ones of `sessions` numbered and waits for the commit (see `ResumeWriter.persist`). */
  #persist(sessions: GatewaySession[]): Promise<void> {
    return this.#resumes.persist(sessions.filter((s) => this.#sessions.get(s.record.session_id) === s));
  }
}
