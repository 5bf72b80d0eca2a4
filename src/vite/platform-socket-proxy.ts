/**
 * The WebSocket side of the dev server's platform proxy (`./platform-proxy.ts`): for pages without
 * a service worker (a phone on the LAN), the upgrades of the platform server's sockets (the
 * gateway, the voice gateway, the pages' instance socket) are piped to the server, so the phone
 * reaches them at the dev server's address. Vite's own hot-reload socket and every other upgrade
 * are left alone.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { stripProxyPrefix } from '../wire/paths';
import { basePathOf, type PlatformProxyOptions, upstream } from './platform-proxy';

/** The paths of the server's WebSockets: the gateway, the voice gateway, the pages' instance socket. */
const SOCKET_PATHS = new Set(['/gateway', '/voice', '/activity-instances']);

/**
 * Whether `pathname` is one of the server's WebSockets (`/gateway`, `/gateway/`, `/voice`,
 * `/activity-instances`), also under the path of the server's sandbox.
 * @example isPlatformSocketPath('/gateway/', '') // true
 */
export function isPlatformSocketPath(pathname: string, basePath: string): boolean {
  let path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (basePath !== '' && path.startsWith(`${basePath}/`)) path = path.slice(basePath.length);
  return SOCKET_PATHS.has(stripProxyPrefix(path));
}

/**
 * The WebSocket side: an upgrade of one of the server's sockets is piped to the server; true
 * when it was taken (Vite's own hot-reload socket and every other upgrade are left alone).
 * @example httpServer.on('upgrade', (req, socket, head) => sockets(req, socket, head));
 */
export function platformSocketProxy(
  options: PlatformProxyOptions,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean {
  let known: URL | null = null;
  void options.server().then(
    (url) => (known = new URL(url)),
    () => undefined,
  );
  return (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.headers.upgrade?.toLowerCase() !== 'websocket') return false;
    if (!isPlatformSocketPath(url.pathname, known ? basePathOf(known) : '')) return false;
    void options.server().then(
      (serverUrl) => pipeSocket(new URL(serverUrl), url.pathname + url.search, req, socket, head, options),
      () => socket.destroy(),
    );
    return true;
  };
}

function pipeSocket(
  server: URL,
  path: string,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  options: PlatformProxyOptions,
): void {
  const outgoing = upstream(server, path, req, options.controlSecret);
  // The upgrade's own headers are the handshake: kept, not dropped as a hop's.
  outgoing.setHeader('connection', 'Upgrade');
  outgoing.setHeader('upgrade', 'websocket');
  socket.on('error', () => outgoing.destroy());
  outgoing.on('upgrade', (answer, upstreamSocket, upstreamHead) => {
    const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage ?? 'Switching Protocols'}`];
    for (let i = 0; i < answer.rawHeaders.length; i += 2)
      lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (upstreamHead.length > 0) socket.write(upstreamHead);
    if (head.length > 0) upstreamSocket.write(head);
    upstreamSocket.on('error', () => socket.destroy());
    socket.on('close', () => upstreamSocket.destroy());
    upstreamSocket.on('close', () => socket.destroy());
    upstreamSocket.pipe(socket).pipe(upstreamSocket);
  });
  outgoing.on('response', (answer) => {
    // Refused without an upgrade: its answer, as the server gave it.
    socket.write(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage ?? ''}\r\nConnection: close\r\n\r\n`);
    answer.pipe(socket);
  });
  outgoing.on('error', () => socket.destroy());
  outgoing.end();
}
