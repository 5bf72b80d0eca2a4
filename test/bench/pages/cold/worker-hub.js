// @ts-check
/**
 * The workers floor with the platform's own hub: as `worker.html`, the page registers the
 * platform's service worker and at once starts a shared worker, ready once the worker controls
 * the page and the hub answered; the shared worker is the one `<pp-platform>` starts (its entry
 * fetched, compiled and run until it answers), reached as the element reaches it. Against the
 * workers floor it is what the platform's hub costs a start; against it, `<pp-platform>` is what
 * the element's own code costs (its modules, lit, the registration through Workbox).
 */
import { hubStarted } from '../../../../src/sockets/hub-link';

const container = navigator.serviceWorker;
const controlled = container.controller
  ? Promise.resolve()
  : new Promise((resolve) => {
      container.addEventListener('controllerchange', resolve, { once: true });
      container.register('/sw.js', { type: 'classic', scope: '/' });
    });
Promise.all([controlled, hubStarted()]).then(
  () => (document.documentElement.dataset.ready = String(performance.now())),
  (error) => (document.documentElement.dataset.ready = `error: ${error.message}`),
);
