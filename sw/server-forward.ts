/**
 * The service worker's side of a page that joined a platform server (CONTRACT §7): the requests
 * it would answer from IndexedDB go to the server instead, and the server's answer is the
 * page's. Pure functions over an injected `fetch`, so unit tests call them without a worker.
 *
 * What goes to the server: the platform's paths on this origin (CONTRACT §1, with or without
 * `/.proxy`), the real platform's API origin (`https://discord.com/api/...`) at the same path,
 * and its CDN origin (`https://cdn.discordapp.com/...`) under the server's `/cdn`. Offline assets
 * (the precache) are answered as before.
 */
import { ApiError } from '../src/platform/core/errors';
import { SERVER_CDN_PATH } from '../src/wire/paths';
import { type JoinedServer, normalizeServerUrl } from '../src/wire/server-join';
import { SERVED_BY, SERVED_BY_HEADER } from './app-frame';
import { errorResponse } from './http';
import type { PlatformOrigin } from './origins';

/** What answers `X-Served-By` on a platformpp server. */
export const SERVER_SERVED_BY = 'platformpp-server';

/** How long the worker waits for a server to answer whether it is one, when a page joins it. */
export const SERVER_JOIN_TIMEOUT_MS = 10_000;

/** Request headers that belong to this hop, not to the server. */
const HOP_HEADERS = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'cookie'];

/**
 * Where `url` goes on the server at `server`: the same path (its `/.proxy` prefix too, which
 * the server folds away itself) and query; under `/cdn` for the platform's CDN origin.
 * @example serverTarget(new URL('http://page/api/v10/users/@me'), 'http://127.0.0.1:8787', null) // http://127.0.0.1:8787/api/v10/users/@me
 */
export function serverTarget(url: URL, server: string, outside: PlatformOrigin | null): URL {
  const base = new URL(server);
  const prefix = base.pathname.replace(/\/+$/, '') + (outside === 'cdn' ? SERVER_CDN_PATH : '');
  return new URL(`${prefix}${url.pathname}${url.search}`, base.origin);
}

/**
 * Sends `request` to `target` on the server and answers with the server's answer, readable by the
 * page as its own (the server allows every origin and exposes every header). A server that cannot
 * be reached is a 502 naming it: not the client's mistake.
 * @example event.respondWith(forwardToServer(event.request, serverTarget(url, server.url, null), server.url));
 */
export async function forwardToServer(
  request: Request,
  target: URL,
  server: string,
  fetchServer: (request: Request) => Promise<Response> = (r) => fetch(r),
): Promise<Response> {
  const headers = new Headers(request.headers);
  for (const name of HOP_HEADERS) headers.delete(name);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let response: Response;
  try {
    response = await fetchServer(
      new Request(target, {
        method: request.method,
        headers,
        body: hasBody ? await request.arrayBuffer() : undefined,
        mode: 'cors',
        credentials: 'omit',
        // A navigation follows its redirects itself (an OAuth2 redirect to the app's page).
        redirect: request.mode === 'navigate' ? 'manual' : 'follow',
      }),
    );
  } catch (error) {
    return unreachable(server, error);
  }
  // A redirect kept for the navigation to follow is answered as it is.
  if (response.type === 'opaqueredirect') return response;
  // A copy: the page reads it as a response of its own origin, headers and all.
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The 502 for a server that did not answer, saying which and why. */
function unreachable(server: string, error: unknown): Response {
  const detail = error instanceof Error ? error.message : String(error);
  const response = errorResponse(
    ApiError.of(
      'SERVER_UNREACHABLE',
      `The platform server ${server} could not be reached (${detail}): it is not running, or this browser is offline. This page joined it (<pp-platform server>), so its platform is there, not in this browser.`,
    ),
  );
  // The service worker answered, not the server.
  response.headers.set(SERVED_BY_HEADER, SERVED_BY);
  return response;
}

/**
 * Checks that `server` is a platformpp server this browser reaches, and finds its gateway: the
 * URL `GET <server>/api/v10/gateway` names. Resolves with the server as the page will use it;
 * rejects with an error saying what is wrong.
 * @example const joined = await probeServer('http://127.0.0.1:8787'); // { url, gateway_url: 'ws://127.0.0.1:8787/gateway' }
 */
export async function probeServer(
  server: string,
  fetchServer: (request: Request) => Promise<Response> = (r) => fetch(r),
  timeoutMs = SERVER_JOIN_TIMEOUT_MS,
): Promise<JoinedServer> {
  const url = normalizeServerUrl(server);
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    const aborted = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
    );
    const request = new Request(`${url}/api/v10/gateway`, { mode: 'cors', credentials: 'omit', signal });
    response = await Promise.race([fetchServer(request), aborted]);
  } catch (error) {
    const why = signal.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : error instanceof Error
        ? error.message
        : String(error);
    throw new Error(
      `the platform server ${url} could not be reached (${why}): is it running (npx platformpp-web serve)?`,
    );
  }
  const body = (await response.json().catch(() => null)) as { url?: unknown } | null;
  if (!response.ok || response.headers.get('X-Served-By') !== SERVER_SERVED_BY || typeof body?.url !== 'string') {
    throw new Error(
      `${url} answered GET /api/v10/gateway with ${response.status}, not as a platformpp server does: is it the URL platformpp-web serve printed?`,
    );
  }
  return { url, gateway_url: body.url };
}
