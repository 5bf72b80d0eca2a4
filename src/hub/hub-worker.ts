/**
 * The shared worker entry (the hub): a thin shell that wires browser events to the gateway
 * (`src/gateway`) and the activity instance registry (`src/rpc`). Every page reaches it through
 * comlink on the worker's port ({@link HubApi}); the service worker's announcements arrive on
 * the `platformpp` BroadcastChannel.
 */
import * as Comlink from 'comlink';
import { Gateway } from '../gateway/gateway';
import { ANNOUNCEMENT_CHANNEL, type Announcement } from '../platform/announcements';
import { createPlatformContext } from '../platform/context';
import { redactSecrets } from '../platform/secrets';
import { SNOWFLAKE_WORKERS } from '../platform/snowflake';
import { ActivityInstanceRegistry } from '../rpc/instances';
import { bridgeGatewayPort } from './gateway-port';
import type { HubApi } from './protocol';

declare const self: SharedWorkerGlobalScope;

const incarnation = crypto.randomUUID();
const report = (error: unknown) => console.error(redactSecrets(`platformpp hub: ${error instanceof Error ? error.stack ?? error.message : String(error)}`));

// The worker may be stopped and started again at any time: everything durable is in IndexedDB.
const gateway = createPlatformContext({ workerId: SNOWFLAKE_WORKERS.hub }).then((ctx) => new Gateway(ctx));
gateway.catch(report);

const announcements = new BroadcastChannel(ANNOUNCEMENT_CHANNEL);
announcements.addEventListener('message', (event: MessageEvent<Announcement>) => {
  gateway.then((g) => g.announce(event.data)).catch(report);
});

const api: HubApi = {
  openGateway(port, url) {
    gateway.then((g) => bridgeGatewayPort(g, port, url)).catch((error) => {
      report(error);
      port.postMessage({ type: 'close', code: 1011, reason: 'The gateway could not start.', wasClean: false });
    });
  },
  reconnectGateway() {
    gateway.then((g) => g.reconnectAll()).catch(report);
  },
  incarnation: () => incarnation,
  instances: new ActivityInstanceRegistry(),
};

self.addEventListener('connect', (event) => {
  for (const port of event.ports) Comlink.expose(api, port);
});
