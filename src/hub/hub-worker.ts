/**
 * The shared worker entry (the hub): a thin shell that wires browser events to the gateway and
 * the voice gateway (`src/gateway`) and the activity instance registry (`src/rpc`). Every page
 * reaches it through comlink on the worker's port ({@link HubApi}); the service worker's
 * announcements arrive on the `platformpp` BroadcastChannel. Web Locks tell each side when the other is gone: the hub
 * watches each page's lock (a dead page leaves its instances, its sockets drop as 1006), and
 * holds its own for pages to watch (they start a new hub and rejoin).
 */
import * as Comlink from 'comlink';
import { Gateway } from '../gateway/gateway';
import { VoiceGateway } from '../gateway/voice-gateway';
import { ANNOUNCEMENT_CHANNEL, type Announcement } from '../platform/core/announcements';
import { createPlatformContext } from '../platform/core/context';
import { openPlatformStorage } from '../store/indexeddb/open';
import { clearActivity } from '../platform/presence/presence';
import { redactSecrets } from '../platform/core/secrets';
import { SNOWFLAKE_WORKERS } from '../platform/core/snowflake';
import { ActivityInstanceRegistry, type FrameLeft, type InstanceSnapshot } from '../rpc/instances';
import { clearStoredInstances, mirrorInstance } from '../platform/activities/activity-instances';
import { PageOwners } from '../rpc/page-owners';
import { bridgeGatewayLink, refuseGatewayLink } from './gateway-link';
import { bridgeGatewayPort, type SocketCompression } from './gateway-port';
import { HUB_TRANSPORT_COMPRESSIONS, hubGatewayZlib } from './gateway-zlib';
import { bridgeSpeakingPort } from './speaking-port';
import { hubLockName, ownerLockName, type HubApi } from './protocol';
import { randomUuid } from '../wire/random-uuid';

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

// The hub writes too (a Voice State Update's join or leave): its commits are announced like the
// service worker's, so pages, other hubs and this hub's own listener below (a channel object
// hears another object's messages) read the log again.
const broadcast = new BroadcastChannel(ANNOUNCEMENT_CHANNEL);
// The worker may be stopped and started again at any time: everything durable is in IndexedDB.
const context = openPlatformStorage().then((db) =>
  createPlatformContext({
    db,
    workerId: SNOWFLAKE_WORKERS.hub,
    announce: (message) => broadcast.postMessage(message),
  }),
);
const gateway = context.then(
  (ctx) => new Gateway(ctx, undefined, undefined, { incarnation, isLive: hubRuns, pageLive: pageLives }),
);
const voiceGateway = context.then((ctx) => new VoiceGateway(ctx));
gateway.catch(report);
voiceGateway.catch(report);

const announcements = new BroadcastChannel(ANNOUNCEMENT_CHANNEL);
announcements.addEventListener('message', (event: MessageEvent<Announcement>) => {
  // A `stop_shared_worker` fault: the hub stops as the browser would stop it; pages see their
  // lock freed, start another hub and resume there.
  if (event.data.type === 'fault' && event.data.fault.type === 'stop_shared_worker') return self.close();
  gateway.then((g) => g.announce(event.data)).catch(report);
  voiceGateway.then((g) => g.announce(event.data)).catch(report);
});

// Where Web Locks are missing nobody can tell that a page is gone: frames leave on pagehide only.
const owners = new PageOwners(
  (owner) => (locks ? locks.request(ownerLockName(owner), () => undefined) : new Promise(() => undefined)),
  (owner) => instances.leaveOwner(owner),
);
const instances = Comlink.proxy(
  new ActivityInstanceRegistry(undefined, (owner) => owners.watch(owner), clearLeftPresence, mirrorToStore),
);

// The store mirrors the registry, so the HTTP API answers for instances (GET
// /applications/{id}/activity-instances/{instance_id}). What an earlier start of the hub left
// there is gone with its memory: its frames join this one again. Mirrors apply in order.
let mirrored: Promise<unknown> = context.then((ctx) => clearStoredInstances(ctx)).catch(report);

function mirrorToStore(snapshot: InstanceSnapshot, ended: boolean): void {
  mirrored = mirrored.then(() => context.then((ctx) => mirrorInstance(ctx, snapshot, ended))).catch(report);
}

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

/**
 * A frame left, or its page died (the registry hears both; a dead page cannot clear anything):
 * the rich presence its activity set goes with it, through SET_ACTIVITY's own path, unless
 * another frame of the user still runs that application.
 */
function clearLeftPresence(left: FrameLeft): void {
  if (!left.last) return;
  gateway
    .then(async (g) => {
      if (await clearActivity(g.ctx, left.user_id, left.application_id)) await g.pump();
    })
    .catch(report);
}

/** The gateway's compressions (not the voice gateway's): zlib-stream, and Identify's `compress`. */
const gatewayCompression: SocketCompression = { zlib: hubGatewayZlib, offered: HUB_TRANSPORT_COMPRESSIONS };

const api: HubApi = {
  openGateway(port, url, owner) {
    const holdForPage = owner === undefined ? undefined : (abandon: () => void) => owners.hold(owner, abandon);
    gateway
      .then((g) => bridgeGatewayPort(g, port, url, holdForPage, owner, gatewayCompression))
      .catch((error) => {
        report(error);
        port.postMessage({ type: 'close', code: 1011, reason: 'The gateway could not start.', wasClean: false });
      });
  },
  openGatewayLink(port, owner) {
    const holdForPage = owner === undefined ? undefined : (abandon: () => void) => owners.hold(owner, abandon);
    gateway
      .then((g) => bridgeGatewayLink(g, port, holdForPage, owner, gatewayCompression))
      .catch((error) => {
        report(error);
        refuseGatewayLink(port, 'The gateway could not start.');
      });
  },
  openVoiceGateway(port, url, owner) {
    const holdForPage = owner === undefined ? undefined : (abandon: () => void) => owners.hold(owner, abandon);
    voiceGateway
      .then((g) => bridgeGatewayPort(g, port, url, holdForPage))
      .catch((error) => {
        report(error);
        port.postMessage({ type: 'close', code: 1011, reason: 'The voice gateway could not start.', wasClean: false });
      });
  },
  watchSpeaking(port, callId, owner) {
    const holdForPage = owner === undefined ? undefined : (abandon: () => void) => owners.hold(owner, abandon);
    voiceGateway
      .then((g) => bridgeSpeakingPort(g.speakers, port, callId, holdForPage))
      .catch((error) => {
        report(error);
        port.close();
      });
  },
  reconnectGateway() {
    gateway.then((g) => g.reconnectAll()).catch(report);
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
