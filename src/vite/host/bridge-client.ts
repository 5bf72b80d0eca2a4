/**
 * The sandbox page's side of the backend bridge (`../platform-bridge.ts`): one tab at a time
 * (a Web Lock) listens to the dev server's event stream, asks the platform (its own service
 * worker) each relayed request and posts the answer back. When that tab closes, another open
 * sandbox tab takes over.
 */
import type { BridgeRequest, BridgeResponse } from '../platform-bridge';

/** The lock the sandbox tabs take turns on. */
const BRIDGE_LOCK = 'platformpp:sandbox-bridge';
/** Response headers that describe the hop, not the answer. */
const HOP_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection']);

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Asks the platform one relayed request and posts its answer to `bridgeUrl/<id>`. */
async function answer(bridgeUrl: string, request: BridgeRequest): Promise<void> {
  let reply: BridgeResponse;
  try {
    const response = await fetch(request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body === null ? undefined : fromBase64(request.body),
    });
    reply = {
      status: response.status,
      headers: [...response.headers].filter(([name]) => !HOP_HEADERS.has(name)),
      body: toBase64(new Uint8Array(await response.arrayBuffer())),
    };
  } catch (error) {
    const message = `The sandbox page could not ask the platform: ${error instanceof Error ? error.message : String(error)}`;
    reply = {
      status: 502,
      headers: [['content-type', 'application/json']],
      body: toBase64(new TextEncoder().encode(JSON.stringify({ code: 0, message }))),
    };
  }
  await fetch(`${bridgeUrl}/${encodeURIComponent(request.id)}`, { method: 'POST', body: JSON.stringify(reply) });
}

/**
 * Serves the bridge at `bridgeUrl` while this tab holds the lock (for as long as it lives).
 * @example serveBackendBridge('/__platformpp/bridge');
 */
export function serveBackendBridge(bridgeUrl: string): void {
  const listen = () =>
    new Promise<never>(() => {
      const events = new EventSource(bridgeUrl);
      events.addEventListener('message', (event) => {
        void answer(bridgeUrl, JSON.parse(event.data) as BridgeRequest).catch((error: unknown) =>
          console.error('platformpp: a backend request through the sandbox failed', error),
        );
      });
    });
  if (navigator.locks) void navigator.locks.request(BRIDGE_LOCK, listen);
  else void listen();
}
