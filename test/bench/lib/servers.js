// @ts-check
/**
 * The servers of a bench run, all on 127.0.0.1 with a port of their own:
 * - the site: the built `dist/` through Vite's preview server, exactly as `npm run preview`
 *   serves it, plus the bench pages under `/bench/` (built to a cache folder, never to `dist/`);
 * - the peer: a plain `node:http` server answering the same bytes from memory, with the page
 *   that fetches it, so that its requests pass through no service worker at all.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { preview } from 'vite';

/** Cross-origin isolation, so that `performance.now()` has 5 µs resolution in every bench page. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

/**
 * A connect middleware serving the files under `dir` (the bench build), with the isolation
 * headers and no caching, so every visit of a cold-start page fetches its files again.
 * @param {string} dir
 * @returns {import('vite').Connect.NextHandleFunction}
 */
function staticFiles(dir) {
  return (req, res, next) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir)) return next();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) return next();
    res.setHeader('Content-Type', TYPES[/** @type {keyof TYPES} */ (extname(file))] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', 'no-cache');
    for (const [name, value] of Object.entries(ISOLATION_HEADERS)) res.setHeader(name, value);
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    createReadStream(file).pipe(res);
  };
}

/**
 * Serves `dist/` with the project's preview settings and the bench pages at `/bench/`.
 * @param {{ root: string, benchDir: string }} options
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function serveSite({ root, benchDir }) {
  const server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir: 'dist' },
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
    plugins: [
      {
        name: 'platformpp-bench:pages',
        configurePreviewServer(preview) {
          preview.middlewares.use('/bench', staticFiles(benchDir));
        },
      },
    ],
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.httpServer.address());
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}

/**
 * The `node:http` peer: `GET /data` answers the bytes set with `setBody` (CORS and CORP
 * headers, so an isolated page of another origin may read it), and `GET /frame.html` is the
 * bench runner page, with the runner inlined so nothing else is fetched.
 * @param {{ runnerFile: string }} options
 * @returns {Promise<{ url: string, setBody(body: string): void, close(): Promise<void> }>}
 */
export async function servePeer({ runnerFile }) {
  /** @type {Buffer} */
  let body = Buffer.alloc(0);
  const runner = readFileSync(runnerFile, 'utf8');
  const page = `<!doctype html><meta charset="utf-8"><title>peer</title><script type="module">${runner}</script>`;
  const server = createServer((req, res) => {
    const common = {
      ...ISOLATION_HEADERS,
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'no-store',
    };
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/data') {
      res.writeHead(200, { ...common, 'Content-Type': 'application/json', 'Content-Length': body.length });
      res.end(body);
    } else if (path === '/frame.html') {
      res.writeHead(200, { ...common, 'Content-Type': 'text/html; charset=utf-8' });
      res.end(page);
    } else {
      res.writeHead(404, common);
      res.end();
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}/`,
    setBody: (text) => (body = Buffer.from(text, 'utf8')),
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
