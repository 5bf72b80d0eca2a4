/**
 * The page's side of the hub (the shared worker): its comlink API per hub name, the page's
 * owner id, and what happens when a hub goes away.
 *
 * A MessagePort tells neither end reliably that the other is gone, so both ends hold a Web Lock
 * for as long as they live and watch the other's (`src/hub/protocol.ts`):
 * - the page holds its owner lock; the hub, granted it once the page is gone (closed, crashed,
 *   killed without `pagehide`), removes the page's frames from their instances and drops its
 *   gateway connections as 1006, so their sessions stay resumable;
 * - the hub holds its incarnation's lock; the page, granted it once that hub is gone (the
 *   browser stopped or lost the worker), starts a new one and tells {@link onHubRestart}'s
 *   listeners, so frames rejoin their instances with the ids they had.
 */
import * as Comlink from 'comlink';
import { HUB_WORKER_NAME, hubLockName, ownerLockName, type HubApi } from '../hub/protocol';
import { randomUuid } from '../wire/random-uuid';

/** One start of a hub, as this page reaches it. */
interface HubLink {
  remote: Comlink.Remote<HubApi>;
  /** Told once this start of the hub is gone. */
  goneListeners: Set<() => void>;
  /** Resolves once this start answers; rejects with the reason when it cannot start. */
  started: Promise<void>;
}

/** How long a hub may take to answer its first call before the page gives up on it. */
export const HUB_START_TIMEOUT_MS = 20_000;

/** How long a newly started hub may take to answer before it is taken for one that joined a dying worker. */
const HUB_RESTART_ANSWER_MS = 2000;
const HUB_RESTART_ANSWER_MAX_MS = 30_000;

const links = new Map<string, HubLink>();
const restartListeners = new Map<string, Set<(incarnation: string) => void>>();
/** This page as the hub knows it. */
const owner = randomUuid();
let ownerLock: { held: Promise<string>; release(): void } | null = null;

function lockManager(): LockManager | null {
  return (typeof navigator !== 'undefined' && navigator.locks) || null;
}

/**
 * This page's owner id, once the page holds its owner lock (from then on the hub may watch it).
 * The lock is let go on `pagehide`, when the page's frames leave anyway: a page that holds a
 * lock cannot enter the back/forward cache. The next call takes it again.
 * @example const instance = await directory.join({ ...request, owner: await pageOwner() });
 */
export function pageOwner(): Promise<string> {
  const locks = lockManager();
  if (!locks) return Promise.resolve(owner);
  if (!ownerLock) {
    let release = () => {};
    const held = new Promise<string>((resolve) => {
      const holding = locks.request(
        ownerLockName(owner),
        () =>
          new Promise<void>((letGo) => {
            release = letGo;
            resolve(owner);
          }),
      );
      holding.catch(() => resolve(owner));
    });
    ownerLock = { held, release: () => release() };
    addEventListener('pagehide', letGoOfOwnerLock, { once: true });
  }
  return ownerLock.held;
}

function letGoOfOwnerLock(): void {
  ownerLock?.release();
  ownerLock = null;
}

/**
 * The comlink API of the hub named `name`, starting the shared worker on first use in this
 * page. After the hub restarted this is the new one's: read it again rather than keep it.
 * @example await hub().reconnectGateway();
 */
export function hub(name = HUB_WORKER_NAME): Comlink.Remote<HubApi> {
  return link(name).remote;
}

/**
 * Resolves once the hub `name` answers (starting it if needed); rejects with an error naming
 * the cause when its shared worker cannot start: the browser could not load or run its script
 * (a path that answers the page's HTML instead), or it did not answer in time.
 * @example await hubStarted(); // then the gateway and the activity instances are there
 */
export function hubStarted(name = HUB_WORKER_NAME): Promise<void> {
  return link(name).started;
}

/**
 * Calls `listener` once the start of the hub that {@link hub} answers with now is gone.
 * Returns the function that stops listening (call it when what listens is closed anyway).
 */
