/**
 * The HTTP side of `platformpp()`: a connect middleware that serves the sandbox at
 * `/__platformpp/` on the activity's own dev or preview server, so the host page, its service
 * worker and the activity share one origin. It serves the host page (with the sandbox's
 * settings inside), the service worker (allowed to control the whole origin), the host's
 * prebuilt scripts shipped in the package, and the backend bridge (`./platform-bridge.ts`);
 * every other path goes on to Vite untouched.
 *
 * When the platform runs in the browser, the host page carries the application's client secret
 * (the browser's sandbox needs it), so it is served only to this machine (a `localhost` or
 * loopback Host): a tunnel that exposes the dev server does not expose it. On a platform server
 * the page holds no secret (the plugin sets it on the server), and it is served to any host the
 * dev server answers: a phone or a teammate on the network.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import {
  insecureOriginProblem,
  WITHOUT_SERVICE_WORKER_SUMMARY,
  withoutServiceWorkerNotice,
} from './host/insecure-origin';
import { SANDBOX_BASE, type SandboxPageConfig } from './options';

/** The connect middleware shape Vite's dev and preview servers take. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

/** Hosts that are this machine. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether the request names this machine as its host (`localhost`, `*.localhost`, a loopback address). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return LOOPBACK_HOSTS.has(name) || name.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/** JSON that may sit inside a `<script>` element: no `<` can close it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The host page: the settings as JSON, then the host script, which builds the page.
 * @example sandboxPageHtml(config) // '<!doctype html>…'
 */
export function sandboxPageHtml(config: SandboxPageConfig, host = 'localhost:5173'): string {
  const escape = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const title = escape(`${config.application.name} · platformpp sandbox`);
  // Said before any script of the sandbox runs: on such an origin some of them cannot, and on a
  // platform server the page runs there without a service worker, which changes what works.
  const location = { host, port: /:(\d+)$/.exec(host)?.[1] ?? '' };
  const onServer = config.server !== null || config.serverPath !== null;
  // On a server the page runs: the words fold under one line, so that a phone shows the activity.
  const insecure = onServer
    ? `<details id="platformpp-insecure-origin" hidden><summary>${escape(WITHOUT_SERVICE_WORKER_SUMMARY)}</summary><p>${escape(withoutServiceWorkerNotice(location))}</p></details>`
    : `<p role="alert" id="platformpp-insecure-origin" hidden>${escape(insecureOriginProblem({ isSecureContext: false, location, navigator: {} })!)}</p>`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="icon" href="data:," />
    <script type="application/json" id="platformpp-sandbox">${scriptJson(config)}</script>
    <script type="module" src="${SANDBOX_BASE}host.js"></script>
  </head>
  <body>
    ${insecure}
    <script>if (!isSecureContext || !('serviceWorker' in navigator)) document.getElementById('platformpp-insecure-origin').hidden = false;</script>
  </body>
</html>
`;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-cache', ...headers });
  res.end(body);
}

/**
 * The middleware serving `/__platformpp/...` from `dir` (the package's `dist/sandbox/`), with
 * the page settings read at each request (an edited `.env` takes effect on the next load; a
 * platform server being started is waited for).
 * @example server.middlewares.use(sandboxMiddleware(sandboxDir, () => config));
 */
export function sandboxMiddleware(
  dir: string,
  config: () => SandboxPageConfig | Promise<SandboxPageConfig>,
  bridge: Middleware = (_req, _res, next) => next(),
): Middleware {
  const root = normalize(dir + sep);
  return (req, res, next) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === SANDBOX_BASE.slice(0, -1)) {
      res.writeHead(302, { Location: SANDBOX_BASE });
      res.end();
      return;
    }
    if (!path.startsWith(SANDBOX_BASE)) return next();
    if (isLoopbackHost(req.headers.host)) return serve(req, res, next, path);
    Promise.resolve(config()).then((settings) => {
      if (settings.application.secret === null) return serve(req, res, next, path);
      send(
        res,
        403,
        'text/plain; charset=utf-8',
        `The platformpp sandbox carries your application's client secret, so it is served only to this machine: open it at http://localhost:<port>${SANDBOX_BASE} on the computer that runs the dev server (or run the platform on a server, platformpp({ server: true }), to open it from other devices).\n`,
      );
    }, next);
  };

  function serve(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void, path: string): void {
    const file = path.slice(SANDBOX_BASE.length);
    // The bridge answers its own paths (later) and passes every other one on at once.
    let bridged = true;
    bridge(req, res, (error) => {
      if (error) next(error);
      else bridged = false;
    });
    if (bridged) return;
    if (file === '' || file === 'index.html') {
      // The settings may wait for the platform server the page joins to start.
      Promise.resolve(config()).then(
        (settings) => send(res, 200, CONTENT_TYPES['.html'], sandboxPageHtml(settings, req.headers.host)),
        next,
      );
      return;
    }
    const target = normalize(join(root, file));
    if (!target.startsWith(root)) return next();
    readFile(target).then(
      (body) => {
        // The service worker lives here but controls the whole origin, as the platform's HTTP API must.
        const extra: Record<string, string> = file === 'sw.js' ? { 'Service-Worker-Allowed': '/' } : {};
        send(res, 200, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', body, extra);
      },
      () => send(res, 404, 'text/plain; charset=utf-8', `No ${path} in the platformpp sandbox.\n`),
    );
  }
}
