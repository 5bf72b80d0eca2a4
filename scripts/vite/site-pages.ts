/**
 * Where the site's HTML pages come from and where they are served. The host page is
 * `index.html`; demo pages live under `demo/`, and the sample activities under
 * `demo/activities/<id>/` are served at `/activities/<id>/` (CONTRACT §5), in dev and built.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Connect, Plugin } from 'vite';
import { stripProxyPrefix } from '../../src/wire/paths.js';

const ACTIVITIES_SOURCE = 'demo/activities';
const ACTIVITIES_SERVED = 'activities';

/** Paths of every file under `dir` (recursive), relative to `dir`, with `/` separators. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * The build's HTML inputs: the host page plus every `demo/**\/*.html` present, keyed by path.
 * @example siteInputs('/repo') // { index: '/repo/index.html', 'demo-activities-chess-index': ... }
 */
export function siteInputs(root: string): Record<string, string> {
  const inputs: Record<string, string> = { index: join(root, 'index.html') };
  for (const file of listFiles(join(root, 'demo'))) {
    if (!file.endsWith('.html')) continue;
    // A flat name, because it becomes the name of the page's script under `assets/`.
    inputs[`demo-${file.slice(0, -'.html'.length).replaceAll('/', '-')}`] = join(root, 'demo', file);
  }
  return inputs;
}

/** Moves the built `demo/activities/**` pages to `activities/**`, where the contract serves them. */
export function relocateActivityPages(outDir: string): void {
  const from = join(outDir, ACTIVITIES_SOURCE);
  for (const file of listFiles(from)) {
    const target = join(outDir, ACTIVITIES_SERVED, file);
    mkdirSync(dirname(target), { recursive: true });
    renameSync(join(from, file), target);
  }
  rmSync(from, { recursive: true, force: true });
  // Leave no empty `demo/` behind when the activities were its only pages.
  const demo = join(outDir, 'demo');
  if (existsSync(demo) && listFiles(demo).length === 0) rmSync(demo, { recursive: true });
}

/**
 * Rewrites a request path the way the built site and the service worker resolve it, so that a
 * page loaded before the worker controls it (first visit, hard reload) finds the same file.
 */
function sitePathMiddleware(rewriteActivities: boolean): Connect.NextHandleFunction {
  return (req, _res, next) => {
    if (!req.url) return next();
    const url = new URL(req.url, 'http://x');
    let path = stripProxyPrefix(url.pathname);
    if (rewriteActivities && path.startsWith(`/${ACTIVITIES_SERVED}/`)) path = `/demo${path}`;
    req.url = path + url.search;
    next();
  };
}

/** Dev and preview servers: `/.proxy/x` is `/x`; in dev `/activities/x/` is `demo/activities/x/`. */
export function sitePagesPlugin(): Plugin {
  return {
    name: 'platformpp:site-pages',
    configureServer(server) {
      server.middlewares.use(sitePathMiddleware(true));
    },
    configurePreviewServer(server) {
      server.middlewares.use(sitePathMiddleware(false));
    },
  };
}