export function onHubGone(name: string, listener: () => void): () => void {
  const listeners = link(name).goneListeners;
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Calls `listener` with the new incarnation each time the hub `name` was found gone and a new
 * one answers. Returns the function that stops listening.
 * @example const stop = onHubRestart(HUB_WORKER_NAME, () => rejoin());
 */
export function onHubRestart(name: string, listener: (incarnation: string) => void): () => void {
  let listeners = restartListeners.get(name);
  if (!listeners) restartListeners.set(name, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function link(name: string): HubLink {
  let current = links.get(name);
  if (!current) links.set(name, (current = connect(name)));
  return current;
}

function connect(name: string): HubLink {
  if (typeof SharedWorker === 'undefined') {
    throw new Error(
      'The hub is a SharedWorker, which this context lacks: in a dedicated worker, GatewaySocket asks its page, which must call serveGatewaySockets(worker); elsewhere, open the socket in a page.',
    );
  }
  const worker = new SharedWorker(new URL('../hub/hub-worker.ts', import.meta.url), { type: 'module', name });
  const remote = Comlink.wrap<HubApi>(worker.port);
  const started = startedOrWhyNot(worker, remote);
  const locks = lockManager();
  // Without Web Locks a lost hub cannot be told from a busy one: keep the one we have.
  const gone = locks
    ? remote
        .incarnation()
        .then((incarnation) => locks.request(hubLockName(incarnation), () => undefined))
        .then(() => undefined)
    : new Promise<void>(() => {});
  const current: HubLink = { remote, goneListeners: new Set(), started };
  void gone.then(async () => {
    if (links.get(name) !== current) return;
    // Everyone hears of it once the new hub answers, so what they send reaches a hub that runs.
    const { next, incarnation } = await startAgain(name);
    links.set(name, next);
    tell([...current.goneListeners]);
    tell([...(restartListeners.get(name) ?? [])].map((listener) => () => listener(incarnation)));
  });
  return current;
}

/**
 * Resolves once `worker` answers; rejects when the browser reports that it could not start it
 * (a SharedWorker's `error` event fires only then) or when it stays silent too long.
 */
function startedOrWhyNot(worker: SharedWorker, remote: Comlink.Remote<HubApi>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const started = new Promise<void>((resolve, reject) => {
    worker.addEventListener(
      'error',
      () =>
        reject(
          new Error(
            'the shared worker (the gateway and activity hub) could not start: the browser could not load or run its script. ' +
              "It lives next to the package's library files (platformpp-web/dist/lib/assets/hub-worker-*.js); a server that answers that path with a page, " +
              "or a bundler that moved the library away from it (Vite's dependency pre-bundling), stops it. With Vite, add platformpp() from platformpp-web/vite, " +
              "or optimizeDeps: { exclude: ['platformpp-web'] }.",
          ),
        ),
      { once: true },
    );
    remote.incarnation().then(() => resolve(), reject);
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `the shared worker (the gateway and activity hub) did not answer within ${HUB_START_TIMEOUT_MS / 1000} s`,
          ),
        ),
      HUB_START_TIMEOUT_MS,
    );
  });
  const settled = started.finally(() => clearTimeout(timer));
  // Whoever asks hears of a failure; nobody asking is no unhandled rejection.
  settled.catch(() => undefined);
  return settled;
}

/**
 * A new start of hub `name`, once it answers. A SharedWorker created while the browser is still
 * tearing the old one down may join the dying worker and never answer: after
 * HUB_RESTART_ANSWER_MS without an answer another one is created (one that was only slow to
 * start is the same worker by name, and answers through either), waiting twice as long each
 * time up to HUB_RESTART_ANSWER_MAX_MS.
 */
async function startAgain(name: string): Promise<{ next: HubLink; incarnation: string }> {
  for (let wait = HUB_RESTART_ANSWER_MS; ; wait = Math.min(wait * 2, HUB_RESTART_ANSWER_MAX_MS)) {
    const next = connect(name);
    const incarnation = await Promise.race([
      next.remote.incarnation(),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), wait)),
    ]);
    if (incarnation !== null) return { next, incarnation };
  }
}

/** Runs each listener; one that throws does not keep the others uninformed. */
function tell(listeners: (() => void)[]): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch (error) {
      console.error(error);
    }
  }
}
