/**
 * `platformpp-web/vite`: the Vite plugin that serves the sandbox at `/__platformpp/` next to an
 * activity's own dev server (CONTRACT §6). Runs in Node, inside Vite.
 * @example
 * import { platformpp } from 'platformpp-web/vite';
 * export default defineConfig({ plugins: [platformpp()] });
 */
export { platformpp } from './plugin';
export { SANDBOX_BASE, SANDBOX_USERS, type PlatformppOptions } from './options';
