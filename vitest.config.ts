/**
 * Test projects: `unit` (node or happy-dom, fake-indexeddb), `browser` (vitest browser mode in
 * Debian's Chromium, served by the project's dev server so `/sw.js` exists), `offline` (node
 * tests that build the site, preview it and drive Chromium with playwright-core), `server` (the
 * server on workerd through Miniflare, with real clients) and `server-host` (a named part of
 * the unit HTTP suite run again against the server: one suite, two hosts).
 */
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium.js';
import { sharedConfig } from './vite.config.js';

/**
 * The unit HTTP test files that also run against the server (CONTRACT §7: the same API, the
 * same answers): every test in them speaks HTTP only, so they run unchanged over the network.
 * They cover application commands (permissions, limits, validation), modals and their
 * components, guild message search, and privileged intent approvals. The other unit files have
 * tests that look into the app's store, timers or announcements, which a server does not
 * expose: the whole unit suite runs on the server's SQLite adapter in Node instead
 * (`PLATFORMPP_STORE=sqlite npx vitest run --project unit`), and `test/server/` covers what only
 * the server has (real WebSockets, discord.js, sandboxes, durability).
 */
const SERVER_HOST_SUITE = [
  'test/unit/sw/accounts-approvals.test.ts',
  'test/unit/sw/commands.test.ts',
  'test/unit/sw/messages-search.test.ts',
  'test/unit/sw/modals.test.ts',
];

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
          name: 'server',
          root: sharedConfig.root,
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/server/global-setup.ts'],
          // Real processes (workerd, Chromium) per file on a shared 2-core machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-host',
          root: sharedConfig.root,
          include: SERVER_HOST_SUITE,
          environment: 'node',
          env: { PLATFORMPP_HOST: 'server' },
          globalSetup: ['test/server/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
