/**
 * What the two ways a backend reaches the platform through the plugin share: the paths they
 * relay (`/__platformpp/api/...`, `/__platformpp/sandbox/...`) and the dev server's plain
 * node:http plumbing for them. `./platform-bridge.ts` relays to a sandbox page in the browser,
 * `./server-relay.ts` to the platform server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The platform paths a backend may call through the plugin, under `/__platformpp/`; group 1 is the platform path. */
export const RELAYED = /^\/__platformpp(\/(?:api|sandbox)(?:\/|$).*)$/;

/**
 * The whole body of `req`.
 * @example const body = await readBody(req);
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Answers with `body` as JSON, never cached: the plugin's own answers (the platform unreachable,
 * a relayed request that timed out), in the platform's error shape.
 * @example sendJson(res, 503, { code: 0, message: 'No sandbox page is open' });
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}
