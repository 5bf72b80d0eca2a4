/**
 * `platformpp()`: the Vite plugin that puts the platform next to an activity's own dev server
 * (CONTRACT §6). With `plugins: [platformpp()]`, `vite` and `vite preview` also serve the
 * sandbox at `/__platformpp/`: a host page that runs the platform in the browser (service
 * worker, shared worker), seeds a guild with a voice channel and the users alice, bob and
 * chen, and embeds the server's own activity page; `/__platformpp/?as=bob` is Bob. The
 * activity's backend reaches the same platform at `/__platformpp/api/...` through an open
 * sandbox page (`./platform-bridge.ts`).
 */
import { fileURLToPath } from 'node:url';
import { loadEnv, type Plugin, type PreviewServer, type ResolvedConfig, type ViteDevServer } from 'vite';
import { SANDBOX_BASE, sandboxPageConfig, type PlatformppOptions, type SandboxPageConfig } from './options';
import { PlatformBridge } from './platform-bridge';
import { sandboxMiddleware } from './sandbox-server';

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
  if ('server' in options)
    throw new Error(
      'platformpp({ server }) comes with the platform server; this version runs the sandbox in the browser only. Remove the server option.',
    );
  let config: ResolvedConfig;
  let page: SandboxPageConfig;
  const serve = (server: ViteDevServer | PreviewServer) => {
    server.middlewares.use(sandboxMiddleware(SANDBOX_DIR, () => page, new PlatformBridge().middleware));
    const printUrls = server.printUrls.bind(server);
    server.printUrls = () => {
      printUrls();
      const local = server.resolvedUrls?.local[0];
      if (!local) return;
      const url = new URL(SANDBOX_BASE, local).href;
      config.logger.info(`  ➜  platformpp: ${url}  (as Bob: ${url}?as=bob)`);
      config.logger.info(`  ➜  platformpp API for your backend: ${url}api  (the sandbox page must be open)`);
    };
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
      page = sandboxPageConfig(options, loadEnv(resolved.mode, envDir, ''), resolved.base);
      if (page.problem) resolved.logger.warn(`platformpp: ${page.problem}`);
    },
    configureServer: serve,
    configurePreviewServer: serve,
  };
}
