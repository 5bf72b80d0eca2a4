/**
 * What the tests of pages joining a server (CONTRACT §7) start before their tests and stop after
 * them: the platform server through Miniflare (built into `workerDir`), the built site, and
 * Chromium, whose contexts are the "machines".
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildServer } from '../../scripts/build-server.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { ROOT } from './demo-page';
import { launchChromium, serveSite, type SiteServer } from './site-server';

/** The running hosts, set once the suite's `beforeAll` has run. */
export interface ServerHosts {
  server: RunningServer;
  site: SiteServer;
  browser: Browser;
}

/**
 * Starts the server, the site and Chromium in the calling suite's `beforeAll`, and stops them
 * (and removes the built server) in its `afterAll`.
 * @example const hosts = serverHosts('test-results/my-suite-dist'); ... hosts.server.url
 */
export function serverHosts(workerDir: string): ServerHosts {
  const hosts = {} as ServerHosts;
  beforeAll(async () => {
    const workerPath = await buildServer({ quiet: true, outDir: workerDir });
    hosts.server = await startServer({ port: 0, workerPath });
    hosts.site = await serveSite(ROOT, inject('offlineSiteDir'));
    hosts.browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await hosts.browser?.close();
    await hosts.site?.server.close();
    await hosts.server?.stop();
    rmSync(join(ROOT, workerDir), { recursive: true, force: true });
  });
  return hosts;
}
