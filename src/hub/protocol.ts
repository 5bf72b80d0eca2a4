/**
 * The wires of the hub (the shared worker), in one file both ends import:
 * - {@link HubApi}: what a page reaches through comlink on the worker's port;
 * - the gateway socket wire: one `MessagePort` per `GatewaySocket`, carrying what a WebSocket
 *   would (text frames, the close handshake).
 */
import type { ActivityInstanceRegistry } from '../rpc/instances';

/** The shared worker's name: every page that uses it reaches the same instance. */
export const HUB_WORKER_NAME = 'platformpp-hub';

/**
 * The hub's comlink API. Extend it additively: each field is one service of the hub.
 * @example
 * const hub = Comlink.wrap<HubApi>(new SharedWorker(url, { type: 'module', name: HUB_WORKER_NAME }).port);
 * await hub.openGateway(Comlink.transfer(port, [port]), '/gateway?v=10&encoding=json');
 */
export interface HubApi {
  /** Opens a gateway connection for `url` on `port` (the gateway socket wire below). */
  openGateway(port: MessagePort, url: string): void;
  /** Asks every connected gateway client to reconnect and resume (opcode 7). */
  reconnectGateway(): void;
  /** A random id of this start of the worker: it changes when the browser restarted the hub. */
  incarnation(): string;
  /** Activity instances, shared by every page (src/rpc/instances.ts). */
  instances: ActivityInstanceRegistry;
}

/** Page → hub on a gateway socket's port. */
export type GatewaySocketRequest =
  /** A payload, as `WebSocket.send` takes it. */
  | { type: 'send'; data: string | ArrayBuffer | ArrayBufferView | Blob }
  /** The page closes the socket. */
  | { type: 'close'; code: number; reason: string };

/** Hub → page on a gateway socket's port. */
export type GatewaySocketEvent =
  /** The connection is open (Hello follows as a message). */
  | { type: 'open' }
  /** A text frame: one gateway payload as JSON. */
  | { type: 'message'; data: string }
  /** The connection is closed, by the gateway (its close code) or in answer to the page's close. */
  | { type: 'close'; code: number; reason: string; wasClean: boolean };
