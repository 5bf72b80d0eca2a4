/**
 * Test projects: `unit` (node, fake-indexeddb), `unit-dom` (the unit files that run in a DOM),
 * `unit-sqlite` (the unit files whose
 * storage is the test store, again on the server's SQLite adapter), `browser` (vitest browser mode in
 * Debian's Chromium, served by the project's dev server so `/sw.js` exists), `offline` (node
 * tests that build the site, preview it and drive Chromium with playwright-core), `server` (the
 * server on workerd through Miniflare, with real clients) and `server-host` (a named part of
 * the unit HTTP suite run again against the server: one suite, two hosts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium.js';
import { sharedConfig } from './vite.config.js';

/** The module every unit test's storage comes from; `PLATFORMPP_STORE=sqlite` makes it SQLite. */
const TEST_STORAGE = resolve('test/unit/store/test-storage.ts');

/**
 * The unit test files that reach {@link TEST_STORAGE} through their relative imports: only they
 * run differently on SQLite, so only they run again in `unit-sqlite` (a file of pure functions,
 * components or the Vite plugin would repeat the same run).
 */
function testsOnTheTestStore(root = 'test/unit'): string[] {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => resolve(root, f));
  const importsOf = (file: string) =>
    [...readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) =>
      resolve(dirname(file), `${m[1]}.ts`),
    );
  const reaches = new Map<string, boolean>();
  const reachesStore = (file: string): boolean => {
    if (file === TEST_STORAGE) return true;
    if (!reaches.has(file)) {
      reaches.set(file, false); // an import circle does not reach it through itself
      reaches.set(
        file,
        importsOf(file).some((i) => files.includes(i) && reachesStore(i)),
      );
    }
    return reaches.get(file)!;
  };
  return files
    .filter((f) => f.endsWith('.test.ts') && reachesStore(f))
    .map((f) => join(root, f.slice(resolve(root).length + 1)));
}

/**
 * The unit HTTP and gateway test files that also run against the server (CONTRACT §7: the same
 * API, the same answers): the lobby, OAuth2, guild and message suites, the gateway suites, and
 * others whose every test speaks HTTP. A test client there is a sandbox of its own; what a test
 * reads or writes in the store goes through the test server's hooks (`server/test-hooks.ts`),
 * gateway clients are real WebSockets, and the few tests that look into the platform's objects
 * in this process (timers, a restarted gateway object, the read cache) are `itInProcess`.
 *
 * Not run there, each for one reason (the whole unit suite also runs on the server's SQLite
 * adapter in Node: the `unit-sqlite` project):
 * - `sw/lobby-message-reads`, `sw/lobby-message-write-cache`: they look into the service worker's
 *   read cache object itself (and the second calls the lobby operations in this process).
 * - `gateway/fan-out`: it counts the store's transactions and announcements inside the process.
 * - `gateway/client`, `gateway/log-tail`, `gateway/resume-marks`, `gateway/compressed-transport`:
 *   units of one class, no host (the server's compression is tested over real sockets in `test/server`).
 * - `gateway/voice-speaking`: it watches the voice gateway's own speaking watchers in this process.
 * - the other `sw/` files still read the app's internals directly; they run on SQLite in Node.
 */
