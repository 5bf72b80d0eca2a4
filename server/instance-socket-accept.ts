/**
 * Accepts a page's instance socket in a sandbox's object. Not through the hibernation API: the
 * object stays in memory while a page holds frames on it, and an object that restarted anyway
 * has no socket of its predecessor's (their pages connect again and rejoin).
 */
import type { SandboxPlatform } from './sandbox-platform';

/** workerd's WebSocket: a pair's server end is accepted in this isolate. */
type WorkerdWebSocket = WebSocket & { accept(): void };

/**
 * The 101 answer to an upgrade to `/activity-instances`, its server end wired to the sandbox's
 * instance sockets.
 * @example if (service === 'instances') return acceptInstanceSocket(platform);
 */
export function acceptInstanceSocket(platform: SandboxPlatform): Response {
  const pair = new WebSocketPair();
  const [client, server] = [pair[0], pair[1]] as [WebSocket, WorkerdWebSocket];
  server.accept();
  const socket = platform.instances.connect({
    send: (text) => server.send(text),
    close: (code, reason) => {
      try {
        server.close(code, reason);
      } catch {
        // Already closed.
      }
    },
  });
  server.addEventListener('message', (event) => socket.receive(event.data as string | ArrayBuffer));
  server.addEventListener('close', (event) => {
    socket.clientClosed();
    try {
      server.close(event.code === 1005 || event.code === 1006 ? 1000 : event.code, event.reason);
    } catch {
      // Already closed.
    }
  });
  server.addEventListener('error', () => socket.clientClosed());
  return new Response(null, { status: 101, webSocket: client });
}
