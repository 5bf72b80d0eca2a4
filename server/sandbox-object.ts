/**
 * The Durable Object of one sandbox: its platform (`sandbox-platform.ts`) over the object's
 * SQLite storage, the gateway (`/gateway`) and the voice gateway (`/voice`) as hibernatable
 * WebSockets (`ctx.acceptWebSocket`), and the webhook outbox's retries on the object's alarm.
 *
 * Memory is a cache (ARCHITECTURE rule 2): an object that is evicted loses its connections'
 * state. No timer is kept per connection, so that an idle sandbox whose clients are connected
 * but silent is evicted (hibernates): heartbeat deadlines wait in `AlarmDeadlines` and in each
 * socket's attachment, behind the object's one alarm, shared with the webhook retries. When
 * the object starts again and a request or a client's payload comes, the open sockets it no
 * longer knows are told at once: a gateway socket to reconnect and resume (op 7, then 4000),
 * which replays from the durable log what it missed; a voice socket is closed with 4015 (the
 * voice server crashed), and its client identifies again with its voice token, which is
 * durable, as after the shared worker restarted in the browser. A socket whose deadline passed
 * while the object was away is closed 4009 when the alarm comes, as a known one would be.
 */
import { DurableObject } from 'cloudflare:workers';
import { type CompressingTransport, compressedTransport, type MessageSink } from '../src/gateway/compressed-transport';
import type { ClientData } from '../src/gateway/connection';
import { CLOSE_REASONS, GATEWAY_CLOSE_CODES, GATEWAY_OPCODES, opPayload } from '../src/gateway/protocol';
import { REAL_TIMERS } from '../src/gateway/timers';
import { VOICE_CLOSE_CODES } from '../src/gateway/voice-protocol';
import { VOICE_SERVER_ENDPOINT } from '../src/platform/voice/join';
import { durableObjectSqlConnection } from '../src/store/sqlite/durable-object-sql';
import { SERVER_CDN_PATH } from '../src/wire/paths';
import { SERVER_TRANSPORT_COMPRESSIONS, serverGatewayZlib } from './gateway-zlib';
import { DEFAULT_SANDBOX, SANDBOX_HEADER, sandboxOf, socketServiceOf } from './sandbox-routing';
import { gatewayUrlOf, openSandboxPlatform, type SandboxPlatform, voiceGatewayUrlOf } from './sandbox-platform';
import { answerTestHook, isTestHookPath } from './test-hooks';
import type { ServerEnv } from './env';
import { discardUnreadBody } from './request-body';
import { acceptInstanceSocket } from './instance-socket-accept';
import { AlarmDeadlines } from './alarm-deadlines';

/** Where the object keeps its sandbox's name, for an alarm that wakes it with no request. */
const NAME_KEY = 'sandbox_name';

/** Where the object keeps when its webhook outbox's next retry is due, so that an alarm tells it from a deadline's. */
const WEBHOOK_DUE_KEY = 'webhook_due';

/** What a socket keeps through an eviction: its heartbeat deadline, in epoch milliseconds. */
interface SocketAttachment {
  deadline?: number;
}

/** workerd's WebSocket: a pair's server end is accepted in this isolate, or by the hibernation API. */
type WorkerdWebSocket = WebSocket & {
  accept(): void;
  /** Keeps a value with a hibernatable socket through its object's eviction (at most 2,048 bytes). */
  serializeAttachment(value: unknown): void;
  /** The value kept by `serializeAttachment`, or null. */
  deserializeAttachment(): unknown;
};

/** The tag a voice gateway socket is accepted with, so that an evicted object still tells it from a gateway socket. */
const VOICE_TAG = 'voice';

/** The tag of a gateway socket with transport compression, whose zlib stream an evicted object no longer has. */
const ZLIB_STREAM_TAG = 'zlib-stream';

/** One open connection of either gateway, as a socket's events drive it. */
interface SocketConnection {
  readonly closed: boolean;
  receive(data: ClientData): void;
  clientClosed(code: number): void;
}

/** Whether a path inside a sandbox is its CDN (pages that joined the server send the CDN's requests there). */
function isCdnPath(path: string): boolean {
  return path.startsWith(`${SERVER_CDN_PATH}/`);
}

