/**
 * Serves the service worker at `/sw.js` (scope `/`): transformed from `sw/sw.ts` by the dev
 * server, and built after the site into two classic scripts: `dist/sw.js`, what every start of
 * the worker runs (with the list of built files for workbox-precaching), and the platform's
 * other routes, which it precaches and runs on first use (`buildServiceWorker`).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Plugin, type ResolvedConfig, runnerImport } from 'vite';
import type { RouteEntry } from '../../sw/app-frame.js';
import { listFiles, relocateActivityPages } from './site-pages.js';
import { BUILD_CHECKS } from './build-checks.js';

/** The service worker's source, relative to the project root. */
export const SERVICE_WORKER_SOURCE = 'sw/sw.ts';
/** The URL the page registers; at the root so that its scope can be `/`. */
export const SERVICE_WORKER_URL = '/sw.js';

/** One workbox-precaching manifest entry. */
export interface PrecacheEntry {
  url: string;
  revision: string;
}

/**
 * Every file of the built site (except the worker itself and source maps) with a content hash
 * as its revision, so a changed file is fetched again and an unchanged one is not.
 */
export function precacheManifest(outDir: string, base: string): PrecacheEntry[] {
  return listFiles(outDir)
    .filter((file) => file !== 'sw.js' && !file.endsWith('.map'))
    .sort()
    .map((file) => ({
      url: base + file,
      revision: createHash('sha256')
        .update(readFileSync(join(outDir, file)))
        .digest('hex')
        .slice(0, 20),
    }));
}

/** The module the worker reaches the platform's routes through (`sw/route-script.ts` under the dev server). */
const ROUTE_SCRIPT_MODULE = 'sw/route-script.ts';
/** The entry of the routes' script, and the global it sets in the worker. */
const ROUTE_SCRIPT_ENTRY = 'sw/route-script-entry.ts';
const ROUTE_SCRIPT_GLOBAL = 'platformppRoutes';
/** The global the start-up script sets: the modules the routes' script shares with it. */
const START_GLOBAL = 'platformppServiceWorker';
const VIRTUAL_ROUTE_SCRIPT = '\0platformpp:route-script';
const VIRTUAL_START_ENTRY = '\0platformpp:sw-start';
/** The start-up script's entry as library mode names it (a path under the root; no such file). */
const START_ENTRY_NAME = 'platformpp-sw-start.js';
/**
 * Modules the routes' script carries its own copy of rather than share: stateless, and exposing
 * one whole would keep every export of it in the start-up script (valibot is one module).
 */
const COPIED_MODULES = /\/node_modules\/valibot\/|\/src\/platform\/core\/limits\.ts$/;

/** The shared settings of the worker's builds: minified classic scripts, nothing of the project's config. */
function workerBuild(
  config: Pick<ResolvedConfig, 'root' | 'mode' | 'build'>,
  options: {
    entry: string;
    name: string;
    define?: Record<string, string>;
    plugins?: Plugin[];
    external?: (id: string) => boolean;
    globals?: (id: string) => string;
  },
) {
  return build({
    // Not the project's config: its plugins would build the worker again from this build.
    configFile: false,
    root: config.root,
    mode: config.mode,
    logLevel: 'warn',
    plugins: options.plugins,
    define: {
      ...options.define,
      // Library mode keeps `process.env.NODE_ENV` for consumers; workbox reads it, a worker has no `process`.
      'process.env.NODE_ENV': JSON.stringify('production'),
    },
    build: {
      write: false,
      sourcemap: Boolean(config.build.sourcemap),
      // Library mode does not minify ES output by default; the worker is fetched on every update check.
      minify: true,
      // A classic script, not an ES module: Chromium keeps the compiled code of a classic service
      // worker from its install on, and compiles a module worker again on every start (about a
      // third of a start after a stop). Having no imports, the start-up script also runs as a module.
      lib: { entry: options.entry, formats: ['iife'], name: options.name, fileName: () => 'out.js' },
      // A service worker may not `import()`: a script has everything it does not share. Library
      // mode keeps an ES build's whitespace (for a consumer's bundler); the worker is no library,
      // so its whitespace goes too: 10% fewer bytes to fetch and compile on every start.
      rolldownOptions: {
        external: options.external && ((id, _importer, resolved) => resolved && options.external!(id)),
        output: { codeSplitting: false, minify: true, globals: options.globals },
        checks: BUILD_CHECKS,
      },
    },
  }).then((result) => {
    const outputs = Array.isArray(result) ? result : [result];
    const chunk = outputs.flatMap((o) => ('output' in o ? o.output : [])).find((o) => o.type === 'chunk');
    if (!chunk) throw new Error(`building ${options.entry} wrote no script`);
    return chunk;
  });
}

