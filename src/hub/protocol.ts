/**
 * The wires of the hub (the shared worker), in one file both ends import:
 * - {@link HubApi}: what a page reaches through comlink on the worker's port;
 * - the gateway socket wire: one `MessagePort` per `GatewaySocket`, carrying what a WebSocket
 *   would (text frames, the close handshake);
 * - the gateway link wire: one `MessagePort` per page carrying the socket wire of every
 *   `GatewaySocket` the page opens, each under its id, so that a dispatch to a page's sockets
 *   is one message to the page;
 * - the speaking wire: one `MessagePort` per watched voice call, carrying its starts and stops;
 * - the Web Locks each end holds for its life, so that the other learns when it is gone
 *   ({@link ownerLockName}, {@link hubLockName}): a MessagePort has no reliable close signal.
 */
import type { ProxyMarked } from 'comlink';
import type { SpeakingChange } from '../gateway/voice-speaking';
import type { ActivityInstanceRegistry } from '../rpc/instances';

/** The shared worker's name: every page that uses it reaches the same instance. */
export const HUB_WORKER_NAME = 'platformpp-hub';

/**
 * The lock a page holds while it lives. The hub asks for it once the page joined an activity
 * instance or opened a gateway socket, and is granted it when the page is gone.
 */
export function ownerLockName(owner: string): string {
  return `platformpp-owner:${owner}`;
}

/**
 * The lock the hub holds while this start of it lives. A page asks for it and is granted it
 * when the hub is gone (the browser stopped or lost the worker): it then starts a new one.
 */
export function hubLockName(incarnation: string): string {
  return `platformpp-hub:${incarnation}`;
}

/**
 * The hub's comlink API. Extend it additively: each field is one service of the hub.
 * @example
 * const hub = Comlink.wrap<HubApi>(new SharedWorker(url, { type: 'module', name: HUB_WORKER_NAME }).port);
 * await hub.openGateway(Comlink.transfer(port, [port]), '/gateway?v=10&encoding=json');
 */
export interface HubApi {
  /**
   * Opens a gateway connection for `url` on `port` (the gateway socket wire below). `owner` is
   * the page's owner id: when that page is gone the connection closes as a dropped WebSocket
   * would (1006), and its session stays resumable.
   */
  openGateway(port: MessagePort, url: string, owner?: string): void;
  /**
   * Opens a voice gateway connection for `url` (`/voice?v=8`) on `port`, on the same socket
   * wire as {@link HubApi.openGateway}; `owner` as there.
   */
  openVoiceGateway(port: MessagePort, url: string, owner?: string): void;
  /**
   * Opens a page's gateway link on `port` (the gateway link wire below): every gateway
   * connection the page opens on it is served as one on {@link HubApi.openGateway}'s port would
   * be; `owner` as there.
   */
  openGatewayLink(port: MessagePort, owner?: string): void;
  /**
   * Watches who speaks in a voice call (a guild voice channel's id, or a lobby's id) on `port`:
   * the hub posts a {@link SpeakingPortEvent} for each start and stop until the page posts
   * `{type: 'close'}`, or is gone (`owner` as in {@link HubApi.openGateway}).
   */
  watchSpeaking(port: MessagePort, callId: string, owner?: string): void;
  /** Asks every connected gateway client to reconnect and resume (opcode 7). */
  reconnectGateway(): void;
  /**
   * A random id of this start of the worker: it changes when the browser restarted the hub.
   * It is answered once the hub holds {@link hubLockName} for it.
   */
  incarnation(): Promise<string>;
  /**
   * Ends this start of the hub, as when the browser stops or loses the worker: memory is gone,
   * pages start a new one (a developer control, like stopping a worker in DevTools).
   */
  stop(): void;
  /**
   * Activity instances, shared by every page (src/rpc/instances.ts). Proxy-marked, so a page
   * calls its methods (`await hub.instances.find(appId, channelId)`) rather than copying it.
   */
  instances: ActivityInstanceRegistry & ProxyMarked;
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
  /** A text frame (one gateway payload as JSON), or a binary one (compressed, when the client asked). */
  | { type: 'message'; data: string | ArrayBuffer }
  /** The connection is closed, by the gateway (its close code) or in answer to the page's close. */
  | { type: 'close'; code: number; reason: string; wasClean: boolean };

/** Page → hub on a gateway link: a socket's request, or `open` for a new socket (ids are the page's). */
export type GatewayLinkRequest = { id: number; type: 'open'; url: string } | ({ id: number } & GatewaySocketRequest);

/**
 * Hub → page on a gateway link: the events of its sockets, each with the socket's id, in the
 * order they happened; everything the hub sent in one turn travels as one message.
 */
export type GatewayLinkEvents = [id: number, event: GatewaySocketEvent][];

/** Hub → page on a speaking watch's port: a user started or stopped speaking in the call. */
export type SpeakingPortEvent = SpeakingChange;

/** Page → hub on a speaking watch's port: stop watching. */
export type SpeakingPortRequest = { type: 'close' };
