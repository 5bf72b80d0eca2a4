/**
 * The page's gateway link: every `GatewaySocket` a page opens on a hub travels over one
 * `MessagePort` to it (the gateway link wire of `src/hub/protocol.ts`), each under an id of its
 * own, instead of a port per socket. A dispatch the hub sends to the page's ten sockets then
 * arrives as one message, and the page wakes once for it. A socket still closes as a dropped
 * WebSocket (1006) when its hub is gone, and the hub still drops a socket whose page is gone.
 */
import * as Comlink from 'comlink';
import type { GatewayLinkEvents, GatewayLinkRequest, GatewaySocketEvent, GatewaySocketRequest } from '../hub/protocol';
import { hub, onHubGone, pageOwner } from './hub-link';

/** A page's link to one start of a hub: its port, and where each socket's events go. */
interface PageLink {
  port: MessagePort;
  sockets: Map<number, (event: GatewaySocketEvent) => void>;
}

/** The link to each hub by name, while that start of the hub lives. */
const links = new Map<string, PageLink>();
let nextSocketId = 0;

function linkTo(name: string): PageLink {
  const existing = links.get(name);
  if (existing) return existing;
  // First, so that a context without shared workers says so before anything is kept.
  const remote = hub(name);
  const { port1, port2 } = new MessageChannel();
  const link: PageLink = { port: port1, sockets: new Map() };
  links.set(name, link);
  // The sockets hear of it themselves (1006); sockets opened from now on open a new link.
  onHubGone(name, () => {
    if (links.get(name) === link) links.delete(name);
    port1.close();
  });
  port1.addEventListener('message', (event: MessageEvent<GatewayLinkEvents>) => {
    for (const [id, socketEvent] of event.data) link.sockets.get(id)?.(socketEvent);
  });
  port1.start();
  void pageOwner().then((owner) => remote.openGatewayLink(Comlink.transfer(port2, [port2]), owner));
  return link;
}

/**
 * Opens a gateway socket for `url` on the page's link to hub `name`: `onEvent` receives its
 * events, `onGone` runs if that hub goes away first. Returns how to send the socket's requests,
 * and the function to call once the socket closed.
 * @example const socket = openLinkedSocket(HUB_WORKER_NAME, '/gateway?v=10&encoding=json', onEvent, onGone);
 */
export function openLinkedSocket(
  name: string,
  url: string,
  onEvent: (event: GatewaySocketEvent) => void,
  onGone: () => void,
): { post(request: GatewaySocketRequest): void; closed(): void } {
  // Both now, so that the hub the socket opens on is the one whose end it watches.
  const link = linkTo(name);
  const unwatch = onHubGone(name, onGone);
  const id = ++nextSocketId;
  link.sockets.set(id, onEvent);
  const send = (request: GatewayLinkRequest) => link.port.postMessage(request);
  // The page holds its lock again (it lets go on pagehide) before the hub watches it for this socket.
  const opened = pageOwner().then(() => send({ id, type: 'open', url }));
  return {
    // After the open, whatever the page does meanwhile (a close while connecting).
    post: (request) => void opened.then(() => send({ id, ...request })),
    closed: () => {
      link.sockets.delete(id);
      unwatch();
    },
  };
}