/**
 * The module the start-up script reaches the routes through: their paths (to tell which requests
 * are the platform's without loading them), and the script itself, imported on first use.
 */
function routeScriptPlugin(root: string, script: string, routes: RouteEntry[], entry?: string): Plugin {
  const routeModule = resolve(root, ROUTE_SCRIPT_MODULE);
  const frame = resolve(root, 'sw/app-frame.ts');
  return {
    name: 'platformpp:route-script',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (entry && source.endsWith(START_ENTRY_NAME)) return VIRTUAL_START_ENTRY;
      if (source === VIRTUAL_ROUTE_SCRIPT) return source;
      if (!importer || !source.startsWith('.')) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      return resolved?.id === routeModule ? VIRTUAL_ROUTE_SCRIPT : null;
    },
    load(id) {
      if (id === VIRTUAL_START_ENTRY) return entry;
      if (id !== VIRTUAL_ROUTE_SCRIPT) return null;
      // The paths by method, each parameter named alike (the table matches any value there).
      const byMethod: Record<string, string[]> = {};
      for (const { method, path } of routes) {
        const paths = (byMethod[method] ??= []);
        const general = path.replace(/:[A-Za-z0-9_]+/g, ':p');
        if (!paths.includes(general)) paths.push(general);
      }
      return [
        `import { routeTable } from ${JSON.stringify(frame)};`,
        `const byMethod = ${JSON.stringify(byMethod)};`,
        // Built on first use: a start asks only for an unversioned `/api/...` path (`ownsPath`).
        'let table;',
        'const routes = () => Object.entries(byMethod).flatMap(([method, paths]) => paths.map((path) => ({ method, path })));',
        `const url = new URL(${JSON.stringify(script)}, self.location.href).href;`,
        // From the precache (offline too), else the network (a precache cleared under the worker).
        'const read = async () => {',
        '  const response = (await caches.match(url, { ignoreSearch: true, ignoreVary: true })) ?? (await fetch(url));',
        '  if (!response.ok) throw new Error(`${url} answered ${response.status}`);',
        '  return response.text();',
        '};',
        'let loaded;',
        // Not importScripts: a start may import only what its install did, and the browser hands
        // every script an install imported to every start, whether it runs it or not. Run in the
        // worker's global scope (an indirect eval), the script sets its global there.
        `const run = (code) => ((0, eval)(code + '\\n//# sourceURL=' + url), self.${ROUTE_SCRIPT_GLOBAL});`,
        'const load = () => (loaded ??= read().then(run, (error) => { loaded = undefined; throw error; }));',
        'export const routeScript = { hasRoute: (path) => (table ??= routeTable({ routes: routes() })).methodsFor(path).length > 0, load };',
      ].join('\n');
    },
  };
}

/**
 * Builds the service worker into `<outDir>` (the config's own by default): `sw.js`, the start-up
 * script with the precache manifest compiled in (`manifest` is asked once the other script is
 * written), and `sw-routes-<hash>.js`, the platform's routes but the lobbies', which `sw.js`
 * precaches while it installs and runs from the precache on first use. Both are classic scripts (register `sw.js`
 * with `type: 'classic'`, the default); the routes' script uses the modules of `sw.js` that it
 * needs, which `sw.js` hands it through one global.
 */
