/**
 * Three test projects: `unit` (node or happy-dom, fake-indexeddb), `browser` (vitest browser
 * mode in Debian's Chromium, served by the project's dev server so `/sw.js` exists) and
 * `offline` (node tests that build the site, preview it and drive Chromium with playwright-core).
 */
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium.js';
import { sharedConfig } from './vite.config.js';

export default defineConfig({
  ...sharedConfig,
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['fake-indexeddb/auto'],
          // Some tests drive whole flows (uploads, many sessions) on fake-indexeddb: on a loaded
          // 2-core machine they need more than the default 5 s, which says nothing about speed.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // One service worker and one IndexedDB per origin: test files take turns.
          fileParallelism: false,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS } }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
      {
        test: {
          name: 'offline',
          root: sharedConfig.root,
          include: ['test/offline/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/offline/global-setup.ts'],
          // A build, a browser launch and a service worker install per file.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
