#!/usr/bin/env node
// @ts-check
/**
 * Builds the server's Worker (`server/worker.ts`, the platform, hono and valibot) into one ES
 * module, `dist/server/worker.js`, which Miniflare runs locally (`platformpp-web serve`) and
 * which the package ships. Wrangler bundles the same entry itself when it deploys.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Builds the Worker; resolves with the path of the module it wrote. */
export async function buildServer({ quiet = false } = {}) {
  await build({
    root,
    configFile: false,
    logLevel: quiet ? 'warn' : 'info',
    publicDir: false,
    build: {
      outDir: 'dist/server',
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      sourcemap: false,
      lib: { entry: 'server/worker.ts', formats: ['es'], fileName: () => 'worker.js' },
      rolldownOptions: { external: ['cloudflare:workers'] },
    },
  });
  return fileURLToPath(new URL('../dist/server/worker.js', import.meta.url));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
