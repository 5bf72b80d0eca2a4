/**
 * The service worker shell: the only file that touches `self` and `FetchEvent`. It wires
 * browser events to the platform's HTTP app (`./app`) and to workbox's precache, and answers
 * nothing else, so every path it does not own goes to the network untouched (CONTRACT §1).
 * Outside its origin it answers only the real platform's API and CDN origins (`./origins`).
 * For a client that joined a platform server (CONTRACT §7, `./server-clients`), what the app
 * would answer goes to that server instead (`./server-forward`).
 */
import { PrecacheController, PrecacheRoute } from 'workbox-precaching';
import { Router } from 'workbox-routing';
import { ANNOUNCEMENT_CHANNEL, type Announcement } from '../src/platform/core/announcements';
import { SERVED_BY, SERVED_BY_HEADER } from './app-frame';
import { createLazyPlatformApp } from './lazy-app';
import { routeScript } from './route-script';
import type { WorkerStarts } from './idempotency';
import { onOrigin, platformOriginOf } from './origins';
import { ownsPath, stripProxyPrefix, PROXY_PREFIX } from './paths';
import { ServerClients } from './server-clients';
import { forwardToServer, serverTarget } from './server-forward';
import { answerServerJoin } from './server-join';
import { forwardMappedOnServer } from './server-mappings';
import { isServerJoinMessage, type JoinedServer } from '../src/wire/server-join';
import { openPlatformStorage } from '../src/store/indexeddb/open';
import { PROXY_LOG_CHANNEL } from '../src/wire/proxy-log';
import { logProxied } from './proxy-log';

declare const self: ServiceWorkerGlobalScope;

/** Built files and their revisions, compiled in by the build; undefined under the dev server. */
declare const __PRECACHE_MANIFEST__: Array<{ url: string; revision: string | null }> | undefined;

/** The shared worker and pages listen here: a message only says "look again in the store". */
const channel = new BroadcastChannel(ANNOUNCEMENT_CHANNEL);
/** The host page's RPC inspector hears here of each request an activity made through the proxy. */
const proxyLog = new BroadcastChannel(PROXY_LOG_CHANNEL);

/** The Web Lock each start of the worker holds while it runs: the browser lets go of it when it stops the worker. */
const START_LOCK_PREFIX = 'platformpp-sw-start:';
const startId = crypto.randomUUID();
const holdingStartLock = new Promise<void>((held) => {
  self.navigator.locks.request(START_LOCK_PREFIX + startId, () => new Promise<void>(() => held())).catch(() => held());
});

/** This start, and the starts whose lock is held: the browser has not stopped them. */
async function workerStarts(): Promise<WorkerStarts> {
  await holdingStartLock;
  const running = new Set<string>();
  const look = async () => {
    const { held = [] } = await self.navigator.locks.query();
    running.clear();
    for (const lock of held)
      if (lock.name?.startsWith(START_LOCK_PREFIX)) running.add(lock.name.slice(START_LOCK_PREFIX.length));
  };
  await look();
  return {
    current: startId,
    isRunning: (id) => {
      // Known from the last look; look again for the next request (another start may be new).
      void look().catch(() => undefined);
      return running.has(id);
    },
  };
}

// The worker may be stopped and restarted at any time: the app is built on first use after each
// start, and built again if building it failed instead of leaving every later request broken.
let appReady: ReturnType<typeof createLazyPlatformApp> | undefined;
function platformApp(): ReturnType<typeof createLazyPlatformApp> {
  if (!appReady) {
    // The database opens while the start's lock is looked up: neither waits for the other.
    appReady = Promise.all([workerStarts(), openPlatformStorage()]).then(([starts, db]) =>
      createLazyPlatformApp(
        { db, broadcast: (message: Announcement) => channel.postMessage(message), starts },
        routeScript,
      ),
    );
    appReady.catch(() => (appReady = undefined));
  }
  return appReady;
}

// A worker never hears its own announcements: one arriving was written by another context (the
// shared worker, or an older or newer service worker during an update), so what this one keeps
// in memory may be old where that write changed a store.
channel.addEventListener('message', (event: MessageEvent<Announcement>) => {
  const message = event.data;
  void appReady?.then(
    (platform) => platform.ctx.cache?.forget(message?.type === 'events' ? message.stores : undefined),
    () => undefined,
  );
});

/** The app answers its own errors; this is for an app that could not even start. */
function startupFailure(error: unknown): Response {
  console.error('platformpp: the HTTP app failed to start', error);
  const headers = { [SERVED_BY_HEADER]: SERVED_BY };
  return Response.json({ code: 0, message: '500: Internal Server Error' }, { status: 500, headers });
}

// One controller and router of our own (not precacheAndRoute's global one) so a single fetch
// listener decides who answers, and `/.proxy/x` can be looked up as `/x`.
const precache = new PrecacheController();
// `vite preview` and other static servers send `Vary: Origin`; module scripts carry `Origin`.
precache.strategy.matchOptions = { ignoreVary: true };
// In dev nothing is precached: every asset comes from the dev server.
precache.addToCacheList(typeof __PRECACHE_MANIFEST__ === 'undefined' ? [] : __PRECACHE_MANIFEST__);
// The routes' script is one of the precached files: a start runs it from there on first use.
self.addEventListener('install', (event) => event.waitUntil(precacheAll(event)));
// Drops what an older manifest cached and this one no longer lists (it waits on the event itself).
self.addEventListener('activate', (event) => void precache.activate(event));
const router = new Router();
// Activity pages get frame_id, instance_id... in their query: any query still finds the page.
router.registerRoute(new PrecacheRoute(precache, { ignoreURLParametersMatching: [/.*/] }));

