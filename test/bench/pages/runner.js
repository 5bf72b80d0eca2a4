// @ts-check
/**
 * The request loop every read frame runs, whoever answers it (our service worker, the floor
 * service worker, MSW, the node:http peer). Plain script with no imports: the peer server
 * inlines it into its page. The driver page sends `{bench: 'run', id, cmd, ...}`; the frame
 * times each request with `performance.now()` inside itself and answers once, at the end.
 */
(() => {
  /** @param {MessageEvent} event */
  async function onMessage(event) {
    const msg = event.data;
    if (!msg || msg.bench !== 'run') return;
    /** @param {Record<string, unknown>} data */
    const reply = (data) =>
      /** @type {Window} */ (event.source).postMessage({ bench: 'reply', id: msg.id, ...data }, '*');
    try {
      if (msg.cmd === 'setup') {
        const setup = /** @type {any} */ (globalThis).benchSetup;
        if (setup) await setup(msg);
        reply({
          isolated: globalThis.crossOriginIsolated,
          controller: navigator.serviceWorker?.controller?.scriptURL ?? null,
        });
      } else if (msg.cmd === 'text') {
        const response = await fetch(msg.url, msg.init);
        reply({ status: response.status, text: await response.text() });
      } else if (msg.cmd === 'loop') {
        // One request after the other; the body is read whole (as bytes: what is measured is
        // serving it, not parsing it).
        const times = [];
        let bytes = 0;
        let failures = 0;
        // One untimed request first, so that each turn starts as the previous one of the same
        // variant left it, whatever the other variants did in between.
        if (msg.warm) await (await fetch(msg.url, msg.init)).arrayBuffer();
        /** @type {{ start: number, handler: number }[]} */
        const phases = [];
        for (let i = 0; i < msg.n; i++) {
          // An untimed request first when asked (a write, so that the timed read misses every cache).
          if (msg.before) await (await fetch(msg.before.url, msg.before.init)).arrayBuffer();
          if (msg.phases) performance.clearResourceTimings();
          const start = performance.now();
          const response = await fetch(msg.url, msg.init);
          const body = await response.arrayBuffer();
          times.push(performance.now() - start);
          bytes = body.byteLength;
          if (response.status !== msg.status) failures++;
          if (msg.phases) phases.push(workerPhases(msg.url));
        }
        reply({ times, bytes, failures, phases });
      }
    } catch (error) {
      reply({ error: String(/** @type {any} */ (error)?.stack ?? error) });
    }
  }
  /**
   * The request's two parts as its resource timing tells them, in ms: `start`, from the browser
   * starting the service worker to the fetch event (`workerStart` to `fetchStart`: the worker's
   * scripts handed over and run), and `handler`, from the fetch event to the answer's first
   * byte (`fetchStart` to `responseStart`).
   * @param {string} url
   */
  function workerPhases(url) {
    const entry = /** @type {PerformanceResourceTiming | undefined} */ (
      performance.getEntriesByName(new URL(url, location.href).href).at(-1)
    );
    if (!entry || entry.workerStart === 0) return { start: NaN, handler: NaN };
    return { start: entry.fetchStart - entry.workerStart, handler: entry.responseStart - entry.fetchStart };
  }
  addEventListener('message', onMessage);
  parent.postMessage({ bench: 'loaded', href: location.href }, '*');
})();
