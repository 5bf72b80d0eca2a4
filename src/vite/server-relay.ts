/**
 * With `platformpp({ server })`, the backend addresses of the plugin (`/__platformpp/api/...`,
 * `/__platformpp/sandbox/...`) lead straight to the platform server, from the dev server's own
 * process: no sandbox page needs to be open, as it does when the platform runs in the browser
 * (`./platform-bridge.ts`). A backend may as well call the server's URL itself.
 *
 * For a server deployed with a control secret, the relay sends the secret with every request it
 * relays, and the host page reaches the whole server through it (`/__platformpp/server/...`), so
 * the secret stays in this process, never in a page.
 */
import { CONTROL_SECRET_HEADER } from '../wire/paths';
import { SANDBOX_BASE, SERVER_RELAY_PATH } from './options';
import { readBody, RELAYED, sendJson } from './relay-http';
import type { Middleware } from './sandbox-server';

/** Request headers of the hop to the dev server. */
const REQUEST_HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);
/** Response headers that describe the hop from the server (`fetch` has already decoded the body). */
const RESPONSE_HOP_HEADERS = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/** The server's own path of a path the relay takes (`/__platformpp/api/v10/x` → `/api/v10/x`), or null. */
function relayedPath(pathname: string, wholeServer: boolean): string | null {
  if (RELAYED.test(pathname)) return pathname.slice(SANDBOX_BASE.length - 1);
  if (wholeServer && pathname.startsWith(`${SERVER_RELAY_PATH}/`)) return pathname.slice(SERVER_RELAY_PATH.length);
  return null;
}

/**
 * The relay to the server `serverUrl()` resolves with; every other path goes on. With
 * `controlSecret` (a deployed server's), it sends the secret and relays the whole server under
 * `/__platformpp/server/` for the host page.
 * @example server.middlewares.use(serverRelay(() => hold.server.then((s) => s.url)));
 */
export function serverRelay(serverUrl: () => Promise<string>, controlSecret: string | null = null): Middleware {
  return (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = relayedPath(url.pathname, controlSecret !== null);
    if (path === null) return next();
    void (async () => {
      let server: string;
      try {
        server = await serverUrl();
      } catch (error) {
        return sendJson(res, 503, {
          code: 0,
          message: `The platform server did not start: ${(error as Error).message}`,
        });
      }
      const body = await readBody(req);
      const headers = Object.entries(req.headers).filter(
        (entry): entry is [string, string] => !REQUEST_HOP_HEADERS.has(entry[0]) && typeof entry[1] === 'string',
      );
      if (controlSecret !== null) headers.push([CONTROL_SECRET_HEADER, controlSecret]);
      let response: Response;
      try {
        response = await fetch(`${server}${path}${url.search}`, {
          method: req.method,
          headers,
          body: body.length > 0 ? new Uint8Array(body) : undefined,
          // A redirect (an OAuth2 decision's) is the page's to follow, as the server gave it.
          redirect: 'manual',
        });
      } catch (error) {
        return sendJson(res, 502, {
          code: 0,
          message: `The platform server ${server} could not be reached: ${(error as Error).message}`,
        });
      }
      const answer = Buffer.from(await response.arrayBuffer());
      res.writeHead(
        response.status,
        Object.fromEntries([...response.headers].filter(([name]) => !RESPONSE_HOP_HEADERS.has(name))),
      );
      res.end(answer);
    })().catch(next);
  };
}