export async function buildServiceWorker(
  config: Pick<ResolvedConfig, 'root' | 'mode' | 'build'>,
  manifest: () => PrecacheEntry[],
  outDir = resolve(config.root, config.build.outDir),
): Promise<void> {
  const root = config.root;
  const { module } = await runnerImport<{ platformRouteList(withGateway: boolean): RouteEntry[] }>(
    resolve(root, 'sw/app.ts'),
    { configFile: false, root, logLevel: 'warn' },
  );
  const routes = module.platformRouteList(false);
  const define = { __PRECACHE_MANIFEST__: '[]' };
  const swEntry = resolve(root, SERVICE_WORKER_SOURCE);
  // What the start-up script holds, so that the routes' script takes those modules from it.
  const first = await workerBuild(config, {
    entry: swEntry,
    name: START_GLOBAL,
    define,
    plugins: [routeScriptPlugin(root, '', routes)],
  });
  const startModules = Object.keys(first.modules)
    .filter((id) => !id.startsWith('\0') && !COPIED_MODULES.test(id))
    .sort();
  const keyOf = new Map(startModules.map((id, index) => [id, `m${index}`]));
  // The modules the routes' script takes from sw.js: those whose global its output names.
  const shared = new Set<string>();
  const routeScript = await workerBuild(config, {
    entry: resolve(root, ROUTE_SCRIPT_ENTRY),
    name: ROUTE_SCRIPT_GLOBAL,
    external: (id) => keyOf.has(id),
    globals: (id) => {
      const key = keyOf.get(id);
      if (!key) throw new Error(`the routes' script imports ${id}, which sw.js does not hold`);
      shared.add(id);
      return `${START_GLOBAL}.${key}`;
    },
  });
  // A new name for new contents: the browser compares sw.js on every update check, and finds the new routes there.
  const hash = createHash('sha256').update(routeScript.code).digest('hex').slice(0, 10);
  const scriptName = `sw-routes-${hash}.js`;
  for (const file of readdirSync(outDir))
    if (/^sw-routes-[0-9a-f]+\.js(?:\.map)?$/.test(file)) rmSync(join(outDir, file));
  writeScript(outDir, scriptName, routeScript);
  const entry = [
    `import ${JSON.stringify(swEntry)};`,
    ...[...shared].map((id) => `export * as ${keyOf.get(id)} from ${JSON.stringify(id)};`),
  ].join('\n');
  const start = await workerBuild(config, {
    entry: resolve(root, START_ENTRY_NAME),
    name: START_GLOBAL,
    define: { __PRECACHE_MANIFEST__: JSON.stringify(withScript(manifest(), scriptName)) },
    plugins: [routeScriptPlugin(root, scriptName, routes, entry)],
  });
  writeScript(outDir, 'sw.js', start);
}

/**
 * The manifest with the routes' script in it: a start runs that script from the precache, so a
 * worker whose site precaches nothing (the package's) still precaches it. Its name changes with
 * its contents: the URL is its revision.
 */
function withScript(manifest: PrecacheEntry[], scriptName: string): Array<{ url: string; revision: string | null }> {
  const listed = manifest.some((entry) => entry.url === scriptName || entry.url.endsWith(`/${scriptName}`));
  return listed ? manifest : [...manifest, { url: scriptName, revision: null }];
}

/** Writes a built script under its name, and its source map beside it when the build made one. */
function writeScript(outDir: string, name: string, script: { code: string; map: { toString(): string } | null }): void {
  let code = script.code;
  if (script.map) {
    code = code.replace(/\/\/# sourceMappingURL=\S+\s*$/, `//# sourceMappingURL=${name}.map\n`);
    writeFileSync(join(outDir, `${name}.map`), script.map.toString());
  }
  writeFileSync(join(outDir, name), code);
}

/** Dev: `/sw.js` is the transformed `sw/sw.ts`. Build: `dist/sw.js` is built after the site. */
export function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'platformpp:service-worker',
    // The pages register `/sw.js` as a module only where it is `sw/sw.ts` (this dev server):
    // built, it is a classic script (`src/components/service-worker-restart.ts`).
    config: (_config, { command }) => ({
      define: { __PLATFORMPP_SOURCE_SERVICE_WORKER__: JSON.stringify(command === 'serve') },
    }),
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if (req.url?.split('?')[0] !== SERVICE_WORKER_URL) return next();
        try {
          const result = await server.environments.client.transformRequest('/' + SERVICE_WORKER_SOURCE);
          if (!result) return next();
          res.setHeader('Content-Type', 'text/javascript');
          // The browser compares the script on every navigation: never serve a stale one.
          res.setHeader('Cache-Control', 'no-cache');
          res.end(result.code);
        } catch (error) {
          next(error);
        }
      });
    },
    writeBundle: {
      // Runs after every other plugin's writeBundle so the manifest lists the final files.
      order: 'post',
      sequential: true,
      async handler() {
        if (config.build.lib || config.build.ssr) return;
        const outDir = resolve(config.root, config.build.outDir);
        relocateActivityPages(outDir);
        let files = 0;
        await buildServiceWorker(config, () => {
          const manifest = precacheManifest(outDir, config.base);
          files = manifest.length;
          return manifest;
        });
        config.logger.info(`${config.build.outDir}/sw.js precaches ${files} files`);
      },
    },
  };
}
