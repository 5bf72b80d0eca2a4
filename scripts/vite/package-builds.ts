/**
 * What `npm pack` ships besides the library (`dist/lib`), built after it by `vite build --mode
 * lib` into sibling directories:
 * - `dist/sandbox/`: the sandbox that `platformpp()` serves at `/__platformpp/`: the host page's
 *   script with everything it needs inside (`host.js`, no bare import left, so any server can
 *   serve it as a file), the shared worker beside it, and the service worker (`sw.js`, nothing
 *   precached: the activity's dev server serves the activity);
 * - `dist/vite/`: the Vite plugin itself (`platformpp-web/vite`), for Node, `vite` left external.
 */
import { resolve } from 'node:path';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { buildServiceWorker } from './service-worker-plugin.js';

/** The host page's entry and the plugin's, relative to the project root. */
export const SANDBOX_HOST_SOURCE = 'src/vite/host/main.ts';
export const VITE_PLUGIN_SOURCE = 'src/vite/index.ts';

/** Builds the host page's script into `outDir/host.js`, every dependency bundled. */
async function buildSandboxHost(root: string, outDir: string, sourcemap: boolean): Promise<void> {
  await build({
    configFile: false,
    root,
    // The shared worker is found next to host.js wherever the package is served from.
    base: './',
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    worker: { format: 'es' },
    build: {
      outDir,
      emptyOutDir: true,
      copyPublicDir: false,
      sourcemap,
      minify: true,
      lib: { entry: resolve(root, SANDBOX_HOST_SOURCE), formats: ['es'], fileName: () => 'host.js' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
}

/** Builds the Vite plugin for Node into `outDir/index.js`. */
async function buildVitePlugin(root: string, outDir: string): Promise<void> {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      copyPublicDir: false,
      minify: false,
      ssr: resolve(root, VITE_PLUGIN_SOURCE),
      rolldownOptions: { external: [/^node:/, /^vite(\/|$)/], output: { entryFileNames: 'index.js' } },
    },
  });
}

/** In library mode: after the library is written, the sandbox and the plugin beside it. */
export function packageBuildsPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'platformpp:package-builds',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const dist = resolve(config.root, config.build.outDir, '..');
        const sandbox = resolve(dist, 'sandbox');
        await buildSandboxHost(config.root, sandbox, Boolean(config.build.sourcemap));
        await buildServiceWorker(config, () => [], sandbox);
        await buildVitePlugin(config.root, resolve(dist, 'vite'));
      },
    },
  };
}
