// @ts-check
/**
 * Pages under `/bench/floor/` hand themselves to the floor service worker (`floor-sw.js`, scope
 * `/bench/floor/`): the platform's worker (scope `/`) controls them until the floor worker
 * claims them.
 */
const FLOOR_SW = '/bench/floor/floor-sw.js';

/** Registers the floor worker and resolves once it controls this page. */
async function floorControlled() {
  const container = navigator.serviceWorker;
  const controlled = () => container.controller?.scriptURL.endsWith(FLOOR_SW) ?? false;
  if (controlled()) return;
  const changed = new Promise((resolve) => {
    const check = () => controlled() && resolve(undefined);
    container.addEventListener('controllerchange', check);
  });
  await container.register(FLOOR_SW, { scope: '/bench/floor/' });
  // A page that loaded while another tab was installing the worker missed its claim: ask again.
  (await container.ready).active?.postMessage({ type: 'claim' });
  await changed;
}

/** The read frame: the bytes to answer, in Cache Storage (for a restarted worker) and in the worker's memory. */
/** @type {any} */ (globalThis).benchSetup = async (/** @type {{ body: string }} */ msg) => {
  await floorControlled();
  await (await caches.open('bench-floor')).put('/bench/floor/body', new Response(msg.body));
  navigator.serviceWorker.controller?.postMessage({ type: 'body', body: msg.body });
  // The worker has the bytes once it answers them.
  for (let i = 0; i < 100; i++) {
    if ((await (await fetch('/bench/floor/data')).text()) === msg.body) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the floor worker does not answer the bytes it was given');
};
/** @type {any} */ (globalThis).benchTabSetup = floorControlled;
