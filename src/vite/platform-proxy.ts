/**
 * The dev server as the platform for pages that have no service worker (CONTRACT §6, §7). A page
 * opened on an origin that is not a secure context (a phone on the LAN opening
 * `http://<the laptop's address>:5173/__platformpp/`) gets none, so nothing in the browser answers
 * its platform paths: with `platformpp({ server })` the dev server does, by sending them on to the
 * platform server, as the service worker does for the pages it controls. So the host page, its
 * shared worker and the activity's frame reach the server at their own origin, and the phone
 * needs to reach the laptop's dev server only:
 *
 * - the platform's paths (`/api/v<N>/...`, the API's unversioned sections, `/sandbox/...`,
 *   `/oauth2/...`, `/attachments/...`, the OpenID discovery document; with or without `/.proxy`)
 *   go to the same path on the server, with the deployed server's control secret when there is
 *   one (the page never holds it);
 * - the gateway, the voice gateway and the pages' instance socket (WebSocket upgrades of
 *   `/gateway`, `/voice`, `/activity-instances`) are piped to the server (`./platform-socket-proxy.ts`);
 * - another `/.proxy/...` path goes through the activity's URL mappings (the server says where,
 *   `POST /sandbox/url-mappings/resolve`, and the dev server sends it, from the laptop: a mapping
 *   to `http://localhost:<port>` reaches the developer's machine), else it is the same path
 *   without `/.proxy` for the rest of the dev server (the activity's assets, Vite's `/api` proxy
 *   to its backend).
 *
 * A server on this machine is told the Host the page used, so the URLs it hands out (the
 * gateway's, READY's `resume_gateway_url`, the voice endpoint) lead back through the dev server.
 */
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CONTROL_SECRET_HEADER, PLATFORM_DISCOVERY_PATH, PROXY_PREFIX, stripProxyPrefix } from '../wire/paths';
import { readBody, sendJson } from './relay-http';
import type { Middleware } from './sandbox-server';

/**
 * The first segments of the platform's unversioned `/api/...` routes (`/api/users/@me`,
 * `/api/oauth2/token`): every other unversioned `/api/...` path is the activity's own (its
 * `/api/token`). A test checks the list against the platform's route table.
 */
export const PLATFORM_API_SECTIONS: ReadonlySet<string> = new Set([
  'applications',
  'channels',
  'gateway',
  'guilds',
  'interactions',
  'invites',
  'lobbies',
  'oauth2',
  'partner-sdk',
  'rpc',
  'skus',
  'users',
  'voice',
  'webhooks',
]);

/** Headers of the hop between the page and the dev server. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/** Where the dev server's platform proxy sends what it takes. */
export interface PlatformProxyOptions {
  /** The platform server's URL (`http://127.0.0.1:8787`, `https://host/s/team-a`), once known. */
  server: () => Promise<string>;
  /** A deployed server's control secret, sent with every request: the page never holds it. */
  controlSecret: string | null;
}

/** The path a sandbox on the server is served under (`/s/team-a`), or `''`. */
export function basePathOf(server: URL): string {
  return server.pathname.replace(/\/+$/, '');
}

/**
 * Whether the platform answers `pathname` (with or without `/.proxy`), as the service worker
 * decides for the pages it controls.
 * @example isPlatformPath('/.proxy/api/v10/users/@me') // true
 * @example isPlatformPath('/api/token') // false
 */
export function isPlatformPath(pathname: string): boolean {
  const path = stripProxyPrefix(pathname);
  if (path === '/api' || /^\/api\/v\d+(?:\/|$)/.test(path)) return true;
  if (path.startsWith('/api/')) return PLATFORM_API_SECTIONS.has(path.split('/')[2]);
  return (
    path === '/sandbox' ||
    path === PLATFORM_DISCOVERY_PATH ||
    ['/sandbox/', '/oauth2/', '/attachments/'].some((prefix) => path.startsWith(prefix))
  );
}

/** Whether the server runs on this machine: then it may be told the Host the page used. */
function isLoopbackServer(server: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(server.hostname) || server.hostname.startsWith('127.');
}

/** The headers the server gets for `req`: the page's, without the hop's, with the Host and secret it needs. */
function upstreamHeaders(req: IncomingMessage, server: URL, controlSecret: string | null): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers))
    if (!HOP_HEADERS.has(name) && value !== undefined) headers[name] = value;
  // A server elsewhere (a deployment) is reached by its own name; one here names the dev server back.
  if (!isLoopbackServer(server) || !req.headers.host) headers.host = server.host;
  if (controlSecret !== null) headers[CONTROL_SECRET_HEADER.toLowerCase()] = controlSecret;
  return headers;
}

