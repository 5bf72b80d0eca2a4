/**
 * Serves a built site the way `npm run preview` does (Vite's preview server, 127.0.0.1, a free
 * port) and opens it in Debian's Chromium through playwright-core.
 */
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium';

/** A preview server on a port of its own, and its base URL. */
export interface SiteServer {
  server: PreviewServer;
  baseURL: string;
}

/** Serves `outDir` on 127.0.0.1 with the project's preview settings (headers, `/.proxy`). */
export async function serveSite(root: string, outDir: string): Promise<SiteServer> {
  const server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
  });
  const { port } = server.httpServer.address() as AddressInfo;
  return { server, baseURL: `http://127.0.0.1:${port}/` };
}

/**
 * Launches the one Chromium the tests use, headless. Its fake microphone is granted without a
 * prompt; with `microphone: 'refused'` Chromium refuses it instead, as for a user who said no.
 */
export function launchChromium(options: { microphone?: 'granted' | 'refused' } = {}): Promise<Browser> {
  const args =
    options.microphone === 'refused'
      ? CHROMIUM_ARGS.map((arg) =>
          arg === '--use-fake-ui-for-media-stream' ? '--use-fake-ui-for-media-stream=deny' : arg,
        )
      : CHROMIUM_ARGS;
  return chromium.launch({ executablePath: chromiumPath(), args, headless: true });
}
