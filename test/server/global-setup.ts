/**
 * Builds the server's Worker once for the server tests, into its own directory (a `dist/` the
 * developer built is left alone), and starts one server (with the test hooks) that the HTTP
 * suite's server host (`PLATFORMPP_HOST=server`) sends its requests to, one sandbox per test
 * client.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../scripts/build-server.js';
import { startServer } from '../../server/start.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Worker built for the server tests. */
    serverWorkerPath: string;
    /** A running server shared by the test files of the server host. */
    sharedServerUrl: string;
  }
}

const OUT_DIR = 'test-results/server-dist';
let stop: (() => Promise<void>) | undefined;

export async function setup(project: TestProject): Promise<void> {
  const workerPath = await buildServer({ quiet: true, outDir: OUT_DIR });
  project.provide('serverWorkerPath', workerPath);
  // The HTTP suite's server host reads each sandbox's store through the test hooks.
  const server = await startServer({ port: 0, workerPath, testHooks: true });
  stop = server.stop;
  project.provide('sharedServerUrl', server.url);
}

export async function teardown(): Promise<void> {
  await stop?.();
  rmSync(OUT_DIR, { recursive: true, force: true });
}
