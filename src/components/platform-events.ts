/**
 * What the platform tells a frame's user while its activity runs: a gateway session with the
 * activity's access token (as the platform's client keeps one), whose dispatches the RPC host
 * turns into the events the activity subscribed to (CURRENT_USER_UPDATE, GUILD_STATUS, ...).
 * When the connection drops (or the hub restarts) it connects again and resumes the session
 * with its `session_id` and last `seq`, so the events in between still arrive; only when the
 * gateway answers Invalid Session does it identify afresh. The token is never logged.
 */
import { GatewaySocket } from '../sockets/gateway-socket';
import {
  FATAL_CLOSE_CODES,
  GATEWAY_OPCODES as OP,
  IDENTIFY_AGAIN_CLOSE_CODES,
  RESUME_CLOSE_CODE,
  type GatewayPayload,
} from '../gateway/protocol';
import { INTENTS } from '../platform/core/intents';

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

/** How long to wait before connecting again after the connection dropped. */
const RECONNECT_DELAY_MS = 1000;

/** How the listener's connection stands: `resumed` after a drop means nothing was missed. */
export type PlatformEventsStatus = 'ready' | 'resumed' | 'disconnected';

/**
 * Listens to the gateway as the token's user; `onDispatch` hears every dispatch (RESUMED
 * included), `onStatus` each change of the connection. Returns the function that stops
 * listening (which ends the session: close 1000).
 * @example const stop = listenToPlatform(session.access_token, (t, d) => host.platformEvent(t, d));
 */
export function listenToPlatform(
  token: string,
  onDispatch: (type: string, data: unknown) => void,
  openSocket: (url: string) => SocketLike = (url) => new GatewaySocket(url),
  onStatus: (status: PlatformEventsStatus) => void = () => undefined,
): () => void {
  let stopped = false;
  let socket: SocketLike | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  /** The session to resume: kept across connections, dropped by Invalid Session. */
  let session: { id: string; url: string } | null = null;
  let seq: number | null = null;

  const identify = (current: SocketLike) => {
    session = null;
    seq = null;
    current.send(
      JSON.stringify({
        op: OP.IDENTIFY,
        d: {
          token: `Bearer ${token}`,
          intents: FRAME_INTENTS,
          properties: { os: 'browser', browser: 'platformpp', device: 'pp-activity-frame' },
        },
      }),
    );
  };

  const connect = () => {
    const resuming = session !== null && seq !== null ? { session_id: session.id, seq } : null;
    const current = openSocket(resuming ? session!.url : FRAME_GATEWAY_URL);
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
        heartbeat = setInterval(
          () => current.send(JSON.stringify({ op: OP.HEARTBEAT, d: seq })),
          payload.d.heartbeat_interval,
        );
        if (resuming) current.send(JSON.stringify({ op: OP.RESUME, d: { token: `Bearer ${token}`, ...resuming } }));
        else identify(current);
      } else if (payload.op === OP.HEARTBEAT) {
        current.send(JSON.stringify({ op: OP.HEARTBEAT, d: seq }));
      } else if (payload.op === OP.DISPATCH && payload.t) {
        seq = payload.s;
        if (payload.t === 'READY') session = { id: payload.d.session_id, url: resumeUrl(payload.d.resume_gateway_url) };
        onDispatch(payload.t, payload.d);
        if (payload.t === 'READY' || payload.t === 'RESUMED') onStatus(payload.t === 'READY' ? 'ready' : 'resumed');
      } else if (payload.op === OP.INVALID_SESSION) {
        // Resumable (`d: true`): connect again and resume; otherwise the session is gone and the
        // gateway takes a new Identify on this connection.
        if (payload.d === true) current.close(RESUME_CLOSE_CODE, 'Reconnecting');
        else identify(current);
      } else if (payload.op === OP.RECONNECT) {
        current.close(RESUME_CLOSE_CODE, 'Reconnecting');
      }
    });
    current.addEventListener('close', (event: CloseEvent) => {
      clearInterval(heartbeat);
      if (stopped || socket !== current || FATAL_CLOSE_CODES.has(event.code)) return;
      if (IDENTIFY_AGAIN_CLOSE_CODES.has(event.code)) session = null;
      onStatus('disconnected');
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

/** READY's `resume_gateway_url` with the version and encoding, as a platform client resumes on it. */
function resumeUrl(url: unknown): string {
  if (typeof url !== 'string' || url === '') return FRAME_GATEWAY_URL;
  return url.includes('?') ? url : `${url}?v=10&encoding=json`;
}
