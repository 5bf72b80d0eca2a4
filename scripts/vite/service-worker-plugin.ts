/**
 * Serves the service worker at `/sw.js` (scope `/`): transformed from `sw/sw.ts` by the dev
 * server, and built after the site into one self-contained ES module `dist/sw.js` that carries
 * the list of built files for workbox-precaching.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Plugin, type ResolvedConfig } from 'vite';
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

/**
 * Builds `sw/sw.ts` into `<outDir>/sw.js` (the config's own by default) with the manifest compiled
 * in: one self-contained classic script (register it with `type: 'classic'`, the default).
 */
export async function buildServiceWorker(
  config: Pick<ResolvedConfig, 'root' | 'mode' | 'build'>,
  manifest: PrecacheEntry[],
  outDir = resolve(config.root, config.build.outDir),
): Promise<void> {
  await build({
    // Not the project's config: its plugins would build the worker again from this build.
    configFile: false,
    root: config.root,
    mode: config.mode,
    logLevel: 'warn',
    define: {
      __PRECACHE_MANIFEST__: JSON.stringify(manifest),
      // Library mode keeps `process.env.NODE_ENV` for consumers; workbox reads it, a worker has no `process`.
      'process.env.NODE_ENV': JSON.stringify('production'),
    },
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      sourcemap: config.build.sourcemap,
      // Library mode does not minify ES output by default; the worker is fetched on every update check.
      minify: true,
      // A classic script, not an ES module: Chromium keeps the compiled code of a classic service
      // worker from its install on, and compiles a module worker again on every start (about a
      // third of a start after a stop). Having no imports, the one file also runs as a module.
      lib: {
        entry: resolve(config.root, SERVICE_WORKER_SOURCE),
        formats: ['iife'],
        name: 'platformppServiceWorker',
        fileName: () => 'sw.js',
      },
      // A service worker may not `import()`: everything goes into the one file. Library mode keeps
      // an ES build's whitespace (for a consumer's bundler); the worker is no library, so its
      // whitespace goes too: 10% fewer bytes to fetch and compile on every start.
      rolldownOptions: { output: { codeSplitting: false, minify: true }, checks: BUILD_CHECKS },
    },
  });
}

/** Dev: `/sw.js` is the transformed `sw/sw.ts`. Build: `dist/sw.js` is built after the site. */
export function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'platformpp:service-worker',
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
        const manifest = precacheManifest(outDir, config.base);
        await buildServiceWorker(config, manifest);
        config.logger.info(`${config.build.outDir}/sw.js precaches ${manifest.length} files`);
      },
    },
  };
}
