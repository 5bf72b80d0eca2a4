/**
 * `GatewaySocket`: the gateway as a page reaches it, with the `WebSocket` interface (CONTRACT
 * §4), so that code written for a WebSocket gateway runs unchanged:
 *
 *   const ws = new GatewaySocket('/gateway?v=10&encoding=json');
 *   ws.onmessage = (event) => handle(JSON.parse(event.data));
 *
 * Each socket is a `MessagePort` to the hub (the shared worker every page shares), opened
 * through the hub's comlink API. Frames are text; the close handshake works as a WebSocket's.
 * When the hub is gone (the browser stopped or lost the worker) the socket closes as a dropped
 * WebSocket does (1006, not clean): the client connects again and resumes. In a dedicated
 * worker, the page that created it opens the port (`serveGatewaySockets(worker)` there).
 */
import { HUB_WORKER_NAME, type GatewaySocketEvent, type GatewaySocketRequest } from '../hub/protocol';
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

type Handler<E extends Event> = ((this: WebSocket, event: E) => unknown) | null;

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

  /** The absolute URL, as `WebSocket.url` gives it. */
  readonly url: string;
  readonly protocol = '';
  readonly extensions = '';
  binaryType: BinaryType = 'blob';
  #readyState: WebSocket['readyState'] = GatewaySocket.CONNECTING;
  #port: MessagePort;
  #unwatchHub = () => {};
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
    this.url = absolute.href;
    const path = `${absolute.pathname}${absolute.search}`;
    if (options.connect) this.#port = options.connect(path);
    else
      ({ port: this.#port, closed: this.#unwatchHub } = connectToHub(
        options.hubName ?? HUB_WORKER_NAME,
        path,
        () => this.#onEvent(DROPPED),
        service,
      ));
    this.#port.addEventListener('message', (event: MessageEvent<GatewaySocketEvent>) => this.#onEvent(event.data));
    this.#port.start();
  }

  /** The state, as `WebSocket.readyState`. */
  get readyState(): WebSocket['readyState'] {
    return this.#readyState;
  }

  /** Always 0: frames go to the hub at once. */
  get bufferedAmount(): number {
    return 0;
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
    this.#port.postMessage(request);
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
      this.dispatchEvent(
        new MessageEvent('message', { data: event.data, origin: new URL(this.url).origin.replace(/^ws/, 'http') }),
      );
    } else if (event.type === 'close' && this.#readyState !== GatewaySocket.CLOSED) {
      this.#readyState = GatewaySocket.CLOSED;
      this.#port.close();
      this.#unwatchHub();
      if (!event.wasClean) this.dispatchEvent(new Event('error'));
      this.dispatchEvent(closeEvent(event.code, event.reason, event.wasClean));
    }
  }
}
