#!/usr/bin/env node
// @ts-check
/**
 * Builds the server's Worker (`server/worker.ts`, the platform, hono and valibot) into one ES
 * module, `dist/server/worker.js`, which Miniflare runs locally (`platformpp-web serve`) and
 * which the package ships. Wrangler bundles the same entry itself when it deploys.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds the Worker into `outDir` (relative to the project); resolves with the path of the module it wrote.
 * With `perModule`, every source module is written as its own file under its own path (the entry
 * is then `server/worker.mjs`, ES modules by their extension), so that a CPU profile names the file of each function.
 * @param {{ quiet?: boolean, outDir?: string, perModule?: boolean }} [options]
 */
export async function buildServer({ quiet = false, outDir = 'dist/server', perModule = false } = {}) {
  await build({
    root,
    configFile: false,
    logLevel: quiet ? 'warn' : 'info',
    publicDir: false,
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      sourcemap: false,
      lib: { entry: 'server/worker.ts', formats: ['es'], fileName: () => 'worker.js' },
      // The runtime's own modules: workerd's (and its Node compatibility's `node:zlib`).
      rolldownOptions: {
        external: ['cloudflare:workers', /^node:/],
        ...(perModule
          ? { output: { preserveModules: true, preserveModulesRoot: root, entryFileNames: '[name].mjs' } }
          : {}),
      },
    },
  });
  return resolve(root, outDir, perModule ? 'server/worker.mjs' : 'worker.js');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
