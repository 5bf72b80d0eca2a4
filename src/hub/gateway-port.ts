/**
 * One gateway (or voice gateway) connection over a `MessagePort`: the hub's side of
 * `GatewaySocket` and `VoiceGatewaySocket`. The port carries the socket wire of `./protocol`;
 * the gateway does the rest. {@link serveSocket} is one connection on any wire, which a page's
 * gateway link (`./gateway-link`) carries several of.
 */
import type { ClientData, GatewayTransport } from '../gateway/connection';
import type { GatewaySocketEvent, GatewaySocketRequest } from './protocol';

/** What a port can be bridged to: the gateway, or the voice gateway (both open connections on a transport). */
export interface SocketEndpoint {
  connect(
    url: string,
    transport: GatewayTransport,
    options?: { owner?: string },
  ): { receive(data: ClientData): void; clientClosed(code: number): void };
}

/** Close code of a connection whose page went away without closing it (as a dropped WebSocket). */
const ABNORMAL_CLOSURE = 1006;

/**
 * Registers what to do when the connection's page is gone; returns the function that cancels
 * it (see `PageOwners.hold`).
 */
export type HoldForPage = (abandon: () => void) => () => void;

/** One served connection: the page's requests in, and what to do when its page is gone. */
export interface ServedSocket {
  request(request: GatewaySocketRequest): void;
  /** The page went away without closing: as a dropped WebSocket, the session stays for Resume. */
  abandon(): void;
}

/**
 * Serves a gateway connection for `url` whose events go out through `post`, until either side
 * closes it or the page is gone (`holdForPage`, when the page said who it is: `owner`);
 * `finished` runs once, after its last event.
 */
export function serveSocket(
  gateway: SocketEndpoint,
  url: string,
  post: (event: GatewaySocketEvent) => void,
  finished: () => void,
  holdForPage?: HoldForPage,
  owner?: string,
): ServedSocket {
  let open = true;
  let letGo = () => {};
  const finish = (event: GatewaySocketEvent & { type: 'close' }) => {
    if (!open) return;
    open = false;
    letGo();
    post(event);
    finished();
  };
  // A page that only sleeps in the back/forward cache reads the close when it wakes up.
  const abandon = () => {
    if (!open) return;
    connection.clientClosed(ABNORMAL_CLOSURE);
    finish({ type: 'close', code: ABNORMAL_CLOSURE, reason: '', wasClean: false });
  };
  post({ type: 'open' });
  const connection = gateway.connect(
    url,
    {
      send: (data) => open && post({ type: 'message', data }),
      close: (code, reason) => finish({ type: 'close', code, reason, wasClean: true }),
    },
    { owner },
  );
  if (open && holdForPage) letGo = holdForPage(abandon);
  return {
    request(request) {
      if (!open) return;
      if (request?.type === 'send') connection.receive(request.data);
      if (request?.type === 'close') {
        connection.clientClosed(request.code);
        finish({ type: 'close', code: request.code, reason: request.reason, wasClean: true });
      }
    },
    abandon,
  };
}

/**
 * Serves a gateway connection for `url` on `port` until either side closes it, or the page is
 * gone (`holdForPage`, when the page said who it is: `owner`).
 * @example bridgeGatewayPort(gateway, port, '/gateway?v=10&encoding=json', (abandon) => owners.hold(owner, abandon), owner);
 */
export function bridgeGatewayPort(
  gateway: SocketEndpoint,
  port: MessagePort,
  url: string,
  holdForPage?: HoldForPage,
  owner?: string,
): void {
  const socket = serveSocket(
    gateway,
    url,
    (event) => port.postMessage(event),
    () => port.close(),
    holdForPage,
    owner,
  );
  port.addEventListener('message', (event: MessageEvent<GatewaySocketRequest>) => socket.request(event.data));
  // Chromium fires `close` on a port whose other end is gone (the page closed or crashed);
  // other browsers do not, and the page's lock (`holdForPage`) tells in every browser.
  port.addEventListener('close', () => socket.abandon());
  port.start();
}
