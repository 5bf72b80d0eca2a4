/**
 * One gateway (or voice gateway) connection over a `MessagePort`: the hub's side of
 * `GatewaySocket` and `VoiceGatewaySocket`. The port carries the socket wire of `./protocol`;
 * the gateway does the rest.
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
  const post = (event: GatewaySocketEvent) => port.postMessage(event);
  let open = true;
  let letGo = () => {};
  const finish = (event: GatewaySocketEvent & { type: 'close' }) => {
    if (!open) return;
    open = false;
    letGo();
    post(event);
    port.close();
  };
  // The page went away without closing: as a dropped WebSocket, the session stays for Resume.
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
  port.addEventListener('message', (event: MessageEvent<GatewaySocketRequest>) => {
    const request = event.data;
    if (request?.type === 'send') connection.receive(request.data);
    if (request?.type === 'close') {
      connection.clientClosed(request.code);
      finish({ type: 'close', code: request.code, reason: request.reason, wasClean: true });
    }
  });
  // Chromium fires `close` on a port whose other end is gone (the page closed or crashed);
  // other browsers do not, and the page's lock (`holdForPage`) tells in every browser.
  port.addEventListener('close', abandon);
  if (open && holdForPage) letGo = holdForPage(abandon);
  port.start();
}
