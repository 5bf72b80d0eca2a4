// @ts-check
/**
 * The cost of the rate-limit accounting (`sw/rate-limits.ts`) per request, on the server over
 * loopback: `GET /api/v10/users/@me` with a bot token in a sandbox whose limits are on (buckets
 * far larger than the run, so no request is refused: only the counting and the headers are
 * measured), against the same request in a sandbox with limits off. The two are interleaved
 * request by request, so that drift of the machine falls on both alike.
 */
import { buildServer } from '../../../scripts/build-server.js';
import { startServer } from '../../../server/start.js';

/** A sandbox with a bot; `limits` turns its rate limits on. */
async function botSandbox(/** @type {string} */ base, /** @type {boolean} */ limits) {
  /** @param {string} method @param {string} path @param {unknown} [body] */
  const call = async (method, path, body) => {
    const response = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json();
  };
  const owner = (await call('POST', '/sandbox/users', { username: 'owner' })).user;
  const app = await call('POST', '/sandbox/applications', { name: 'Bench', owner_id: owner.id });
  if (limits)
    await call('PUT', '/sandbox/rate-limits', {
      enabled: true,
      route_limit: 10_000,
      route_window_seconds: 3600,
      global_per_second: 10_000,
    });
  const auth = `Bot ${app.bot_token}`;
  return async () => {
    const response = await fetch(`${base}/api/v10/users/@me`, { headers: { Authorization: auth } });
    await response.arrayBuffer();
    if (limits !== response.headers.has('X-RateLimit-Limit')) throw new Error('rate limits not as set');
    if (response.status !== 200) throw new Error(`answered ${response.status}`);
  };
}

/**
 * Runs the phase.
 * @param {{ cacheDir: string, quick: boolean, say: (line: string) => void }} options
 */
export async function rateLimitPhase({ cacheDir, quick, say }) {
  const workerPath = await buildServer({ quiet: true, outDir: `${cacheDir}/server` });
  const server = await startServer({ port: 0, workerPath });
  try {
    say('ratelimit: GET /users/@me with and without the accounting, interleaved');
    const counted = await botSandbox(`${server.url}/s/limited`, true);
    const plain = await botSandbox(`${server.url}/s/plain`, false);
    const rounds = quick ? 100 : 1000;
    /** @type {{ limited: number[], plain: number[] }} */
    const times = { limited: [], plain: [] };
    for (let i = 0; i < 20; i++) await Promise.all([counted(), plain()]);
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so neither always meets a warmer connection.
      const order =
        i % 2 === 0 ? /** @type {const} */ (['limited', 'plain']) : /** @type {const} */ (['plain', 'limited']);
      for (const which of order) {
        const start = performance.now();
        await (which === 'limited' ? counted() : plain());
        times[which].push(performance.now() - start);
      }
    }
    return times;
  } finally {
    await server.stop();
  }
}
