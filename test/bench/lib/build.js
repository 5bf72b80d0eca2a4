// @ts-check
/**
 * Builds the bench pages (`test/bench/pages/**.html`) with Vite into a cache folder served at
 * `/bench/`, never into `dist/`: the site under test stays exactly what `vite build` made. The
 * pages import the platform's own modules (GatewaySocket, `<pp-platform>`), so the shared
 * worker they start is built here from `src/hub/hub-worker.ts` with the project's worker format.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'vite';

/**
 * @param {string} dir @returns {string[]} every `.html` file under `dir`
 */
function htmlFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Builds the pages into `outDir` and copies the bench's service workers next to their pages.
 * @param {{ root: string, outDir: string }} options
 */
export async function buildBenchPages({ root, outDir }) {
  const pagesRoot = resolve(root, 'test/bench/pages');
  const input = Object.fromEntries(
    htmlFiles(pagesRoot).map((file) => [
      relative(pagesRoot, file)
        .replace(/[\\/]/g, '-')
        .replace(/\.html$/, ''),
      file,
    ]),
  );
  await build({
    configFile: false,
    root: pagesRoot,
    base: '/bench/',
    logLevel: 'warn',
    publicDir: false,
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, rolldownOptions: { input } },
  });
  mkdirSync(join(outDir, 'floor'), { recursive: true });
  mkdirSync(join(outDir, 'msw'), { recursive: true });
  mkdirSync(join(outDir, 'blank'), { recursive: true });
  for (const scope of ['pass', 'sw']) mkdirSync(join(outDir, `startup/${scope}`), { recursive: true });
  copyFileSync(resolve(root, 'test/bench/floor-sw.js'), join(outDir, 'floor/floor-sw.js'));
  copyFileSync(resolve(root, 'test/bench/floor-hub.js'), join(outDir, 'floor/floor-hub.js'));
  copyFileSync(resolve(root, 'test/bench/blank-sw.js'), join(outDir, 'blank/blank-sw.js'));
  copyFileSync(resolve(root, 'node_modules/msw/lib/mockServiceWorker.js'), join(outDir, 'msw/mockServiceWorker.js'));
  // The start-up frames fetch a small file from the network through the worker of their scope.
  copyFileSync(resolve(root, 'test/bench/pass-sw.js'), join(outDir, 'startup/pass-sw.js'));
  for (const scope of ['pass', 'sw']) writeFileSync(join(outDir, `startup/${scope}/data.json`), '{"passed":true}\n');
}