/** `request` with its path inside the CDN (`/cdn/avatars/1/a.png` → `/avatars/1/a.png`), as the CDN app routes it. */
function cdnRequest(request: Request, url: URL, path: string): Request {
  return new Request(new URL(path.slice(SERVER_CDN_PATH.length) + url.search, url.origin), request);
}

/** One sandbox. */
export class PlatformSandbox extends DurableObject<ServerEnv> {
  #platform: Promise<SandboxPlatform> | null = null;
  readonly #connections = new Map<WebSocket, SocketConnection>();
  /** The gateway sockets' transports, which hold their zlib streams. */
  readonly #transports = new Map<WebSocket, CompressingTransport>();
  /** Each connection's socket, whose attachment keeps the connection's deadline. */
  readonly #sockets = new Map<object, WebSocket>();
  readonly #deadlines = new AlarmDeadlines((connection, at) => this.#deadlineArmed(connection, at));
  /** Whether the open sockets of an earlier start of this object were told to connect again. */
  #strangersTold = false;
  /** The alarm's changes, one at a time. */
  #alarmChanges: Promise<void> = Promise.resolve();
  /** The webhook retry time kept in storage (undefined: not read yet). */
  #storedWebhookDue: number | null | undefined = undefined;

  async fetch(request: Request): Promise<Response> {
    this.#tellStrangers();
    const response = await this.#answer(request);
    // Whoever answered before reading the body (a 401, 404 or 413, the CDN, a refused upgrade):
    // the rest is read and dropped, so the client's connection stays usable.
    await discardUnreadBody(request);
    return response;
  }

  async #answer(request: Request): Promise<Response> {
    const name = request.headers.get(SANDBOX_HEADER) ?? DEFAULT_SANDBOX;
    const platform = await this.#open(name);
    const url = new URL(request.url);
    const target = sandboxOf(url);
    const service = socketServiceOf(request, target?.path);
    if (service === 'instances') return acceptInstanceSocket(platform);
    if (service) return this.#acceptSocket(platform, url, service);
    if (target && isCdnPath(target.path)) return platform.app.cdn(cdnRequest(request, url, target.path));
    if (target && this.env.PLATFORMPP_TEST_HOOKS === 'true' && isTestHookPath(target.path)) {
      return answerTestHook(platform, request, target.path);
    }
    const response = await platform.app.fetch(request, { waitUntil: (promise) => this.ctx.waitUntil(promise) });
    this.ctx.waitUntil(this.#scheduleRetries(platform));
    return response;
  }

