/**
 * One Vite project for the whole platform. `vite` serves the host page, the demo pages and the
 * service worker (`/sw.js`); `vite build` writes the site plus `dist/sw.js` to `dist/`;
 * `vite build --mode lib` writes the library entry points to `dist/lib/`, and beside it the
 * sandbox of the Vite plugin (`dist/sandbox/`) and the plugin (`dist/vite/`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import { packageBuildsPlugin } from './scripts/vite/package-builds.js';
import { BUILD_CHECKS } from './scripts/vite/build-checks.js';
import { serviceWorkerPlugin } from './scripts/vite/service-worker-plugin.js';
import { siteInputs, sitePagesPlugin } from './scripts/vite/site-pages.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
};

/** Cross-origin isolation, so that `performance.now()` has 5 µs resolution instead of 100 µs. */
const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** The library's public entry points: `dist/lib/<name>.js`. */
const LIBRARY_ENTRIES = {
  index: 'src/index.ts',
  activity: 'src/activity/index.ts',
  sdk: 'src/sdk/index.ts',
  components: 'src/components/index.ts',
};

/** A consumer installs the dependencies; the library must not carry its own copies. */
const external = Object.keys(pkg.dependencies ?? {}).map((name) => new RegExp(`^${name}(/|$)`));

/** The service worker and the shared worker import these; the pages under test do not. */
export const WORKER_DEPENDENCIES = [
  'idb',
  'hono',
  'valibot',
  'workbox-precaching',
  'workbox-routing',
  'comlink',
  'lit',
  'workbox-window',
  'jose',
];

/** Settings shared by the site, the library and the browser tests. */
export const sharedConfig: UserConfig = {
  root,
  plugins: [sitePagesPlugin(), serviceWorkerPlugin()],
  optimizeDeps: {
    // The workers are nobody's import, so the dependency scan would miss what they use, find it
    // late, re-optimize and reload the page under test: scan them from the start as well.
    entries: ['index.html', 'demo/**/*.html', 'sw/sw.ts', 'src/hub/**/*.ts'],
    include: WORKER_DEPENDENCIES,
  },
  worker: { format: 'es' },
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
};

export default defineConfig(({ mode }) => {
  if (mode === 'lib') {
    return {
      ...sharedConfig,
      // The shared worker is found next to the library's files, wherever a consumer serves them.
      base: './',
      plugins: [packageBuildsPlugin()],
      build: {
        outDir: 'dist/lib',
        emptyOutDir: true,
        copyPublicDir: false,
        sourcemap: true,
        lib: { entry: LIBRARY_ENTRIES, formats: ['es'], fileName: (_format, name) => `${name}.js` },
        rolldownOptions: { external, checks: BUILD_CHECKS },
      },
    };
  }
  return {
    ...sharedConfig,
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      rolldownOptions: {
        input: siteInputs(root),
        // The game SDK loads the consent dialog lazily so that a game importing it alone does not
        // pull in lit (the split happens in the library build, dist/lib/sdk.js). The site's host
        // page holds the SDK and the components together, so there the dialog is loaded already
        // and the lazy import has nothing to split: expected, not worth a warning on every build.
        checks: { ...BUILD_CHECKS, ineffectiveDynamicImport: false },
      },
    },
  };
});
