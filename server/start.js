// @ts-check
/**
 * Starts the server locally: the built Worker (`dist/server/worker.js`) on workerd through
 * Miniflare, with SQLite-backed Durable Objects, on a real HTTP and WebSocket port. Used by
 * `platformpp-web serve`, the tests and the bench.
 *
 * Miniflare is an optional peer dependency: a browser-only user never downloads workerd
 * (about 130 MB). Without it, {@link startServer} fails with {@link MissingEngineError}, whose
 * message is the one command that installs it.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Miniflare line this package runs on (see docs/server.md: the one that supports Node 20). */
export const MINIFLARE_RANGE = '3.20250718.3';

/** The workerd compatibility date the Worker is written against (also in wrangler.jsonc). */
export const COMPATIBILITY_DATE = '2025-07-01';

/** workerd's compatibility flags (also in wrangler.jsonc): `nodejs_compat` gives the gateway `node:zlib`. */
export const COMPATIBILITY_FLAGS = ['nodejs_compat'];

/** The built Worker. */
export const WORKER_PATH = fileURLToPath(new URL('../dist/server/worker.js', import.meta.url));

/** The engine is not installed. */
export class MissingEngineError extends Error {
  constructor() {
    super(
      `The server runs on workerd through Miniflare, which is not installed. Install it with:\n\n  npm install --save-dev miniflare@${MINIFLARE_RANGE}\n`,
    );
    this.name = 'MissingEngineError';
  }
}

/**
 * @typedef {object} ServerOptions
 * @property {number} [port] TCP port (default 8787; 0 picks a free one).
 * @property {string} [host] Address to listen on (default 127.0.0.1).
 * @property {string} [persist] Directory that keeps the data across restarts; without it, data lives in memory.
 * @property {string} [controlSecret] When set, every control route (`/sandbox/...`, the consent decision) needs it in `X-Sandbox-Secret` (as a deployment does).
 * @property {string} [workerPath] The built Worker (default: the package's).
 * @property {boolean} [deployed] Behave as a deployment: the control API needs a secret even when none is set.
 * @property {boolean} [rateLimits] Every sandbox starts with the platform's HTTP rate limits on (`serve --rate-limits`); `PUT /sandbox/rate-limits` changes one sandbox.
 * @property {number} [heartbeatIntervalMs] Hello's `heartbeat_interval` in milliseconds (`serve --heartbeat-interval`), an integer from 1000 to 600000; default the platform's 41250.
 * @property {string} [modulesRoot] The directory the Worker's modules are found under (default: the Worker's own); a Worker built one file per module (`buildServer({ perModule: true })`) names the build's root.
 * @property {number} [inspectorPort] Serve workerd's V8 inspector (the Chrome DevTools protocol) on this port, for profiling.
 * @property {boolean} [testHooks] For the repository's tests only: serve the hooks through which a test reads a sandbox's store (`server/test-hooks.ts`).
 */

/**
 * @typedef {object} RunningServer
 * @property {string} url `http://<host>:<port>` (no trailing slash).
 * @property {() => Promise<void>} stop Stops the server; what it committed is on disk with `persist`.
 */

/**
 * Starts the server.
 * @param {ServerOptions} [options]
 * @returns {Promise<RunningServer>}
 * @example const server = await startServer({ port: 0 }); await fetch(`${server.url}/api/v10/gateway`);
 */
export async function startServer(options = {}) {
  /** @type {typeof import('miniflare')} */
  let miniflare;
  try {
    miniflare = await import('miniflare');
  } catch {
    throw new MissingEngineError();
  }
  const interval = options.heartbeatIntervalMs;
  if (interval !== undefined && !(Number.isInteger(interval) && interval >= 1000 && interval <= 600_000)) {
    throw new RangeError(`heartbeatIntervalMs must be an integer from 1000 to 600000 (milliseconds), not ${interval}.`);
  }
  const workerPath = resolve(options.workerPath ?? WORKER_PATH);
  if (!existsSync(workerPath)) {
    throw new Error(`The Worker is not built (${workerPath}): run \`npm run build:server\` first.`);
  }
  const host = options.host ?? '127.0.0.1';
  let persist = /** @type {string | false} */ (false);
  if (options.persist) {
    persist = resolve(options.persist, 'durable-objects');
    await mkdir(persist, { recursive: true });
  }
  const mf = new miniflare.Miniflare({
    modules: true,
    scriptPath: workerPath,
    // Module paths are relative to the Worker's own directory, wherever the process runs from
    // (workerd refuses `..` out of the root it was given, the working directory by default).
    modulesRoot: options.modulesRoot ? resolve(options.modulesRoot) : dirname(workerPath),
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: COMPATIBILITY_FLAGS,
    durableObjects: { SANDBOXES: { className: 'PlatformSandbox', useSQLite: true } },
    durableObjectsPersist: persist,
    // No request.cf data: fetching it would reach out to the network.
    cf: false,
    bindings: {
      ...(options.controlSecret ? { SANDBOX_CONTROL_SECRET: options.controlSecret } : {}),
      ...(options.deployed ? { SANDBOX_CONTROL_REQUIRES_SECRET: 'true' } : {}),
      ...(options.testHooks ? { PLATFORMPP_TEST_HOOKS: 'true' } : {}),
      ...(options.rateLimits ? { PLATFORMPP_RATE_LIMITS: 'true' } : {}),
      ...(options.heartbeatIntervalMs ? { PLATFORMPP_HEARTBEAT_INTERVAL_MS: String(options.heartbeatIntervalMs) } : {}),
    },
    host,
    port: options.port ?? 8787,
    ...(options.inspectorPort === undefined ? {} : { inspectorPort: options.inspectorPort }),
    // The Worker logs its own errors (tokens redacted); PLATFORMPP_SERVER_LOG=1 shows Miniflare's too.
    log: process.env.PLATFORMPP_SERVER_LOG
      ? new miniflare.Log(miniflare.LogLevel.DEBUG)
      : new miniflare.Log(miniflare.LogLevel.WARN),
  });
  const ready = await mf.ready;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${ready.port}`;
  return { url, stop: () => mf.dispose() };
}

/** The default directory `--persist` names when given without one. */
export const DEFAULT_PERSIST_DIR = join('.platformpp', 'server');
