// @ts-check
/**
 * The engine's floors of the server phase: `test/bench/floor-server.js` (a minimal Worker and a
 * minimal SQLite-backed Durable Object) on its own Miniflare, with the server's compatibility
 * date and flags, so that the server's figures can be read against the same engine and not only
 * against bare Node.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPATIBILITY_DATE, COMPATIBILITY_FLAGS } from '../../../server/start.js';

const SCRIPT = fileURLToPath(new URL('../floor-server.js', import.meta.url));

/**
 * Starts the floor Worker on 127.0.0.1 (a free port), with workerd's V8 inspector on
 * `inspectorPort` when given (`profile-server.js`).
 * @param {{ inspectorPort?: number }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startEngineFloors({ inspectorPort } = {}) {
  const { Miniflare, Log, LogLevel } = await import('miniflare');
  const mf = new Miniflare({
    modules: true,
    scriptPath: SCRIPT,
    modulesRoot: dirname(SCRIPT),
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: COMPATIBILITY_FLAGS,
    durableObjects: { FLOORS: { className: 'FloorObject', useSQLite: true } },
    durableObjectsPersist: false,
    cf: false,
    host: '127.0.0.1',
    port: 0,
    ...(inspectorPort === undefined ? {} : { inspectorPort }),
    log: new Log(LogLevel.WARN),
  });
  const ready = await mf.ready;
  return { url: `http://127.0.0.1:${ready.port}`, stop: () => mf.dispose() };
}