const SERVER_HOST_SUITE = [
  ...['lobbies', 'lobby-linking', 'lobby-members', 'lobby-messages'].map((f) => `test/unit/sw/${f}.test.ts`),
  ...['oauth2', 'oauth2-openid', 'accounts-approvals'].map((f) => `test/unit/sw/${f}.test.ts`),
  ...['guild-admin', 'guild-admin-members', 'guild-admin-prune', 'guild-routes', 'guild-roles', 'guild-bans'].map(
    (f) => `test/unit/sw/${f}.test.ts`,
  ),
  'test/unit/sw/messages-*.test.ts',
  'test/unit/sw/message-moderation.test.ts',
  ...['threads', 'threads-gateway', 'threads-channels'].map((f) => `test/unit/sw/${f}.test.ts`),
  'test/unit/sw/api-versions.test.ts',
  ...['commands', 'modals', 'interactions-callback', 'interactions-webhooks'].map((f) => `test/unit/sw/${f}.test.ts`),
  ...['voice-states', 'game-relationships', 'sandbox-fixture-sets'].map((f) => `test/unit/sw/${f}.test.ts`),
  ...['applications', 'users-get', 'guild-object', 'create-dm'].map((f) => `test/unit/sw/${f}.test.ts`),
  'test/unit/sw/activity-instances.test.ts',
  'test/unit/sw/guild-settings.test.ts',
  'test/unit/sw/scheduled-events.test.ts',
  'test/unit/sw/current-user.test.ts',
  'test/unit/sw/application-edits.test.ts',
  'test/unit/sw/command-permissions.test.ts',
  'test/unit/sw/voice-regions.test.ts',
  'test/unit/sw/role-connections.test.ts',
  'test/unit/sw/server-mappings.test.ts',
  'test/unit/gateway/*.test.ts',
  ...['faults', 'rate-limits'].map((f) => `test/unit/sw/${f}.test.ts`),
  ...['guild-community', 'guild-community-more'].map((f) => `test/unit/sw/${f}.test.ts`),
  ...['channel-webhooks', 'channels-manage', 'channels-gateway'].map((f) => `test/unit/sw/${f}.test.ts`),
  'test/unit/sw/group-dms.test.ts',
];

/** The files of {@link SERVER_HOST_SUITE}'s globs that do not run there (see above). */
const NOT_ON_SERVER_HOST = [
  'test/unit/gateway/fan-out.test.ts',
  'test/unit/gateway/client.test.ts',
  'test/unit/gateway/log-tail.test.ts',
  'test/unit/gateway/resume-marks.test.ts',
  'test/unit/gateway/voice-speaking.test.ts',
  'test/unit/gateway/compressed-transport.test.ts',
];

/**
 * The unit projects' files are CPU-bound JavaScript with nothing to wait for, so they take every
 * core (vitest's default leaves one free, which on a 2-core machine runs them one at a time). They
 * run as a group of their own, after the projects that drive browsers, and with the server
 * projects: a server file spends most of its time waiting on sockets, heartbeats and an object's
 * eviction, which a unit file beside it fills with work. The browser-driving projects keep the
 * default, one file at a time.
 */
const ALL_CORES_GROUP = { maxWorkers: Math.max(2, availableParallelism()), sequence: { groupOrder: 1 } };

/**
 * The unit files that run in a DOM (happy-dom's environment, or a `Window` of their own put on
 * `globalThis`, whose `Event` would reach the next file): they run one module graph each (`unit-dom`). The
 * other unit files share their worker's modules from file to file (`isolate: false`): each file
 * builds its own world in a store of its own, and importing the app, valibot and the official
 * description's schemas once per worker instead of once per file saves minutes of every run.
 */
const DOM_UNIT_FILES = ['test/unit/components/*.test.ts', 'test/unit/vite/faults-panel.test.ts'];

export default defineConfig({
  ...sharedConfig,
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: DOM_UNIT_FILES,
          ...ALL_CORES_GROUP,
          isolate: false,
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
          name: 'unit-dom',
          include: DOM_UNIT_FILES,
          ...ALL_CORES_GROUP,
          environment: 'node',
          setupFiles: ['fake-indexeddb/auto'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          // The same files on the server's engine: SQLite (better-sqlite3, in memory), one storage
          // shared by the app and the gateway as in a Durable Object.
          name: 'unit-sqlite',
          include: testsOnTheTestStore(),
          ...ALL_CORES_GROUP,
          isolate: false,
          environment: 'node',
          setupFiles: ['fake-indexeddb/auto'],
          env: { PLATFORMPP_STORE: 'sqlite' },
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
          ...ALL_CORES_GROUP,
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
          exclude: NOT_ON_SERVER_HOST,
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
