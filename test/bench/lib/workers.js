// @ts-check
/**
 * Service workers seen from outside, through the DevTools protocol: stopping them as the
 * browser does when it lets a worker go idle (`ServiceWorker.stopAllWorkers`), and reading one
 * worker's JavaScript heap after a full collection (`HeapProfiler.collectGarbage`, then
 * `Runtime.getHeapUsage`) in a session attached to its target.
 */

/**
 * Watches the service workers of a page's DevTools session; `stopAll()` stops every one and
 * resolves once each says it stopped.
 * @param {import('playwright-core').CDPSession} cdp a session of a page of the origin
 */
export async function serviceWorkerControl(cdp) {
  /** @type {Map<string, string>} the running status of each worker version */
  const status = new Map();
  /** @type {(() => void)[]} */
  let waiting = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
    for (const version of event.versions) status.set(version.versionId, version.runningStatus);
    for (const wake of waiting) wake();
    waiting = [];
  });
  await cdp.send('ServiceWorker.enable');
  const allStopped = () => [...status.values()].every((s) => s === 'stopped');
  return {
    /**
     * Stops every service worker and waits (at most 10 s) until each reported it, asking again
     * every second: a page's request may start a worker again just after it stopped.
     */
    async stopAll() {
      await cdp.send('ServiceWorker.stopAllWorkers');
      const deadline = Date.now() + 10_000;
      let asked = Date.now();
      while (!allStopped() && Date.now() < deadline) {
        await new Promise((resolve) => {
          waiting.push(() => resolve(undefined));
          setTimeout(resolve, 50);
        });
        if (!allStopped() && Date.now() - asked > 1000) {
          asked = Date.now();
          await cdp.send('ServiceWorker.stopAllWorkers');
        }
      }
      if (!allStopped()) throw new Error(`service workers still running: ${JSON.stringify([...status])}`);
    },
    async close() {
      await cdp.send('ServiceWorker.disable');
    },
  };
}

/**
 * The JavaScript heap in use by the running service worker whose script URL ends with
 * `scriptSuffix`, after a full garbage collection, in bytes.
 * @param {import('playwright-core').Browser} browser @param {string} scriptSuffix
 */
export async function serviceWorkerHeap(browser, scriptSuffix) {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith(scriptSuffix));
    if (!target) throw new Error(`no running service worker ${scriptSuffix}`);
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
    let nextId = 0;
    /** @type {Map<number, (message: any) => void>} */
    const pending = new Map();
    cdp.on('Target.receivedMessageFromTarget', (event) => {
      if (event.sessionId !== sessionId) return;
      const message = JSON.parse(event.message);
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    });
    /** @param {string} method @param {object} [params] */
    const send = (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        pending.set(id, (message) =>
          message.error ? reject(new Error(message.error.message)) : resolve(message.result),
        );
        cdp
          .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
          .catch(reject);
      });
    await send('HeapProfiler.enable');
    await send('HeapProfiler.collectGarbage');
    const usage = /** @type {{ usedSize: number, totalSize: number }} */ (await send('Runtime.getHeapUsage'));
    await cdp.send('Target.detachFromTarget', { sessionId });
    return usage.usedSize;
  } finally {
    await cdp.detach();
  }
}