/**
 * The request to `path` on the server (its own path: the sandbox's base path in front), with the
 * headers the server gets for `req`.
 */
export function upstream(server: URL, path: string, req: IncomingMessage, controlSecret: string | null) {
  const basePath = basePathOf(server);
  const target = path.startsWith(`${basePath}/`) && basePath !== '' ? path : `${basePath}${path}`;
  const send = server.protocol === 'https:' ? httpsRequest : httpRequest;
  return send({
    protocol: server.protocol,
    hostname: server.hostname.replace(/^\[|\]$/g, ''),
    port: server.port || undefined,
    method: req.method,
    path: target,
    headers: upstreamHeaders(req, server, controlSecret),
  });
}

/**
 * The HTTP side: platform paths to the server, `/.proxy/` through the URL mappings, everything
 * else on to the rest of the dev server.
 * @example server.middlewares.use(platformProxy({ server: () => serverUrl, controlSecret: null }));
 */
export function platformProxy(options: PlatformProxyOptions): Middleware {
  return (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const proxied = url.pathname.startsWith(`${PROXY_PREFIX}/`);
    if (!isPlatformPath(url.pathname) && !proxied) return next();
    void (async () => {
      let server: URL;
      try {
        server = new URL(await options.server());
      } catch (error) {
        return sendJson(res, 503, {
          code: 0,
          message: `The platform server did not start: ${(error as Error).message}`,
        });
      }
      if (!isPlatformPath(url.pathname)) {
        if (await forwardMapped(req, res, server, options.controlSecret)) return;
        // Not mapped: the same path without `/.proxy`, for the dev server (its assets, its `/api` proxy).
        req.url = stripProxyPrefix(url.pathname) + url.search;
        return next();
      }
      const outgoing = upstream(server, url.pathname + url.search, req, options.controlSecret);
      outgoing.on('response', (answer) => {
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_HEADERS.has(name)));
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      });
      outgoing.on('error', (error) => {
        if (res.headersSent) return void res.destroy(error);
        sendJson(res, 502, {
          code: 0,
          message: `The platform server ${server.href} could not be reached: ${error.message}`,
        });
      });
      req.pipe(outgoing);
    })().catch(next);
  };
}

/**
 * Sends an activity's `/.proxy/...` request to its URL mapping's target, from this process; false
 * when no mapping applies (nothing was answered then).
 */
async function forwardMapped(
  req: IncomingMessage,
  res: Parameters<Middleware>[1],
  server: URL,
  controlSecret: string | null,
): Promise<boolean> {
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (controlSecret !== null) headers[CONTROL_SECRET_HEADER] = controlSecret;
  const resolved = await fetch(`${server.href.replace(/\/+$/, '')}/sandbox/url-mappings/resolve`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: new URL(req.url ?? '/', origin).href, referrer: req.headers.referer ?? '' }),
  }).catch(() => null);
  if (!resolved) return false;
  if (!resolved.ok) {
    // A refusal (an expired proxy ticket, mappings that disagree) is the page's answer.
    res.writeHead(resolved.status, { 'Content-Type': 'application/json' });
    res.end(Buffer.from(await resolved.arrayBuffer()));
    return true;
  }
  const { target } = (await resolved.json()) as { target: { url: string; prefix: string } | null };
  if (!target) return false;
  const body = await readBody(req);
  const sent = Object.entries(req.headers).filter(
    (entry): entry is [string, string] =>
      typeof entry[1] === 'string' && !HOP_HEADERS.has(entry[0]) && entry[0] !== 'host',
  );
  try {
    const answer = await fetch(target.url, {
      method: req.method,
      headers: sent.filter(([name]) => name !== 'content-length'),
      body: body.length > 0 ? new Uint8Array(body) : undefined,
    });
    const answerHeaders = [...answer.headers].filter(
      ([name]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name),
    );
    res.writeHead(answer.status, Object.fromEntries(answerHeaders));
    res.end(Buffer.from(await answer.arrayBuffer()));
  } catch (error) {
    sendJson(res, 502, {
      code: 0,
      message: `The URL mapping ${target.prefix} → ${new URL(target.url).origin} could not reach its target from the dev server: ${(error as Error).message}`,
    });
  }
  return true;
}
