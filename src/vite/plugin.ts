/**
 * `platformpp()`: the Vite plugin that puts the platform next to an activity's own dev server
 * (CONTRACT §6). With `plugins: [platformpp()]`, `vite` and `vite preview` also serve the
 * sandbox at `/__platformpp/`: a host page that runs the platform in the browser (service
 * worker, shared worker), seeds a guild with a voice channel and the users alice, bob and
 * chen, and embeds the server's own activity page; `/__platformpp/?as=bob` is Bob. The
 * activity's backend reaches the same platform at `/__platformpp/api/...` through an open
 * sandbox page (`./platform-bridge.ts`).
 *
 * With `platformpp({ server: true })` the platform server (CONTRACT §7) runs in this process
 * instead (`./platform-server.ts`), and with `server: '<url>'` one already running is used: the
 * sandbox page and the activity join it, and the backend reaches it at its own URL (printed),
 * or at `/__platformpp/api/...` as before (`./server-relay.ts`). A page without a service
 * worker (an origin that is not a secure context: a phone on the LAN) reaches the server through
 * the dev server's own paths (`./platform-proxy.ts`).
 */
import { fileURLToPath } from 'node:url';
import { loadEnv, type Plugin, type PreviewServer, type ResolvedConfig, type ViteDevServer } from 'vite';
import { applicationSecretRelay } from './application-secret';
import {
  clientSecretOf,
  controlSecretOf,
  platformServerOption,
  SANDBOX_BASE,
  sandboxPageConfig,
  type PlatformppOptions,
  type SandboxPageConfig,
} from './options';
import { PlatformBridge } from './platform-bridge';
import { platformProxy } from './platform-proxy';
import { platformSocketProxy } from './platform-socket-proxy';
import { acquirePlatformServer, type PlatformServerHold } from './platform-server';
import { sandboxMiddleware } from './sandbox-server';
import { serverRelay } from './server-relay';

/** The package's prebuilt sandbox (host script, service worker, shared worker), beside this file once built. */
const SANDBOX_DIR = fileURLToPath(new URL('../sandbox/', import.meta.url));

/** The package's own name, as consumers import it. */
const PACKAGE_NAME = 'platformpp-web';

/**
 * The plugin.
 * @example
 * // vite.config.js
 * import { defineConfig } from 'vite';
 * import { platformpp } from 'platformpp-web/vite';
 * export default defineConfig({ plugins: [platformpp()] });
 * // then open http://localhost:5173/__platformpp/ (and ?as=bob in a second tab)
 */
export function platformpp(options: PlatformppOptions = {}): Plugin {
  const serverOption = platformServerOption(options);
  let config: ResolvedConfig;
  let page: SandboxPageConfig;
  /** A deployed server's control secret: sent by the relay, never put in a page. */
  let controlSecret: string | null = null;
  /** The application's client secret: on a platform server, set there by the plugin, never put in a page. */
  let clientSecret: string | null = null;
  /** Each dev or preview server's hold on the platform server it started. */
  const holds = new Set<PlatformServerHold>();

  /** The platform server's URL for a dev or preview server: started here, given, or none. */
  const platformServerOf = (server: ViteDevServer | PreviewServer): Promise<string> | null => {
    if (!serverOption) return null;
    if ('use' in serverOption) return Promise.resolve(serverOption.use);
    const hold = acquirePlatformServer(config.root);
    holds.add(hold);
    // The last dev server to close stops it (awaited where Vite has the close hooks).
    server.httpServer?.once('close', () => void hold.release());
    return hold.server.then(({ url }) => url);
  };

  const serve = (server: ViteDevServer | PreviewServer) => {
    const platformServer = platformServerOf(server);
    platformServer?.catch((error: unknown) =>
      config.logger.error(`platformpp: the platform server could not start: ${(error as Error).message}`),
    );
    // The page waits for the server it joins; one that did not start is said on the page.
    const pageConfig = async (): Promise<SandboxPageConfig> => {
      if (!platformServer) return page;
      return platformServer.then(
        (url) => ({ ...page, server: url }),
        (error: unknown) => ({ ...page, serverError: (error as Error).message }),
      );
    };
    const backend = platformServer ? serverRelay(() => platformServer, controlSecret) : new PlatformBridge().middleware;
    if (platformServer && clientSecret !== null)
      server.middlewares.use(applicationSecretRelay(() => platformServer, clientSecret, controlSecret));
    server.middlewares.use(sandboxMiddleware(SANDBOX_DIR, pageConfig, backend));
    if (platformServer) {
      // Pages without a service worker (a phone on the LAN) reach the server through this origin.
      const proxy = { server: () => platformServer, controlSecret };
      server.middlewares.use(platformProxy(proxy));
      const sockets = platformSocketProxy(proxy);
      server.httpServer?.on('upgrade', sockets);
    }
    const printUrls = server.printUrls.bind(server);
    server.printUrls = () => {
      printUrls();
      const local = server.resolvedUrls?.local[0];
      if (!local) return;
      const url = new URL(SANDBOX_BASE, local).href;
      config.logger.info(`  ➜  platformpp: ${url}  (as Bob: ${url}?as=bob)`);
      // On a platform server the page holds no secret: phones and teammates on the network may open it.
      for (const network of platformServer ? (server.resolvedUrls?.network ?? []) : [])
        config.logger.info(`  ➜  platformpp on your network (a phone): ${new URL(SANDBOX_BASE, network).href}?as=bob`);
      if (!platformServer) {
        config.logger.info(`  ➜  platformpp API for your backend: ${url}api  (the sandbox page must be open)`);
        return;
      }
      platformServer.then(
        (server) => {
          const where =
            serverOption && 'start' in serverOption ? 'the platform server, running here' : 'the platform server';
          config.logger.info(`  ➜  platformpp server: ${server}  (${where})`);
          config.logger.info(`  ➜  platformpp API for your backend: ${server}/api`);
        },
        () => undefined,
      );
    };
  };

  const releaseAll = async () => {
    const releasing = [...holds].map((hold) => hold.release());
    holds.clear();
    await Promise.all(releasing);
  };

  return {
    name: 'platformpp',
    // Vite's dependency pre-bundling would move the library away from the worker files it
    // starts by their URL; pages of the project that import the package load it as shipped.
    config: () => ({ optimizeDeps: { exclude: [PACKAGE_NAME] } }),
    configResolved(resolved) {
      config = resolved;
      const envDir = resolved.envDir === false ? resolved.root : (resolved.envDir ?? resolved.root);
      // Every variable, not only VITE_ ones: CLIENT_SECRET is for the sandbox, never the activity's bundle.
      const env = loadEnv(resolved.mode, envDir, '');
      page = sandboxPageConfig(options, env, resolved.base);
      controlSecret = controlSecretOf(options, env);
      clientSecret = clientSecretOf(options, env);
      if (page.problem) resolved.logger.warn(`platformpp: ${page.problem}`);
    },
    configureServer: serve,
    configurePreviewServer: serve,
    // Vite 8 awaits these: the platform server has stopped when the dev server's close resolves
    // (earlier Vites let go of it when the HTTP server closes).
    closeServer: releaseAll,
    closePreviewServer: releaseAll,
  };
}
