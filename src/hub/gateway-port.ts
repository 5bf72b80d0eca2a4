/**
 * One gateway connection over a `MessagePort`: the hub's side of `GatewaySocket`. The port
 * carries the socket wire of `./protocol`; the gateway does the rest.
 */
import type { Gateway } from '../gateway/gateway';
import type { GatewaySocketEvent, GatewaySocketRequest } from './protocol';

/** Close code of a connection whose page went away without closing it (as a dropped WebSocket). */
const ABNORMAL_CLOSURE = 1006;

/**
 * Serves a gateway connection for `url` on `port` until either side closes it.
 * @example bridgeGatewayPort(gateway, port, '/gateway?v=10&encoding=json');
 */
export function bridgeGatewayPort(gateway: Gateway, port: MessagePort, url: string): void {
  const post = (event: GatewaySocketEvent) => port.postMessage(event);
  let open = true;
  const finish = (event: GatewaySocketEvent & { type: 'close' }) => {
    if (!open) return;
    open = false;
    post(event);
    port.close();
  };
  post({ type: 'open' });
  const connection = gateway.connect(url, {
    send: (data) => open && post({ type: 'message', data }),
    close: (code, reason) => finish({ type: 'close', code, reason, wasClean: true }),
  });
  port.addEventListener('message', (event: MessageEvent<GatewaySocketRequest>) => {
    const request = event.data;
    if (request?.type === 'send') connection.receive(request.data);
    if (request?.type === 'close') {
      connection.clientClosed(request.code);
      finish({ type: 'close', code: request.code, reason: request.reason, wasClean: true });
    }
  });
  // Chromium fires `close` on a port whose other end is gone (the page closed or crashed).
  port.addEventListener('close', () => {
    if (!open) return;
    open = false;
    connection.clientClosed(ABNORMAL_CLOSURE);
  });
  port.start();
}
