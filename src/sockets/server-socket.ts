/**
 * A gateway socket on a platform server (CONTRACT §7): a real `WebSocket`, seen through the
 * same socket wire as a hub port (`GatewaySocketEvent`s out, sends and closes in), so that
 * `GatewaySocket` and a dedicated worker's port behave alike on either.
 */
import type { GatewaySocketEvent, GatewaySocketRequest } from '../hub/protocol';
import type { JoinedServer } from '../wire/server-join';

/** A socket on a server, as `GatewaySocket` drives it. */
export interface ServerSocket {
  readonly url: string;
  readonly bufferedAmount: number;
  send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void;
  close(code: number | undefined, reason: string): void;
}

/**
 * The gateway URL of `server` with the query of `requested` (`/gateway?v=10&encoding=json` →
 * `ws://127.0.0.1:8787/gateway?v=10&encoding=json`).
 * @example serverGatewayUrl({ url, gateway_url: 'ws://h/gateway' }, new URL('ws://page/gateway?v=10')) // 'ws://h/gateway?v=10'
 */
export function serverGatewayUrl(server: JoinedServer, requested: URL): string {
  const target = new URL(server.gateway_url);
  target.search = requested.search;
  return target.href;
}

/**
 * Opens a WebSocket to `url` and reports what happens on it as socket wire events: `open`,
 * text `message`s, and one `close` (after an error too, not clean, as a dropped WebSocket).
 * @example const socket = openServerSocket('ws://127.0.0.1:8787/gateway?v=10&encoding=json', (event) => onEvent(event));
 */
export function openServerSocket(url: string, onEvent: (event: GatewaySocketEvent) => void): ServerSocket {
  const ws = new WebSocket(url);
  // The gateway speaks text; a binary frame reaches the client as bytes, as a WebSocket's would.
  ws.binaryType = 'arraybuffer';
  ws.addEventListener('open', () => onEvent({ type: 'open' }));
  ws.addEventListener('message', (event: MessageEvent) => onEvent({ type: 'message', data: event.data }));
  ws.addEventListener('close', (event: CloseEvent) =>
    onEvent({ type: 'close', code: event.code, reason: event.reason, wasClean: event.wasClean }),
  );
  return {
    url: ws.url,
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    send: (data) => ws.send(data as string | Blob | BufferSource),
    close: (code, reason) => (code === undefined ? ws.close() : ws.close(code, reason)),
  };
}

/**
 * Serves a dedicated worker's gateway socket (`port`, the socket wire) on the server: the page
 * opens the WebSocket, since the worker asked it to (see `worker-sockets.ts`).
 * @example bridgeServerSocket(serverGatewayUrl(server, new URL(path, 'ws://x')), port);
 */
export function bridgeServerSocket(url: string, port: MessagePort): void {
  const socket = openServerSocket(url, (event) => {
    port.postMessage(event);
    if (event.type === 'close') port.close();
  });
  port.addEventListener('message', (event: MessageEvent<GatewaySocketRequest>) => {
    const request = event.data;
    if (request?.type === 'send') socket.send(request.data);
    if (request?.type === 'close') socket.close(request.code === 1005 ? undefined : request.code, request.reason);
  });
  port.start();
}
