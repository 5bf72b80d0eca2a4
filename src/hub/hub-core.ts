/**
 * The hub's gateway side, loaded by the shared worker's entry (`hub-worker.ts`) as soon as it
 * starts, but not before it answers: the store, the gateway, the voice gateway, the gateway's
 * zlib and the mirror of activity instances in the store. The entry answers pages (comlink, its
 * own lock, the activity instances in memory) while this module loads; what pages ask of the
 * gateway waits for it.
 */
import { Gateway } from '../gateway/gateway';
import type { GatewayLiveness, PageLiveness } from '../gateway/session-presence';
import { VoiceGateway } from '../gateway/voice-gateway';
import { clearStoredInstances, mirrorInstance } from '../platform/activities/activity-instances';
import { ANNOUNCEMENT_CHANNEL, type Announcement } from '../platform/core/announcements';
import { createPlatformContext } from '../platform/core/context';
import { SNOWFLAKE_WORKERS } from '../platform/core/snowflake';
import { clearActivity } from '../platform/presence/presence';
import type { FrameLeft, InstanceSnapshot } from '../rpc/instances';
import { openPlatformStorage } from '../store/indexeddb/open';
import { bridgeGatewayLink, refuseGatewayLink } from './gateway-link';
import { bridgeGatewayPort, type HoldForPage, type SocketCompression } from './gateway-port';
import { HUB_TRANSPORT_COMPRESSIONS, hubGatewayZlib } from './gateway-zlib';
import { bridgeSpeakingPort } from './speaking-port';

/** What the entry tells the core of this start of the hub. */
export interface HubCoreOptions {
  incarnation: string;
  isLive: GatewayLiveness;
  pageLive: PageLiveness;
  report(error: unknown): void;
}

/** The gateway side of the hub, as the entry's API and listeners reach it. */
export interface HubCore {
  openGateway(port: MessagePort, url: string, holdForPage: HoldForPage | undefined, owner?: string): void;
  openGatewayLink(port: MessagePort, holdForPage: HoldForPage | undefined, owner?: string): void;
  openVoiceGateway(port: MessagePort, url: string, holdForPage: HoldForPage | undefined): void;
  watchSpeaking(port: MessagePort, callId: string, holdForPage: HoldForPage | undefined): void;
  reconnectGateway(): void;
  /** An announcement of the `platformpp` channel (another context's or this hub's commit). */
  announce(announcement: Announcement): void;
  /** A frame left its instance, or its page died. */
  frameLeft(left: FrameLeft): void;
  /** The registry changed an instance: the store mirrors it, in order. */
  mirror(snapshot: InstanceSnapshot, ended: boolean): void;
}

/**
 * Opens the store and starts the gateways of this start of the hub.
 * @example const core = await import('./hub-core').then((m) => m.startHubCore(options));
 */
export function startHubCore({ incarnation, isLive, pageLive, report }: HubCoreOptions): HubCore {
  // The hub writes too (a Voice State Update's join or leave): its commits are announced like the
  // service worker's, so pages, other hubs and this hub's own listener (a channel object hears
  // another object's messages) read the log again.
  const broadcast = new BroadcastChannel(ANNOUNCEMENT_CHANNEL);
  // The worker may be stopped and started again at any time: everything durable is in IndexedDB.
  const context = openPlatformStorage().then((db) =>
    createPlatformContext({
      db,
      workerId: SNOWFLAKE_WORKERS.hub,
      announce: (message) => broadcast.postMessage(message),
    }),
  );
  const gateway = context.then((ctx) => new Gateway(ctx, undefined, undefined, { incarnation, isLive, pageLive }));
  const voiceGateway = context.then((ctx) => new VoiceGateway(ctx));
  gateway.catch(report);
  voiceGateway.catch(report);

  // What an earlier start of the hub left in the store is gone with its memory: its frames join
  // this one again. Mirrors apply in order.
  let mirrored: Promise<unknown> = context.then((ctx) => clearStoredInstances(ctx)).catch(report);

  /** The gateway's compressions (not the voice gateway's): zlib-stream, and Identify's `compress`. */
  const gatewayCompression: SocketCompression = { zlib: hubGatewayZlib, offered: HUB_TRANSPORT_COMPRESSIONS };

  return {
    openGateway(port, url, holdForPage, owner) {
      gateway
        .then((g) => bridgeGatewayPort(g, port, url, holdForPage, owner, gatewayCompression))
        .catch((error) => {
          report(error);
          port.postMessage({ type: 'close', code: 1011, reason: 'The gateway could not start.', wasClean: false });
        });
    },
    openGatewayLink(port, holdForPage, owner) {
      gateway
        .then((g) => bridgeGatewayLink(g, port, holdForPage, owner, gatewayCompression))
        .catch((error) => {
          report(error);
          refuseGatewayLink(port, 'The gateway could not start.');
        });
    },
    openVoiceGateway(port, url, holdForPage) {
      voiceGateway
        .then((g) => bridgeGatewayPort(g, port, url, holdForPage))
        .catch((error) => {
          report(error);
          port.postMessage({
            type: 'close',
            code: 1011,
            reason: 'The voice gateway could not start.',
            wasClean: false,
          });
        });
    },
    watchSpeaking(port, callId, holdForPage) {
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
    announce(announcement) {
      gateway.then((g) => g.announce(announcement)).catch(report);
      voiceGateway.then((g) => g.announce(announcement)).catch(report);
    },
    // The rich presence the frame's activity set goes with it, through SET_ACTIVITY's own path,
    // unless another frame of the user still runs that application.
    frameLeft(left) {
      if (!left.last) return;
      gateway
        .then(async (g) => {
          if (await clearActivity(g.ctx, left.user_id, left.application_id)) await g.pump();
        })
        .catch(report);
    },
    mirror(snapshot, ended) {
      mirrored = mirrored.then(() => context.then((ctx) => mirrorInstance(ctx, snapshot, ended))).catch(report);
    },
  };
}
