/**
 * Gateway sockets in a dedicated worker. The hub is a SharedWorker, which a dedicated worker
 * cannot create; its page can. So a `GatewaySocket` made in a dedicated worker hands one end of
 * a MessageChannel to its page, and the page, once it called {@link serveGatewaySockets} for
 * that worker, opens it on the hub exactly as it opens its own sockets (the page's owner lock,
 * the hub's restarts): the worker then talks to the hub directly over that port.
 *
 *   // page
 *   const worker = new Worker(new URL('./bot.ts', import.meta.url), { type: 'module' });
 *   serveGatewaySockets(worker);
 *   // bot.ts, in the worker: unchanged WebSocket code
 *   const ws = new GatewaySocket('/gateway?v=10&encoding=json');
 *
 * When the page joined a platform server (CONTRACT §7), the page opens the worker's gateway
 * sockets there instead, as real WebSockets bridged onto the same port.
 *
 * The wire (worker → page, page → worker) is {@link WorkerSocketMessage}. A worker whose page
 * never answers gets a dropped socket (1006) after {@link WORKER_SOCKET_ANSWER_MS}, with a
 * console message that names the missing call.
 */
import * as Comlink from 'comlink';
import type { HubApi } from '../hub/protocol';
import { hub, onHubGone, pageOwner } from './hub-link';
import { gatewayOfThisDocument } from './platform-server';
import { bridgeServerSocket, serverGatewayUrl } from './server-socket';

/** Which service of the hub a socket connects to. */
export type HubSocketService = 'gateway' | 'voice';

/** How long a worker's socket waits for its page to open it before it counts as dropped. */
export const WORKER_SOCKET_ANSWER_MS = 5_000;

/** What travels between a dedicated worker and its page. */
export type WorkerSocketMessage =
  /** Worker → page: open `port` on hub `hubName` for `url`. */
  | {
      platformpp: 'hub-socket-open';
      id: number;
      hubName: string;
      url: string;
      service: HubSocketService;
      port: MessagePort;
    }
  /** Worker → page: socket `id` is closed; stop watching the hub for it. */
  | { platformpp: 'hub-socket-closed'; id: number }
  /** Page → worker: the hub socket `id` was opened on is gone (the socket drops, 1006). */
  | { platformpp: 'hub-socket-gone'; id: number };

/**
 * Opens `port` on hub `name` for `url` from this page, watching the hub: `onGone` runs if it
 * goes away first. Returns the function that stops watching.
 */
export function openHubSocket(
  name: string,
  url: string,
  service: HubSocketService,
  port: MessagePort,
  onGone: () => void,
): () => void {
  // Both now, so that the hub the socket opens on is the one whose end it watches.
  const remote = hub(name);
  const unwatch = onHubGone(name, onGone);
  const open: HubApi['openGateway'] = service === 'voice' ? remote.openVoiceGateway : remote.openGateway;
  // The page holds its lock before the hub watches it, else the hub would think it gone.
  void pageOwner().then((owner) => open(Comlink.transfer(port, [port]), url, owner));
  return unwatch;
}

/**
 * In a page: opens the gateway sockets that dedicated worker `worker` creates. Returns the
 * function that stops serving it.
 * @example serveGatewaySockets(new Worker(new URL('./bot.ts', import.meta.url), { type: 'module' }));
 */
export function serveGatewaySockets(worker: Worker): () => void {
  const watching = new Map<number, () => void>();
  const onMessage = (event: MessageEvent<WorkerSocketMessage>) => {
    const message = event.data;
    if (message?.platformpp === 'hub-socket-open') {
      const { id } = message;
      const gone = () => {
        watching.delete(id);
        worker.postMessage({ platformpp: 'hub-socket-gone', id } satisfies WorkerSocketMessage);
      };
      const where = message.service === 'gateway' ? gatewayOfThisDocument() : 'local';
      if (where === 'local')
        watching.set(id, openHubSocket(message.hubName, message.url, message.service, message.port, gone));
      else
        void Promise.resolve(where).then(
          (server) =>
            server === 'local'
              ? watching.set(id, openHubSocket(message.hubName, message.url, message.service, message.port, gone))
              : bridgeServerSocket(serverGatewayUrl(server, new URL(message.url, 'ws://page')), message.port),
          // The page could not join its server: the worker's socket drops, as the page's own would.
          () => gone(),
        );
    } else if (message?.platformpp === 'hub-socket-closed') {
      watching.get(message.id)?.();
      watching.delete(message.id);
    }
  };
  worker.addEventListener('message', onMessage);
  return () => {
    worker.removeEventListener('message', onMessage);
    for (const unwatch of watching.values()) unwatch();
    watching.clear();
  };
}

/** True in a dedicated worker, where the page must open hub sockets. */
export function inDedicatedWorker(): boolean {
  return (
    typeof SharedWorker === 'undefined' &&
    typeof DedicatedWorkerGlobalScope === 'function' &&
    globalThis instanceof DedicatedWorkerGlobalScope
  );
}

let nextId = 0;

/**
 * In a dedicated worker: asks the page to open a hub socket; returns the worker's end of the
 * port and the function to call once the socket closed. `onGone` runs when the page says the
 * hub went away, or when no page answered within {@link WORKER_SOCKET_ANSWER_MS}.
 */
export function openHubSocketThroughPage(
  name: string,
  url: string,
  service: HubSocketService,
  onGone: () => void,
): { port: MessagePort; closed: () => void } {
  const scope = globalThis as unknown as DedicatedWorkerGlobalScope;
  const id = ++nextId;
  const { port1, port2 } = new MessageChannel();
  const onMessage = (event: MessageEvent<WorkerSocketMessage>) => {
    if (event.data?.platformpp === 'hub-socket-gone' && event.data.id === id) onGone();
  };
  scope.addEventListener('message', onMessage);
  // The hub's first word (Hello or a close) proves the page opened it.
  const unanswered = setTimeout(() => {
    console.error(
      `platformpp: no page opened the gateway socket for ${url}: the page that created this worker must call serveGatewaySockets(worker).`,
    );
    onGone();
  }, WORKER_SOCKET_ANSWER_MS);
  port1.addEventListener('message', () => clearTimeout(unanswered), { once: true });
  scope.postMessage(
    { platformpp: 'hub-socket-open', id, hubName: name, url, service, port: port2 } satisfies WorkerSocketMessage,
    [port2],
  );
  return {
    port: port1,
    closed: () => {
      clearTimeout(unanswered);
      scope.removeEventListener('message', onMessage);
      scope.postMessage({ platformpp: 'hub-socket-closed', id } satisfies WorkerSocketMessage);
    },
  };
}
