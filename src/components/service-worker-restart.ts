/**
 * The `stop_service_worker` fault, page side (docs/faults.md). A service worker cannot end
 * itself (`self.close()` throws there) and a page cannot stop it, but the browser terminates a
 * worker that another one replaced. So the page that hears the fault registers the same script
 * again under a new start mark (`?start=<fault id>`): the browser installs a fresh start of the
 * worker, which takes over every page it controlled (skipWaiting, clients.claim), and stops the
 * old one once its last request is answered. Nothing in memory crosses over; the platform's
 * state is in IndexedDB, so the new start answers as the old one would.
 *
 * Every page that hears the fault registers the same URL, so the browser installs one start.
 * A later page keeps the mark (it registers the URL the worker runs under) rather than starting
 * yet another worker.
 */
import { ANNOUNCEMENT_CHANNEL, type Announcement } from '../platform/core/announcements';

/**
 * True under this project's own dev server only, where `/sw.js` is `sw/sw.ts` with its imports
 * (set by `scripts/vite/service-worker-plugin.ts`); undefined in the package and elsewhere.
 */
declare const __PLATFORMPP_SOURCE_SERVICE_WORKER__: boolean | undefined;

/**
 * How the service worker script is registered. Built (the site's `/sw.js`, the package's
 * `sw.js`), it is a classic script, whose compiled code the browser keeps from its install on,
 * and which imports its routes with `importScripts()` (a module worker cannot); under this
 * project's dev server `/sw.js` is `sw/sw.ts` with its imports, a module. A consumer's dev
 * server serves the package's built `sw.js`: classic too.
 */
export const SERVICE_WORKER_TYPE: WorkerType =
  typeof __PLATFORMPP_SOURCE_SERVICE_WORKER__ !== 'undefined' && __PLATFORMPP_SOURCE_SERVICE_WORKER__
    ? 'module'
    : 'classic';

/** The query parameter that marks a start of the worker asked for by a stop fault. */
export const SERVICE_WORKER_START_PARAM = 'start';

/** What a restart did: the start that was stopped, the one that answers now, and how long it took. */
export interface ServiceWorkerRestart {
  /** The script URL of the stopped start. */
  stopped: string | null;
  /** The script URL of the start that controls the page now. */
  controller: string;
  /** From the request to register until the new start controlled the page (ms). */
  ms: number;
}

/**
 * The script a page should register for `configured`: the one the worker runs under when it is
 * the same script (it may carry a start mark), else `configured` itself.
 * @example const url = await scriptToRegister('/sw.js'); // '/sw.js?start=…' after a stop fault
 */
export async function scriptToRegister(
  configured: string,
  container: ServiceWorkerContainer = navigator.serviceWorker,
): Promise<string> {
  const wanted = new URL(configured, location.href);
  const registration = await container.getRegistration('/');
  const running = registration?.active?.scriptURL;
  if (!running) return configured;
  const current = new URL(running);
  return current.origin === wanted.origin && current.pathname === wanted.pathname ? running : configured;
}

/**
 * Replaces the service worker controlling this page by a new start of the same script, and
 * resolves once that start controls the page. `mark` names the start (a stop fault's id), so
 * pages doing this at once start one worker between them.
 * @example const { ms } = await restartServiceWorker(fault.id);
 */
export async function restartServiceWorker(
  mark: string,
  container: ServiceWorkerContainer = navigator.serviceWorker,
): Promise<ServiceWorkerRestart> {
  const started = performance.now();
  const registration = await container.getRegistration('/');
  const running = registration?.active;
  if (!registration || !running) throw new Error('no service worker is active for this page: nothing to stop');
  const next = new URL(running.scriptURL);
  next.searchParams.set(SERVICE_WORKER_START_PARAM, mark);
  const done = () => ({ stopped: running.scriptURL, controller: next.href, ms: performance.now() - started });
  if (container.controller?.scriptURL === next.href) return done();
  const controlled = new Promise<void>((resolve) => {
    const onChange = () => {
      if (container.controller?.scriptURL !== next.href) return;
      container.removeEventListener('controllerchange', onChange);
      resolve();
    };
    container.addEventListener('controllerchange', onChange);
  });
  await container.register(next.href, { type: SERVICE_WORKER_TYPE, scope: registration.scope });
  // Another page may have registered it first and the new start may already control this one.
  if (container.controller?.scriptURL !== next.href) await controlled;
  return done();
}

/**
 * Restarts the service worker whenever a `stop_service_worker` fault is announced, and calls
 * `restarted` (or `failed`: offline, the script cannot be fetched again and the old start keeps
 * running). Answers the function that stops listening.
 * @example const unwatch = watchServiceWorkerStops((r) => console.log(`back in ${r.ms} ms`));
 */
export function watchServiceWorkerStops(
  restarted: (restart: ServiceWorkerRestart) => void,
  failed: (error: unknown) => void = (error) => console.error('platformpp: the service worker did not restart', error),
): () => void {
  if (typeof BroadcastChannel === 'undefined' || !('serviceWorker' in navigator)) return () => undefined;
  const channel = new BroadcastChannel(ANNOUNCEMENT_CHANNEL);
  channel.addEventListener('message', (event: MessageEvent<Announcement>) => {
    const message = event.data;
    if (message?.type !== 'fault' || message.fault.type !== 'stop_service_worker') return;
    restartServiceWorker(message.fault.id).then(restarted, failed);
  });
  return () => channel.close();
}
