// @ts-check
/**
 * Read frames under `/bench/startup/pass/` and `/bench/startup/sw/` hand themselves to the
 * worker of their scope: a minimal pass-through worker, or the platform's `/sw.js` registered
 * again for that scope (where it answers nothing). See `pass-sw.js`.
 */
const scope = new URL('.', location.href).pathname;
const script = scope.endsWith('/sw/') ? '/sw.js' : '/bench/startup/pass-sw.js';

/** Registers the scope's worker as a module and resolves once it controls this page. */
async function controlled() {
  const container = navigator.serviceWorker;
  const mine = () => container.controller?.scriptURL.endsWith(script) ?? false;
  if (mine() && (await container.getRegistration())?.scope.endsWith(scope)) return;
  const changed = new Promise((resolve) => {
    const check = () => mine() && resolve(undefined);
    container.addEventListener('controllerchange', check);
  });
  // As <pp-platform> registers the built worker (a classic script); the minimal one is a module.
  const registration = await container.register(script, { type: scope.endsWith('/sw/') ? 'classic' : 'module', scope });
  (registration.active ?? (await container.ready).active)?.postMessage({ type: 'claim' });
  await changed;
}

/** @type {any} */ (globalThis).benchSetup = controlled;