/**
 * Fetches and caches every file of the manifest at once: workbox's own `install` takes them one
 * after the other, and the page waits for the install before the platform starts (a first visit).
 */
async function precacheAll(event: ExtendableEvent): Promise<void> {
  const files = [...precache.getURLsToCacheKeys()].map(([url, cacheKey]) => {
    const integrity = precache.getIntegrityForCacheKey(cacheKey);
    const request = new Request(url, { integrity, credentials: 'same-origin' });
    return Promise.all(precache.strategy.handleAll({ params: { cacheKey }, request, event }));
  });
  await Promise.all(files);
}

/** The same request without the activity proxy prefix (a navigation cannot be re-created as one). */
async function withoutProxyPrefix(request: Request, url: URL): Promise<Request> {
  const target = new URL(url);
  target.pathname = stripProxyPrefix(url.pathname);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(target, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? await request.arrayBuffer() : undefined,
    credentials: request.credentials,
    redirect: request.redirect,
  });
}

/** Which server each client joined (CONTRACT §7); none is the local sandbox. */
const servers = new ServerClients();

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  // A hard reload leaves the page uncontrolled although this worker is active; the page asks.
  if (event.data?.type === 'claim') event.waitUntil(self.clients.claim());
  // A page joins a server, names its activity frames, or a frame asks (`src/wire/server-join.ts`).
  const source = event.source as Client | null;
  if (isServerJoinMessage(event.data) && source && event.ports[0]) {
    const reply = answerServerJoin(event.data, source.id, {
      servers,
      liveClients: async () =>
        new Set((await self.clients.matchAll({ includeUncontrolled: true, type: 'all' })).map((c) => c.id)),
    }).then((answer) => event.ports[0].postMessage(answer));
    event.waitUntil(reply);
  }
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  // An activity frame's navigation carries its frame_id: its page said which server it uses.
  const frameId = request.mode === 'navigate' ? url.searchParams.get('frame_id') : null;
  const entered = frameId && event.resultingClientId ? servers.enterFrame(event.resultingClientId, frameId) : null;
  if (entered) event.waitUntil(entered.catch(() => undefined));
  // Looked up only where it matters: precached assets are the same for every client.
  const server = (): Promise<JoinedServer | null> => entered ?? servers.serverOf(event.clientId);
  // An activity's requests (through `/.proxy/`, or from its frame) are recorded for the inspector.
  const proxied = url.pathname.startsWith(PROXY_PREFIX + '/');
  const activity = proxied || fromActivityFrame(request);
  const respond = (answer: Promise<Response>) =>
    event.respondWith(activity ? logProxied(request, answer, proxied, (r) => proxyLog.postMessage(r)) : answer);
  if (url.origin !== self.location.origin) {
    // The real platform's API and CDN, as an activity written for it calls them (CONTRACT §6).
    const outside = platformOriginOf(url);
    if (!outside) return;
    respond(
      server().then((joined) => {
        if (joined) return forwardToServer(request, serverTarget(url, joined.url, outside), joined.url);
        if (outside === 'cdn') return platformApp().then((platform) => platform.cdn(request), startupFailure);
        return Promise.all([platformApp(), onOrigin(request, self.location.origin)]).then(
          ([platform, local]) => platform.fetch(local, event),
          startupFailure,
        );
      }),
    );
    return;
  }
  if (ownsPath(url, routeScript.hasRoute)) {
    // The app starts while the client's server is looked up: almost every client uses the
    // local sandbox, and after a stop both open a database.
    const local = platformApp();
    respond(
      server().then((joined) =>
        joined
          ? forwardToServer(request, serverTarget(url, joined.url, null), joined.url)
          : // The event keeps the worker alive for the webhook deliveries the request starts.
            local.then((platform) => platform.fetch(request, event), startupFailure),
      ),
    );
  } else if (url.pathname.startsWith(PROXY_PREFIX + '/')) {
    // A URL mapping first (the activity proxy), then the path as without the prefix.
    respond(
      mapped(request, server()).then(
        (forwarded) =>
          forwarded ??
          withoutProxyPrefix(request, url).then(
            (stripped) => router.handleRequest({ request: stripped, event }) ?? fetch(stripped),
          ),
      ),
    );
  } else if (activity) {
    // An activity's own requests may use its URL mappings without `/.proxy` too.
    respond(
      mapped(request, server()).then(
        (forwarded) => forwarded ?? router.handleRequest({ request, event }) ?? fetch(request),
      ),
    );
  } else {
    const precached = router.handleRequest({ request, event });
    if (precached) event.respondWith(precached);
  }
});

/**
 * The request forwarded by its URL mapping, or undefined (none applies, or the app could not
 * start). A client on a server has the server's mappings applied, the request sent from here.
 */
async function mapped(request: Request, server: Promise<JoinedServer | null>): Promise<Response | undefined> {
  const joined = await server.catch(() => null);
  if (joined) return forwardMappedOnServer(request, joined);
  return platformApp().then(
    (platform) => platform.forwardMapped(request),
    () => undefined,
  );
}

/** Whether the page asking is an activity's frame: its URL carries the frame's parameters (CONTRACT §5). */
function fromActivityFrame(request: Request): boolean {
  if (!request.referrer.startsWith(self.location.origin + '/')) return false;
  const params = new URL(request.referrer).searchParams;
  return params.has('frame_id') && params.has('instance_id');
}
