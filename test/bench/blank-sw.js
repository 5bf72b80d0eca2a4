// @ts-check
/// <reference lib="webworker" />
/**
 * The empty service worker of the cold-start baseline: it takes the page over as soon as it is
 * active and answers nothing, so that what it costs is registering and activating a worker.
 */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
