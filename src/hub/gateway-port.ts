/**
 * One gateway (or voice gateway) connection over a `MessagePort`: the hub's side of
 * `GatewaySocket` and `VoiceGatewaySocket`. The port carries the socket wire of `./protocol`;
 * the gateway does the rest. {@link serveSocket} is one connection on any wire, which a page's
 * gateway link (`./gateway-link`) carries several of.
 */
import { compressedTransport, type GatewayZlib, type TransportCompression } from '../gateway/compressed-transport';
import type { ClientData, GatewayTransport } from '../gateway/connection';
import type { GatewaySocketEvent, GatewaySocketRequest } from './protocol';

/** What a port can be bridged to: the gateway, or the voice gateway (both open connections on a transport). */
export interface SocketEndpoint {
  connect(
    url: string,
    transport: GatewayTransport,
    options?: { owner?: string; compressions?: readonly TransportCompression[] },
  ): { receive(data: ClientData): void; clientClosed(code: number): void };
}

/** The compressions a gateway endpoint offers (the URL's `compress`, Identify's `compress`), over a zlib. */
export interface SocketCompression {
  zlib: GatewayZlib;
  offered: readonly TransportCompression[];
}

/** The transport compression `url` asks for, when `compression` offers it. */
function askedCompression(url: string, compression: SocketCompression): TransportCompression | null {
  const asked = new URL(url, 'http://gateway.invalid/').searchParams.get('compress');
  return compression.offered.find((offered) => offered === asked) ?? null;
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
 * `finished` runs once, after its last event. With `compression` (the gateway's, not the voice
 * gateway's), a client that asks for it gets binary messages, as from a WebSocket gateway.
 */
export function serveSocket(
  gateway: SocketEndpoint,
  url: string,
  post: (event: GatewaySocketEvent) => void,
  finished: () => void,
  holdForPage?: HoldForPage,
  owner?: string,
  compression?: SocketCompression,
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
    transport.dispose?.();
    connection.clientClosed(ABNORMAL_CLOSURE);
    finish({ type: 'close', code: ABNORMAL_CLOSURE, reason: '', wasClean: false });
  };
  post({ type: 'open' });
  const plain: GatewayTransport = {
    send: (data) => open && post({ type: 'message', data }),
    close: (code, reason) => finish({ type: 'close', code, reason, wasClean: true }),
  };
  const transport: GatewayTransport & { dispose?(): void } = compression
    ? compressedTransport(
        {
          sendText: plain.send,
          // A copy of its own, so the port may transfer or clone it as an ArrayBuffer.
          sendBinary: (bytes) => open && post({ type: 'message', data: bytes.slice().buffer }),
          close: plain.close,
        },
        compression.zlib,
        askedCompression(url, compression),
      )
    : plain;
  const connection = gateway.connect(url, transport, { owner, compressions: compression?.offered });
  if (open && holdForPage) letGo = holdForPage(abandon);
  return {
    request(request) {
      if (!open) return;
      if (request?.type === 'send') connection.receive(request.data);
      if (request?.type === 'close') {
        transport.dispose?.();
        connection.clientClosed(request.code);
        finish({ type: 'close', code: request.code, reason: request.reason, wasClean: true });
      }
    },
    abandon,
  };
}

/**
 * Serves a gateway connection for `url` on `port` until either side closes it, or the page is
 * gone (`holdForPage`, when the page said who it is: `owner`); `compression` as for {@link serveSocket}.
 * @example bridgeGatewayPort(gateway, port, '/gateway?v=10&encoding=json', (abandon) => owners.hold(owner, abandon), owner);
 */
export function bridgeGatewayPort(
  gateway: SocketEndpoint,
  port: MessagePort,
  url: string,
  holdForPage?: HoldForPage,
  owner?: string,
  compression?: SocketCompression,
): void {
  const socket = serveSocket(
    gateway,
    url,
    (event) => port.postMessage(event),
    () => port.close(),
    holdForPage,
    owner,
    compression,
  );
  port.addEventListener('message', (event: MessageEvent<GatewaySocketRequest>) => socket.request(event.data));
  // Chromium fires `close` on a port whose other end is gone (the page closed or crashed);
  // other browsers do not, and the page's lock (`holdForPage`) tells in every browser.
  port.addEventListener('close', () => socket.abandon());
  port.start();
}