  async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // A socket of an earlier start (this one among them) was told to connect again.
    this.#tellStrangers();
    this.#connections.get(socket)?.receive(message);
  }

  /** The open sockets this start of the object does not know: an earlier start accepted them. */
  #strangers(): WebSocket[] {
    return this.ctx.getWebSockets().filter((s) => s.readyState === WebSocket.OPEN && !this.#connections.has(s));
  }

  /** Tells every socket an earlier start accepted to connect again, once: the sandbox is in use. */
  #tellStrangers(): void {
    if (this.#strangersTold) return;
    this.#strangersTold = true;
    const now = Date.now();
    for (const socket of this.#strangers()) this.#dismiss(socket, now);
  }

  /**
   * Closes a socket of an earlier start: a voice socket with 4015; a gateway socket with 4009
   * when its heartbeat deadline passed, else it is asked to reconnect and resume. (A voice
   * connection keeps its heartbeat timer, so its socket keeps no deadline.)
   */
  #dismiss(socket: WebSocket, now: number): void {
    const tags = this.ctx.getTags(socket);
    const deadline = deadlineOf(socket);
    if (tags.includes(VOICE_TAG)) {
      socket.close(VOICE_CLOSE_CODES.VOICE_SERVER_CRASHED, 'The voice server restarted: connect again.');
    } else if (deadline !== undefined && deadline <= now) {
      socket.close(GATEWAY_CLOSE_CODES.SESSION_TIMED_OUT, CLOSE_REASONS[GATEWAY_CLOSE_CODES.SESSION_TIMED_OUT]);
    } else {
      // A compressed socket's zlib stream went with the object: a RECONNECT outside it would not
      // inflate, so the close alone (4000, which a client answers by resuming) says it.
      if (!tags.includes(ZLIB_STREAM_TAG)) socket.send(JSON.stringify(opPayload(GATEWAY_OPCODES.RECONNECT)));
      socket.close(GATEWAY_CLOSE_CODES.UNKNOWN_ERROR, 'Reconnect and resume.');
    }
  }

  /** A connection's deadline moved: its socket keeps it through an eviction, and the alarm comes no later. */
  #deadlineArmed(connection: object, at: number): void {
    (this.#sockets.get(connection) as WorkerdWebSocket | undefined)?.serializeAttachment({
      deadline: at,
    } satisfies SocketAttachment);
    this.#wakeBy(at).catch((error) => console.error(`platformpp server: ${error}`));
  }

  /** Brings the alarm forward to `at` if it is set later (or not at all). */
  #wakeBy(at: number): Promise<void> {
    return this.#changeAlarm(async () => {
      const current = await this.ctx.storage.getAlarm();
      if (current === null || current > at) await this.ctx.storage.setAlarm(at);
    });
  }

  #changeAlarm(change: () => Promise<void>): Promise<void> {
    const run = this.#alarmChanges.then(change);
    this.#alarmChanges = run.catch(() => undefined);
    return run;
  }

  async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    this.#connections.get(socket)?.clientClosed(code);
    this.#forget(socket);
    // Completes the closing handshake, which the client waits for (1005 and 1006 cannot be sent).
    try {
      socket.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }

  async webSocketError(socket: WebSocket): Promise<void> {
    this.#connections.get(socket)?.clientClosed(1006);
    this.#forget(socket);
  }

  /** Lets go of a closed socket's connection and its zlib stream. */
  #forget(socket: WebSocket): void {
    const connection = this.#connections.get(socket);
    if (connection) this.#sockets.delete(connection);
    this.#connections.delete(socket);
    this.#transports.get(socket)?.dispose();
    this.#transports.delete(socket);
  }

  /**
   * The heartbeat deadlines passed (a socket of an earlier start is closed 4009 too), and the
   * webhook outbox's retries, now due by the platform clock. An alarm that finds the object
   * evicted opens the sandbox only for a retry; then it is set again for what is left.
   */
  async alarm(): Promise<void> {
    const now = Date.now();
    this.#deadlines.expire(now);
    for (const socket of this.#strangers()) {
      const deadline = deadlineOf(socket);
      if (deadline !== undefined && deadline <= now) this.#dismiss(socket, now);
    }
    const webhookDue = await this.#webhookDue();
    if (this.#platform || (webhookDue !== null && webhookDue <= now)) {
      const platform = await this.#open((await this.ctx.storage.get<string>(NAME_KEY)) ?? DEFAULT_SANDBOX);
      const outbox = platform.app.webhooks;
      if (outbox.due) await outbox.run();
      await this.#scheduleRetries(platform);
    }
    const next = [this.#deadlines.next, await this.#webhookDue(), ...this.#strangers().map(deadlineOf)].filter(
      (at): at is number => typeof at === 'number',
    );
    if (next.length) {
      const at = Math.max(Math.min(...next), Date.now());
      await this.#changeAlarm(() => this.ctx.storage.setAlarm(at));
    }
  }

  /** When the next webhook retry is due, as kept in storage (null: none). */
  async #webhookDue(): Promise<number | null> {
    // Read once per start of the object: null (none stored) is kept too, not read again.
    if (this.#storedWebhookDue === undefined) {
      const stored = (await this.ctx.storage.get<number>(WEBHOOK_DUE_KEY)) ?? null;
      // What this start stored meanwhile is newer than what was read.
      if (this.#storedWebhookDue === undefined) this.#storedWebhookDue = stored;
    }
    return this.#storedWebhookDue;
  }

  #open(name: string): Promise<SandboxPlatform> {
    if (!this.#platform) {
      const opening = this.ctx.blockConcurrencyWhile(async () => {
        await this.ctx.storage.put(NAME_KEY, name);
        return openSandboxPlatform(name, durableObjectSqlConnection(this.ctx.storage), {
          control: {
            secret: this.env.SANDBOX_CONTROL_SECRET || undefined,
            required: this.env.SANDBOX_CONTROL_REQUIRES_SECRET === 'true',
          },
          rateLimits: this.env.PLATFORMPP_RATE_LIMITS === 'true',
          heartbeatIntervalMs: Number(this.env.PLATFORMPP_HEARTBEAT_INTERVAL_MS) || undefined,
          timers: { ...REAL_TIMERS, deadlines: this.#deadlines },
        });
      });
      this.#platform = opening;
      opening.catch(() => (this.#platform = null));
    }
    return this.#platform;
  }

  /**
   * Accepts a WebSocket to the gateway or the voice gateway. A connection's sessions are told
   * this sandbox's URLs as the client reached them: READY's `resume_gateway_url`, and
   * VOICE_SERVER_UPDATE's `endpoint`.
   */
  #acceptSocket(platform: SandboxPlatform, url: URL, service: 'gateway' | 'voice'): Response {
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    const publicOrigin = url.origin + (sandboxOf(url)?.basePath ?? '');
    // What the connection says while it opens (Hello, or a close for a bad version or encoding)
    // waits until the socket is accepted, which depends on whether it stays open.
    let opening: (() => void)[] | null = [];
    const whenOpen = (act: () => void) => (opening ? opening.push(act) : act());
    const sink: MessageSink = {
      sendText: (text) => whenOpen(() => server.send(text)),
      // Bytes from zlib are never in shared memory; the DOM typing of `send` cannot know it.
      sendBinary: (bytes) => whenOpen(() => server.send(bytes as Uint8Array<ArrayBuffer>)),
      close: (code, reason) => {
        this.#forget(server);
        whenOpen(() => server.close(code, reason));
      },
    };
    const compress = url.searchParams.get('compress');
    const zlibStream = service === 'gateway' && compress === 'zlib-stream';
    const transport = compressedTransport(sink, serverGatewayZlib, zlibStream ? 'zlib-stream' : null);
    const connection: SocketConnection =
      service === 'voice'
        ? platform.voiceGateway.connect(`${VOICE_SERVER_ENDPOINT}${url.search}`, transport)
        : platform.gateway.connect(`/gateway${url.search}`, transport, {
            resumeGatewayUrl: gatewayUrlOf(publicOrigin),
            voiceEndpoint: voiceGatewayUrlOf(publicOrigin),
            compressions: SERVER_TRANSPORT_COMPRESSIONS,
          });
    if (connection.closed) {
      // Refused at once: a plain accepted socket, closed. Through the hibernation API the client's
      // TCP connection stayed open for its 30-second close timeout after the close handshake.
      (server as WorkerdWebSocket).accept();
    } else {
      const tags = service === 'voice' ? [VOICE_TAG] : zlibStream ? [ZLIB_STREAM_TAG] : [];
      this.ctx.acceptWebSocket(server, tags);
      this.#connections.set(server, connection);
      this.#transports.set(server, transport);
      this.#sockets.set(connection, server);
      (server as WorkerdWebSocket).serializeAttachment({
        deadline: this.#deadlines.at(connection),
      } satisfies SocketAttachment);
    }
    for (const act of opening) act();
    opening = null;
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * Sets the alarm to the earliest webhook retry, once the outbox settled. Retries follow the
   * platform clock: while it is frozen they fall due only when it is moved, by a request, which
   * runs them as in the browser.
   */
  async #scheduleRetries(platform: SandboxPlatform): Promise<void> {
    const outbox = platform.app.webhooks;
    await outbox.settled();
    const due = platform.ctx.clock.frozen ? null : outbox.nextDueAt;
    if (due !== (await this.#webhookDue())) {
      this.#storedWebhookDue = due;
      if (due === null) await this.ctx.storage.delete(WEBHOOK_DUE_KEY);
      else await this.ctx.storage.put(WEBHOOK_DUE_KEY, due);
    }
    if (due !== null) await this.#wakeBy(Math.max(due, Date.now()));
  }
}

/** The heartbeat deadline a socket keeps in its attachment. */
function deadlineOf(socket: WebSocket): number | undefined {
  return (((socket as WorkerdWebSocket).deserializeAttachment() ?? {}) as SocketAttachment).deadline;
}
