/**
 * `GatewaySocket`: the gateway as a page reaches it, with the `WebSocket` interface (CONTRACT
 * §4), so that code written for a WebSocket gateway runs unchanged:
 *
 *   const ws = new GatewaySocket('/gateway?v=10&encoding=json');
 *   ws.onmessage = (event) => handle(JSON.parse(event.data));
 *
 * Where the gateway is depends on the page (`./platform-server`):
 * - the local sandbox (the default): the hub (the shared worker every page shares), over the
 *   page's one gateway link to it (`./gateway-link`), which carries all of the page's sockets;
 *   a voice socket is a `MessagePort` of its own, opened through the hub's comlink API. Frames
 *   are text; the close handshake works as a WebSocket's. When the hub is gone (the browser stopped or lost the
 *   worker) the socket closes as a dropped WebSocket does (1006, not clean): the client connects
 *   again and resumes. In a dedicated worker, the page that created it opens the port
 *   (`serveGatewaySockets(worker)` there).
 * - a server the page joined (`<pp-platform server>`, CONTRACT §7), or an activity frame whose
 *   page did: a real `WebSocket` to the gateway URL the server names (`GET /api/v10/gateway`),
 *   with the socket's own query (`?v=10&encoding=json`). So does a URL on another host than the
 *   page's (`new GatewaySocket('ws://127.0.0.1:8787/gateway?v=10&encoding=json')`).
 * The voice gateway (`VoiceGatewaySocket`) is found the same way: the hub's, or the voice gateway
 * of the server the page joined (`<server>/voice`, next to its gateway).
 */
import { HUB_WORKER_NAME, type GatewaySocketEvent, type GatewaySocketRequest } from '../hub/protocol';
import type { JoinedServer } from '../wire/server-join';
import { openLinkedSocket } from './gateway-link';
import { gatewayOfThisDocument } from './platform-server';
import { openServerSocket, serverSocketUrl, type ServerSocket } from './server-socket';
import { inDedicatedWorker, openHubSocket, openHubSocketThroughPage, type HubSocketService } from './worker-sockets';

export { hub } from './hub-link';
export { serveGatewaySockets, type HubSocketService } from './worker-sockets';

/** How a socket gets its port: the hub by default; tests and embedders may bring their own. */
export interface GatewaySocketOptions {
  /** Opens a connection for `url` and returns the page's end of its port. */
  connect?: (url: string) => MessagePort;
  /** The shared worker's name (a different name is a different hub, e.g. one per test). */
  hubName?: string;
}

/**
 * Opens a connection on the hub named `name`; `onGone` runs if that hub goes away first. In a
 * dedicated worker the page opens it (see `worker-sockets.ts`). Returns this end of the port and
 * the function to call once the socket closed.
 */
function connectToHub(
  name: string,
  url: string,
  onGone: () => void,
  service: HubSocketService,
): { port: MessagePort; closed: () => void } {
  if (inDedicatedWorker()) return openHubSocketThroughPage(name, url, service, onGone);
  const { port1, port2 } = new MessageChannel();
  return { port: port1, closed: openHubSocket(name, url, service, port2, onGone) };
}

/** The close a dropped WebSocket reports: 1006, not clean. */
const DROPPED = { type: 'close', code: 1006, reason: '', wasClean: false } as const;

/** A `close` event: a real CloseEvent where the platform has one. */
function closeEvent(code: number, reason: string, wasClean: boolean): CloseEvent {
  if (typeof CloseEvent === 'function') return new CloseEvent('close', { code, reason, wasClean });
  return Object.assign(new Event('close'), { code, reason, wasClean }) as CloseEvent;
}

/** The origin a `message` event names for a socket of `url`: the gateway's, in its http(s) form. */
function originOf(url: string): string {
  return new URL(url).origin.replace(/^ws/, 'http');
}

type Handler<E extends Event> = ((this: WebSocket, event: E) => unknown) | null;

/** How a socket's frames and close reach its gateway: a hub port, or a real WebSocket. */
interface SocketTransport {
  post(request: GatewaySocketRequest): void;
  readonly bufferedAmount: number;
  /** Lets go of what the transport holds, once the socket closed. */
  dispose(): void;
}

