/**
 * What the platform tells a frame's user while its activity runs: a gateway session with the
 * activity's access token (as the platform's client keeps one), whose dispatches the RPC host
 * turns into the events the activity subscribed to (CURRENT_USER_UPDATE, GUILD_STATUS, ...).
 * Reconnects with a fresh Identify when the connection drops; the token is never logged.
 */
import { GatewaySocket } from '../gateway/gateway-socket';
import { GATEWAY_OPCODES as OP, type GatewayPayload } from '../gateway/protocol';
import { INTENTS } from '../platform/intents';

/** The gateway URL frames connect to. */
export const FRAME_GATEWAY_URL = '/gateway?v=10&encoding=json';

/**
 * Intents a frame's session asks for: guilds and voice states. Member and presence updates of
 * the user themself reach their own sessions whatever the intents; other members' need
 * privileged intents the application may not have, and asking would end the session (4014).
 */
export const FRAME_INTENTS = INTENTS.GUILDS | INTENTS.GUILD_VOICE_STATES;

/** What the listener needs of a socket: the WebSocket interface. */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message' | 'close', listener: (event: any) => void): void;
}

/** Close codes after which a new connection cannot help (bad token, intents). */
const FATAL = new Set([4004, 4012, 4013, 4014]);
/** How long to wait before connecting again after the connection dropped. */
const RECONNECT_DELAY_MS = 1000;

/**
 * Listens to the gateway as the token's user; `onDispatch` hears every dispatch. Returns the
 * function that stops listening.
 * @example const stop = listenToPlatform(session.access_token, (t, d) => host.platformEvent(t, d));
 */
export function listenToPlatform(
  token: string,
  onDispatch: (type: string, data: unknown) => void,
  openSocket: (url: string) => SocketLike = (url) => new GatewaySocket(url),
): () => void {
  let stopped = false;
  let socket: SocketLike | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let seq: number | null = null;

  const connect = () => {
    seq = null;
    const current = openSocket(FRAME_GATEWAY_URL);
    socket = current;
    current.addEventListener('message', (event: MessageEvent<string>) => {
      let payload: GatewayPayload<any>;
      try {
        payload = JSON.parse(event.data);
      } catch {
        return;
      }
      if (payload.op === OP.HELLO) {
        clearInterval(heartbeat);
        heartbeat = setInterval(() => current.send(JSON.stringify({ op: OP.HEARTBEAT, d: seq })), payload.d.heartbeat_interval);
        current.send(JSON.stringify({
          op: OP.IDENTIFY,
          d: { token: `Bearer ${token}`, intents: FRAME_INTENTS, properties: { os: 'browser', browser: 'platformpp', device: 'pp-activity-frame' } },
        }));
      } else if (payload.op === OP.HEARTBEAT) {
        current.send(JSON.stringify({ op: OP.HEARTBEAT, d: seq }));
      } else if (payload.op === OP.DISPATCH && payload.t) {
        seq = payload.s;
        onDispatch(payload.t, payload.d);
      } else if (payload.op === OP.RECONNECT || payload.op === OP.INVALID_SESSION) {
        current.close(4000, 'Reconnecting');
      }
    });
    current.addEventListener('close', (event: CloseEvent) => {
      clearInterval(heartbeat);
      if (stopped || socket !== current || FATAL.has(event.code)) return;
      retry = setTimeout(connect, RECONNECT_DELAY_MS);
    });
  };

  connect();
  return () => {
    stopped = true;
    clearInterval(heartbeat);
    clearTimeout(retry);
    socket?.close(1000, 'The activity frame stopped');
  };
}
