/**
 * The platform server `platformpp({ server: true })` starts in the dev server's process
 * (CONTRACT §6): the package's `server/start.js` (workerd through Miniflare), on port 8787 (or a
 * free one when that is taken), its data kept in `node_modules/.platformpp/server` across
 * restarts, as the browser's sandbox keeps its data across reloads.
 *
 * One per process and persistence directory, shared by the dev servers that use it: Vite starts
 * the new server of a restart (an edited config) before it closes the old one, so the platform
 * server is let go of only when the last dev server using it closed.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { RunningServer, ServerOptions } from '../../server/start.js';

/** The port a started platform server listens on when it is free. */
export const PLATFORM_SERVER_PORT = 8787;

/** Where a project's platform server keeps its data, under its root. */
export const PLATFORM_SERVER_DATA_DIR = join('node_modules', '.platformpp', 'server');

type StartServer = (options: ServerOptions) => Promise<RunningServer>;

/** The package's `startServer`, loaded on first use: only `server: true` needs Miniflare. */
async function packageStartServer(options: ServerOptions): Promise<RunningServer> {
  // Beside this file in the repository (src/vite) and in the package (dist/vite) alike.
  const start = new URL('../../server/start.js', import.meta.url).href;
  const { startServer } = (await import(/* @vite-ignore */ start)) as typeof import('../../server/start.js');
  return startServer(options);
}

/** Whether nothing listens on `port` of 127.0.0.1 now (workerd would fail loudly on a taken one). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

interface Shared {
  users: number;
  server: Promise<RunningServer>;
}

const running = new Map<string, Shared>();

/** A hold on the platform server of one dev server: its URL once started, and how to let go. */
export interface PlatformServerHold {
  server: Promise<RunningServer>;
  /** Lets go of the server (once); resolves once it stopped, if this was the last hold. */
  release(): Promise<void>;
}

/**
 * Starts the platform server for the project at `root` (or joins the one this process runs for
 * it) and holds it until `release()`.
 * @example const hold = acquirePlatformServer(config.root); const { url } = await hold.server;
 */
export function acquirePlatformServer(root: string, start: StartServer = packageStartServer): PlatformServerHold {
  const persist = join(root, PLATFORM_SERVER_DATA_DIR);
  let shared = running.get(persist);
  if (!shared) {
    // 8787 taken by another program (or another project's server): any free port.
    const server = portIsFree(PLATFORM_SERVER_PORT).then((free) =>
      start({ port: free ? PLATFORM_SERVER_PORT : 0, persist }).catch((error: unknown) => {
        // Taken between the look and the start.
        if (!/address already in use/i.test(String((error as Error)?.message ?? error))) throw error;
        return start({ port: 0, persist });
      }),
    );
    shared = { users: 0, server };
    running.set(persist, shared);
    // A server that did not start is not kept: the next dev server tries again.
    server.catch(() => running.get(persist) === shared && running.delete(persist));
  }
  shared.users++;
  const held = shared;
  let released = false;
  return {
    server: held.server,
    release: async () => {
      if (released) return;
      released = true;
      if (--held.users > 0) return;
      if (running.get(persist) === held) running.delete(persist);
      const server = await held.server.catch(() => null);
      await server?.stop();
    },
  };
}
