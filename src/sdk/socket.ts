/**
 * What the SDK needs of a gateway socket and of timers: the `WebSocket` interface (CONTRACT
 * §4), which `GatewaySocket` has in a page and a fake has in a unit test. The gateway loop
 * itself is the platform's one client loop (`src/gateway/client.ts`).
 */
import { GATEWAY_CLIENT_URL, type GatewayClientTimers } from '../gateway/client';

/** The part of the WebSocket interface the client uses (gateway and voice gateway sockets). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: any) => void): void;
}

/** Opens a socket to the gateway URL. */
export type SocketFactory = (url: string) => WebSocketLike | Promise<WebSocketLike>;

/** Timers of the link (heartbeats, reconnect delays); tests may pass their own. */
export type LinkTimers = GatewayClientTimers;

/** The gateway URL the SDK connects to. */
export const GATEWAY_URL = GATEWAY_CLIENT_URL;

/** The platform's timers. */
export const REAL_TIMERS: LinkTimers = {
  setTimeout: (cb, ms) => setTimeout(cb, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};