/** A gateway connection with the `WebSocket` interface. */
export class GatewaySocket extends EventTarget implements WebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;

  readonly protocol = '';
  readonly extensions = '';
  binaryType: BinaryType = 'blob';
  #url: string;
  /** The `origin` of its `message` events, worked out once: parsing the URL for each message cost more than building the event. */
  #origin: string;
  #readyState: WebSocket['readyState'] = GatewaySocket.CONNECTING;
  /** Null while the socket learns where its gateway is; a close asked meanwhile waits in `#closing`. */
  #transport: SocketTransport | null = null;
  #closing: GatewaySocketRequest | null = null;
  #handlers = new Map<string, Handler<any>>();

  constructor(
    url: string | URL,
    _protocols?: string | string[],
    options: GatewaySocketOptions = {},
    service: HubSocketService = 'gateway',
  ) {
    super();
    // Relative to the document's base URL, as a WebSocket's (an about:srcdoc frame uses its parent's).
    const base =
      typeof document !== 'undefined'
        ? document.baseURI
        : typeof location !== 'undefined'
          ? location.href
          : 'http://localhost/';
    const absolute = new URL(url, base);
    if (absolute.protocol === 'http:' || absolute.protocol === 'https:')
      absolute.protocol = absolute.protocol === 'https:' ? 'wss:' : 'ws:';
    if (absolute.hash)
      throw new DOMException(`The URL contains a fragment identifier ('${absolute.hash}').`, 'SyntaxError');
    this.#url = absolute.href;
    this.#origin = originOf(this.#url);
    if (options.connect) {
      this.#transport = this.#overPort(options.connect(`${absolute.pathname}${absolute.search}`));
      return;
    }
    // A URL on another host is a WebSocket there, as `new WebSocket(url)` would be (a server's
    // VOICE_SERVER_UPDATE names its voice gateway so).
    if (absolute.host !== new URL(base).host) {
      this.#transport = this.#overServer(absolute.href);
      return;
    }
    const gateway = gatewayOfThisDocument();
    if (gateway instanceof Promise) {
      gateway.then(
        (where) => this.#use(where, absolute, options, service),
        // The page could not join its server: never the local sandbox instead, a dropped socket.
        () => this.#onEvent(DROPPED),
      );
    } else this.#use(gateway, absolute, options, service);
  }

  /** The absolute URL, as `WebSocket.url` gives it: on a server, its gateway's. */
  get url(): string {
    return this.#url;
  }

  /** Connects where the gateway is, unless the socket was closed meanwhile. */
  #use(where: 'local' | JoinedServer, absolute: URL, options: GatewaySocketOptions, service: HubSocketService): void {
    if (this.#closing) {
      const { code, reason } = this.#closing as GatewaySocketRequest & { type: 'close' };
      this.#onEvent({ type: 'close', code, reason, wasClean: true });
      return;
    }
    if (where !== 'local') {
      this.#transport = this.#overServer(serverSocketUrl(where, absolute, service));
      return;
    }
    const name = options.hubName ?? HUB_WORKER_NAME;
    const path = `${absolute.pathname}${absolute.search}`;
    const dropped = () => this.#onEvent(DROPPED);
    // A page's gateway sockets share its link to the hub; a dedicated worker's, and voice sockets, have a port each.
    if (service === 'gateway' && !inDedicatedWorker()) {
      const socket = openLinkedSocket(name, path, (event) => this.#onEvent(event), dropped);
      this.#transport = { post: socket.post, bufferedAmount: 0, dispose: socket.closed };
      return;
    }
    const { port, closed } = connectToHub(name, path, dropped, service);
    this.#transport = this.#overPort(port, closed);
  }

  #overPort(port: MessagePort, unwatchHub: () => void = () => {}): SocketTransport {
    port.addEventListener('message', (event: MessageEvent<GatewaySocketEvent>) => this.#onEvent(event.data));
    port.start();
    return {
      post: (request) => port.postMessage(request),
      // Frames go to the hub at once.
      bufferedAmount: 0,
      dispose: () => {
        port.close();
        unwatchHub();
      },
    };
  }

  #overServer(url: string): SocketTransport {
    const socket: ServerSocket = openServerSocket(url, (event) => this.#onEvent(event));
    this.#url = socket.url;
    this.#origin = originOf(this.#url);
    return {
      post: (request) =>
        request.type === 'send'
          ? socket.send(request.data)
          : socket.close(request.code === 1005 ? undefined : request.code, request.reason),
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
      dispose: () => undefined,
    };
  }

  /** The state, as `WebSocket.readyState`. */
  get readyState(): WebSocket['readyState'] {
    return this.#readyState;
  }

  /** What was sent and not yet handed to the network (always 0 on the hub, which takes frames at once). */
  get bufferedAmount(): number {
    return this.#transport?.bufferedAmount ?? 0;
  }

  get onopen(): Handler<Event> {
    return this.#handlers.get('open') ?? null;
  }
  set onopen(handler: Handler<Event>) {
    this.#setHandler('open', handler);
  }
  get onmessage(): Handler<MessageEvent> {
    return this.#handlers.get('message') ?? null;
  }
  set onmessage(handler: Handler<MessageEvent>) {
    this.#setHandler('message', handler);
  }
  get onclose(): Handler<CloseEvent> {
    return this.#handlers.get('close') ?? null;
  }
  set onclose(handler: Handler<CloseEvent>) {
    this.#setHandler('close', handler);
  }
  get onerror(): Handler<Event> {
    return this.#handlers.get('error') ?? null;
  }
  set onerror(handler: Handler<Event>) {
    this.#setHandler('error', handler);
  }

  /** Sends one payload. Throws while CONNECTING; dropped once CLOSING or CLOSED, as a WebSocket does. */
  send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
    if (this.#readyState === GatewaySocket.CONNECTING)
      throw new DOMException('Still in CONNECTING state.', 'InvalidStateError');
    if (this.#readyState !== GatewaySocket.OPEN) return;
    this.#post({ type: 'send', data: data as string | ArrayBuffer | ArrayBufferView | Blob });
  }

  /** Starts the close handshake; `code` is 1000 or 3000-4999, `reason` at most 123 UTF-8 bytes. */
  close(code?: number, reason = ''): void {
    if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999)) {
      throw new DOMException(
        `The close code must be either 1000, or between 3000 and 4999. ${code} is neither.`,
        'InvalidAccessError',
      );
    }
    if (new TextEncoder().encode(reason).byteLength > 123)
      throw new DOMException('The close reason must not be greater than 123 UTF-8 bytes.', 'SyntaxError');
    if (this.#readyState === GatewaySocket.CLOSING || this.#readyState === GatewaySocket.CLOSED) return;
    this.#readyState = GatewaySocket.CLOSING;
    this.#post({ type: 'close', code: code ?? 1005, reason });
  }

  #post(request: GatewaySocketRequest): void {
    if (this.#transport) this.#transport.post(request);
    else if (request.type === 'close') this.#closing = request;
  }

  #setHandler(type: string, handler: Handler<any>): void {
    const previous = this.#handlers.get(type);
    if (previous) this.removeEventListener(type, previous as EventListener);
    if (typeof handler === 'function') {
      this.#handlers.set(type, handler);
      this.addEventListener(type, handler as EventListener);
    } else this.#handlers.delete(type);
  }

  #onEvent(event: GatewaySocketEvent): void {
    if (event.type === 'open' && this.#readyState === GatewaySocket.CONNECTING) {
      this.#readyState = GatewaySocket.OPEN;
      this.dispatchEvent(new Event('open'));
    } else if (event.type === 'message' && this.#readyState === GatewaySocket.OPEN) {
      // A binary message (a compressed payload) as a WebSocket hands it: per `binaryType`.
      const data = typeof event.data !== 'string' && this.binaryType === 'blob' ? new Blob([event.data]) : event.data;
      this.dispatchEvent(new MessageEvent('message', { data, origin: this.#origin }));
    } else if (event.type === 'close' && this.#readyState !== GatewaySocket.CLOSED) {
      this.#readyState = GatewaySocket.CLOSED;
      this.#transport?.dispose();
      if (!event.wasClean) this.dispatchEvent(new Event('error'));
      this.dispatchEvent(closeEvent(event.code, event.reason, event.wasClean));
    }
  }
}
