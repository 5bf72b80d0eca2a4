// @ts-check
/// <reference lib="webworker" />
/**
 * The start-up baseline of the service worker's size (`npm run bench`): a module worker with a
 * fetch handler that passes every request to the network. Beside it the platform's own
 * `/sw.js`, registered a second time for `/bench/startup/sw/`, where it answers nothing either:
 * the first request after a stop through each costs a start of the worker, and the difference is
 * what starting the platform's larger script costs.
 */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
sw.addEventListener('message', (event) => {
  if (event.data?.type === 'claim') event.waitUntil(sw.clients.claim());
});
// A handler that answers nothing: the browser still starts the worker for each request.
sw.addEventListener('fetch', () => undefined);
