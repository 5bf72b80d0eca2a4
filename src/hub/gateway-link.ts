/**
 * A page's gateway link: the hub's side of every `GatewaySocket` of one page, over one
 * `MessagePort` (the gateway link wire of `./protocol`). Each socket is served as one on a port
 * of its own would be (`serveSocket`); what the gateway sends in one turn (a dispatch to the
 * page's ten sockets) leaves as one message, so that a fan-out costs one post per page, not one
 * per socket, and the page wakes once for it.
 */
import type { GatewayLinkEvents, GatewayLinkRequest, GatewaySocketEvent } from './protocol';
import {
  serveSocket,
  type HoldForPage,
  type ServedSocket,
  type SocketCompression,
  type SocketEndpoint,
} from './gateway-port';

/**
 * Serves the gateway sockets a page opens on `port` until the page is gone (the port closes,
 * or `holdForPage` says so for each socket, when the page said who it is: `owner`), with the
 * gateway's `compression` for the sockets that ask for it.
 * @example bridgeGatewayLink(gateway, port, (abandon) => owners.hold(owner, abandon), owner);
 */
export function bridgeGatewayLink(
  gateway: SocketEndpoint,
  port: MessagePort,
  holdForPage?: HoldForPage,
  owner?: string,
  compression?: SocketCompression,
): void {
  const sockets = new Map<number, ServedSocket>();
  let outgoing: GatewayLinkEvents = [];
  const flush = () => {
    const events = outgoing;
    outgoing = [];
    port.postMessage(events);
  };
  const post = (id: number, event: GatewaySocketEvent) => {
    // The first event of a turn schedules the message that carries all of them.
    if (outgoing.push([id, event]) === 1) queueMicrotask(flush);
  };
  port.addEventListener('message', (event: MessageEvent<GatewayLinkRequest>) => {
    const request = event.data;
    if (request?.type === 'open') {
      const { id, url } = request;
      // A connection refused at once (a bad URL) is finished before it could be listed.
      let finished = false;
      const socket = serveSocket(
        gateway,
        url,
        (e) => post(id, e),
        () => {
          finished = true;
          sockets.delete(id);
        },
        holdForPage,
        owner,
        compression,
      );
      if (!finished) sockets.set(id, socket);
    } else if (request) sockets.get(request.id)?.request(request);
  });
  // Chromium fires `close` on a port whose other end is gone (the page closed or crashed).
  port.addEventListener('close', () => {
    for (const socket of [...sockets.values()]) socket.abandon();
  });
  port.start();
}

/**
 * Answers every socket a page opens on `port` with `close` (1011, `reason`): the gateway could
 * not start, so the page's sockets close as a WebSocket to a failing server does.
 */
export function refuseGatewayLink(port: MessagePort, reason: string): void {
  port.addEventListener('message', (event: MessageEvent<GatewayLinkRequest>) => {
    if (event.data?.type !== 'open') return;
    port.postMessage([
      [event.data.id, { type: 'close', code: 1011, reason, wasClean: false }],
    ] satisfies GatewayLinkEvents);
  });
  port.start();
}
