/**
 * Helpers for tests that run in real Chromium (vitest browser mode) against the platform's
 * service worker, served at `/sw.js` by the project's dev server.
 */
import { scriptToRegister } from '../../src/components/service-worker-restart';

/** The header the platform's HTTP app puts on every response it answers. */
export const SERVED_BY_HEADER = 'X-Served-By';
/** Its value: proof that the service worker, not a server, answered. */
export const SERVED_BY_WORKER = 'platformpp-sw';

/**
 * Registers `/sw.js` (an ES module, scope `/`) and resolves once it controls this page, on a
 * first visit (the worker claims the page when it activates) and after a hard reload (the
 * page is uncontrolled although the worker is active: it asks the worker to claim it).
 * @example
 * beforeAll(async () => { await registerPlatformWorker(); });
 */
export async function registerPlatformWorker(): Promise<ServiceWorker> {
  const container = navigator.serviceWorker;
  // After a stop fault the worker runs under a start mark (`/sw.js?start=…`): keep it, or this
  // registration would replace the worker once more.
  const script = await scriptToRegister('/sw.js', container);
  const registration = await container.register(script, { type: 'module', scope: '/' });
  if (!container.controller) {
    const changed = new Promise((resolve) => container.addEventListener('controllerchange', resolve, { once: true }));
    registration.active?.postMessage({ type: 'claim' });
    await changed;
  }
  return container.controller!;
}

/**
 * Empties every store and puts the sandbox clock back to real time (`POST /sandbox/reset`).
 * @example
 * beforeEach(resetSandbox);
 */
export async function resetSandbox(): Promise<void> {
  const response = await fetch('/sandbox/reset', { method: 'POST' });
  if (response.status !== 204) {
    throw new Error(`POST /sandbox/reset answered ${response.status}: ${await response.text()}`);
  }
}

/** True when the platform's service worker answered this response. */
export function servedByWorker(response: Response): boolean {
  return response.headers.get(SERVED_BY_HEADER) === SERVED_BY_WORKER;
}
