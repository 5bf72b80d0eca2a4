// @ts-check
/**
 * The peer: MSW's own service worker (`mockServiceWorker.js` of the pinned msw, scope
 * `/bench/msw/`) and one `http.get` handler answering the same bytes from the page's memory.
 */
import { http, HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';

/** @type {any} */ (globalThis).benchSetup = async (/** @type {{ body: string }} */ msg) => {
  const body = msg.body;
  const worker = setupWorker(
    http.get('/bench/msw/data', () => new HttpResponse(body, { headers: { 'Content-Type': 'application/json' } })),
  );
  await worker.start({
    serviceWorker: { url: '/bench/msw/mockServiceWorker.js', options: { scope: '/bench/msw/' } },
    quiet: true,
    onUnhandledRequest: 'bypass',
  });
};
