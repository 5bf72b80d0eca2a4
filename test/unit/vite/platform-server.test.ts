// @vitest-environment node
/**
 * `platformpp({ server: true })`: the platform server started in the dev server's process is
 * one per project and process, shared by the dev servers that use it (a restart starts the new
 * dev server before it closes the old one), and stopped when the last one lets go.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerOptions } from '../../../server/start.js';
import { acquirePlatformServer, PLATFORM_SERVER_DATA_DIR } from '../../../src/vite/platform-server';

/** A fake `startServer` that counts starts and stops. */
function fakeStart(fail = false) {
  const calls = { starts: [] as ServerOptions[], stops: 0 };
  const start = async (options: ServerOptions) => {
    calls.starts.push(options);
    if (fail) throw new Error('Miniflare is not installed');
    return { url: `http://127.0.0.1:${options.port || 1234}`, stop: async () => void calls.stops++ };
  };
  return { calls, start };
}

describe('the platform server of platformpp({ server: true })', () => {
  it('keeps its data in the project (node_modules/.platformpp/server), on port 8787 when it is free', async () => {
    const { calls, start } = fakeStart();
    const hold = acquirePlatformServer('/projects/a', start);
    await hold.server;
    expect(calls.starts[0].persist).toBe(join('/projects/a', PLATFORM_SERVER_DATA_DIR));
    expect([8787, 0]).toContain(calls.starts[0].port);
    await hold.release();
  });

  it('is shared by the dev servers of one project and stops when the last one lets go (once each)', async () => {
    const { calls, start } = fakeStart();
    const old = acquirePlatformServer('/projects/b', start);
    const restarted = acquirePlatformServer('/projects/b', start);
    expect(await restarted.server).toBe(await old.server);
    await old.release();
    await old.release();
    expect([calls.starts.length, calls.stops]).toEqual([1, 0]);
    await restarted.release();
    expect(calls.stops).toBe(1);
    // The next dev server starts a new one.
    const next = acquirePlatformServer('/projects/b', start);
    await next.server;
    expect(calls.starts.length).toBe(2);
    await next.release();
  });

  it('one that could not start is not kept: the dev server says why, and the next one tries again', async () => {
    const failing = fakeStart(true);
    const hold = acquirePlatformServer('/projects/c', failing.start);
    await expect(hold.server).rejects.toThrow('Miniflare is not installed');
    await hold.release();
    const working = fakeStart();
    const again = acquirePlatformServer('/projects/c', working.start);
    expect((await again.server).url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    await again.release();
  });
});
