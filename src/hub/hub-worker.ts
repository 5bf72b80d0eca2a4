/**
 * The shared worker entry (the hub): a thin shell that wires browser events to the gateway and
 * the voice gateway (`src/gateway`, through `hub-core.ts`) and the activity instance registry
 * (`src/rpc`). Every page reaches it through comlink on the worker's port ({@link HubApi}); the
 * service worker's announcements arrive on the `platformpp` BroadcastChannel. Web Locks tell
 * each side when the other is gone: the hub watches each page's lock (a dead page leaves its
 * instances, its sockets drop as 1006), and holds its own for pages to watch (they start a new
 * hub and rejoin).
 *
 * The entry is small, so that a page hears the hub answer without waiting for the store and the
 * gateways to load: it imports `hub-core.ts` at once and hands it every gateway call, in order,
 * once it is there. A core that cannot load or start closes each gateway connection with 1011,
 * as a gateway that cannot start always did.
 */
import * as Comlink from 'comlink';
import { ANNOUNCEMENT_CHANNEL, type Announcement } from '../platform/core/announcements';
import { redactSecrets } from '../platform/core/secrets';
import { ActivityInstanceRegistry } from '../rpc/instances';
import { PageOwners } from '../rpc/page-owners';
import { randomUuid } from '../wire/random-uuid';
import { refuseGatewayLink } from './gateway-link';
import type { HoldForPage } from './gateway-port';
import { hubLockName, ownerLockName, type HubApi } from './protocol';

declare const self: SharedWorkerGlobalScope;

const incarnation = randomUuid();
const report = (error: unknown) =>
  console.error(
    redactSecrets(`platformpp hub: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  );
const locks: LockManager | undefined = self.navigator.locks;

// Held for as long as this start of the hub lives; answered with the incarnation once held,
// so that a page never asks for it before the hub has it.
const holdingOwnLock = new Promise<void>((held) => {
  if (!locks) return held();
  locks.request(hubLockName(incarnation), () => new Promise<void>(() => held())).catch(report);
});

// The store and the gateways load while the entry answers; every call waits for them in order.
const core = import('./hub-core').then((module) =>
  module.startHubCore({ incarnation, isLive: hubRuns, pageLive: pageLives, report }),
);
// Reported when it happens, not only when a page first asks for the gateway.
core.catch(report);

/** Hands `use` the core once it is there; when it could not load (reported above), calls `failed`. */
function withCore(use: (c: Awaited<typeof core>) => void, failed: () => void = () => undefined): void {
  core.then(use, failed).catch(report);
}

const closeGatewayPort = (port: MessagePort, which: string) => () =>
  port.postMessage({ type: 'close', code: 1011, reason: `The ${which} could not start.`, wasClean: false });

const announcements = new BroadcastChannel(ANNOUNCEMENT_CHANNEL);
announcements.addEventListener('message', (event: MessageEvent<Announcement>) => {
  // A `stop_shared_worker` fault: the hub stops as the browser would stop it; pages see their
  // lock freed, start another hub and resume there.
  if (event.data.type === 'fault' && event.data.fault.type === 'stop_shared_worker') return self.close();
  withCore((c) => c.announce(event.data));
});

// Where Web Locks are missing nobody can tell that a page is gone: frames leave on pagehide only.
const owners = new PageOwners(
  (owner) => (locks ? locks.request(ownerLockName(owner), () => undefined) : new Promise(() => undefined)),
  (owner) => instances.leaveOwner(owner),
);
// The store mirrors the registry, so the HTTP API answers for instances (GET
// /applications/{id}/activity-instances/{instance_id}); a frame that left takes its rich
// presence with it.
const instances = Comlink.proxy(
  new ActivityInstanceRegistry(
    undefined,
    (owner) => owners.watch(owner),
    (left) => withCore((c) => c.frameLeft(left)),
    (snapshot, ended) => withCore((c) => c.mirror(snapshot, ended)),
  ),
);

/** True while the start of the hub `other` runs: it holds its lock (the presence of its sessions counts). */
async function hubRuns(other: string): Promise<boolean> {
  const held = locks ? ((await locks.query()).held ?? []) : [];
  return held.some((lock) => lock.name === hubLockName(other));
}

/**
 * True while the page `owner` lives: it holds its lock. Without Web Locks nobody can tell, so
 * its sessions wait for the grace period.
 */
async function pageLives(owner: string): Promise<boolean> {
  if (!locks) return true;
  return ((await locks.query()).held ?? []).some((lock) => lock.name === ownerLockName(owner));
}

/** The hold on a connection for the page `owner`, when the page said who it is. */
function holdFor(owner: string | undefined): HoldForPage | undefined {
  return owner === undefined ? undefined : (abandon) => owners.hold(owner, abandon);
}

const api: HubApi = {
  openGateway(port, url, owner) {
    withCore((c) => c.openGateway(port, url, holdFor(owner), owner), closeGatewayPort(port, 'gateway'));
  },
  openGatewayLink(port, owner) {
    withCore(
      (c) => c.openGatewayLink(port, holdFor(owner), owner),
      () => refuseGatewayLink(port, 'The gateway could not start.'),
    );
  },
  openVoiceGateway(port, url, owner) {
    withCore((c) => c.openVoiceGateway(port, url, holdFor(owner)), closeGatewayPort(port, 'voice gateway'));
  },
  watchSpeaking(port, callId, owner) {
    withCore(
      (c) => c.watchSpeaking(port, callId, holdFor(owner)),
      () => port.close(),
    );
  },
  reconnectGateway() {
    withCore((c) => c.reconnectGateway());
  },
  incarnation: () => holdingOwnLock.then(() => incarnation),
  stop() {
    self.close();
  },
  instances,
};

self.addEventListener('connect', (event) => {
  for (const port of event.ports) Comlink.expose(api, port);
});
