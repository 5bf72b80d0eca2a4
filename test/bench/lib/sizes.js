// @ts-check
/**
 * Phase 6, size: each SDK bundled the same way (a Vite/rolldown library build, ES, minified,
 * every dependency bundled, `process.env.NODE_ENV` = production), then gzipped (level 9); the
 * service worker and the shared worker as built.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

/** @param {string | Uint8Array} code */
function measure(code) {
  const bytes = typeof code === 'string' ? Buffer.from(code) : Buffer.from(code);
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/**
 * Bundles one entry module; `entry` is what loads on the import, `all` adds the chunks it may
 * load later (dynamic imports).
 * @param {string} root @param {string} entryFile
 */
async function bundle(root, entryFile) {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    publicDir: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      lib: { entry: entryFile, formats: ['es'], fileName: () => 'entry.js' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => /** @type {any} */ (r).output);
  const chunks = outputs.filter((o) => o.type === 'chunk');
  const entry = chunks.find((c) => c.isEntry);
  return { entry: measure(entry.code), all: measure(chunks.map((c) => c.code).join('\n')), chunks: chunks.length };
}

/**
 * @param {{ root: string, cacheDir: string, benchSiteDir: string }} options
 */
export async function measureSizes({ root, cacheDir, benchSiteDir }) {
  const entries = join(cacheDir, 'entries');
  mkdirSync(entries, { recursive: true });
  /** @param {string} name @param {string} source */
  const entry = (name, source) => {
    const file = join(entries, name);
    writeFileSync(file, source);
    return file;
  };
  const src = (/** @type {string} */ path) => JSON.stringify(resolve(root, path));
  const bundles = {
    activity_equivalent: await bundle(
      root,
      entry('activity-equivalent.js', `export { ActivitySdk } from ${src('src/activity/index.ts')};\n`),
    ),
    activity_entry: await bundle(root, resolve(root, 'src/activity/index.ts')),
    public_sdk_equivalent: await bundle(
      root,
      entry('public-sdk-equivalent.js', "export { DiscordSDK } from '@discord/embedded-app-sdk';\n"),
    ),
    game_sdk_entry: await bundle(root, resolve(root, 'src/sdk/index.ts')),
  };
  const sw = measure(readFileSync(resolve(root, 'dist/sw.js')));
  // The platform's routes but the lobbies', which dist/sw.js runs from its precache on first use.
  const routesFile = readdirSync(resolve(root, 'dist')).find((f) => /^sw-routes-[0-9a-f]+\.js$/.test(f));
  const swRoutes = routesFile ? measure(readFileSync(resolve(root, 'dist', routesFile))) : { min: 0, gzip: 0 };
  // The site's own hub worker when its pages start one; else the one built from the same source for the bench pages.
  /** @param {string} dir */
  const hubIn = (dir) => (existsSync(dir) ? readdirSync(dir).find((f) => /^hub-worker.*\.js$/.test(f)) : undefined);
  const siteHub = hubIn(resolve(root, 'dist/assets'));
  const hubFile = siteHub
    ? resolve(root, 'dist/assets', siteHub)
    : join(benchSiteDir, 'assets', /** @type {string} */ (hubIn(join(benchSiteDir, 'assets'))));
  const hub = measure(readFileSync(hubFile));
  // The hub's core (the store and the gateways), which its entry imports once it answers.
  const coreName = readdirSync(dirname(hubFile)).find((f) => /^hub-core-[\w-]+\.js$/.test(f));
  const core = coreName ? measure(readFileSync(join(dirname(hubFile), coreName))) : { min: 0, gzip: 0 };
  return {
    ...bundles,
    service_worker: sw,
    service_worker_total: {
      min: sw.min + swRoutes.min,
      gzip: sw.gzip + swRoutes.gzip,
      routes_file: routesFile ?? null,
    },
    shared_worker: { ...hub, file: siteHub ? `dist/assets/${siteHub}` : `bench build of src/hub/hub-worker.ts` },
    shared_worker_total: { min: hub.min + core.min, gzip: hub.gzip + core.gzip, core_file: coreName ?? null },
  };
}
