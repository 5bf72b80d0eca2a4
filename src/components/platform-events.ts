/**
 * What the platform tells a frame's user while its activity runs: a gateway session with the
 * activity's access token (as the platform's client keeps one), whose dispatches the RPC host
 * turns into the events the activity subscribed to (CURRENT_USER_UPDATE, GUILD_STATUS, ...), and
 * identified as the platform's client (CAPABILITY_PLATFORM_CLIENT), so that it also hears what
 * only the client hears (ACTIVITY_JOIN, QUEST_ENROLLMENT_STATUS_UPDATE, THERMAL_STATE_UPDATE).
 * The session is the platform's one gateway loop (`src/gateway/client.ts`): when the connection
 * drops (or the hub restarts) it connects again and resumes the session with its `session_id`
 * and last `seq`, so the events in between still arrive; only when the gateway answers Invalid
 * Session does it identify afresh. The token is never logged.
 */
import { GATEWAY_CLIENT_URL, GatewayClient, type GatewayClientSocket } from '../gateway/client';
import { CAPABILITY_PLATFORM_CLIENT, type GatewayDispatch } from '../gateway/protocol';
import { INTENTS } from '../platform/core/intents';
import { GatewaySocket } from '../sockets/gateway-socket';

/** The gateway URL frames connect to. */
export const FRAME_GATEWAY_URL = GATEWAY_CLIENT_URL;

/**
 * Intents a frame's session asks for: guilds and voice states. Member and presence updates of
 * the user themself reach their own sessions whatever the intents; other members' need
 * privileged intents the application may not have, and asking would end the session (4014).
 */
export const FRAME_INTENTS = INTENTS.GUILDS | INTENTS.GUILD_VOICE_STATES;

/** What the listener needs of a socket: the WebSocket interface. */
export type SocketLike = GatewayClientSocket;

/** How long to wait before connecting again after the connection dropped (the hub restarts quickly). */
const RECONNECT_DELAY_MS = 1000;

/** How the listener's connection stands: `resumed` after a drop means nothing was missed. */
export type PlatformEventsStatus = 'ready' | 'resumed' | 'disconnected';

/** The platform's timers, read when called (so that a test's fake timers apply). */
const timers = {
  setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Listens to the gateway as the token's user; `onDispatch` hears every dispatch (RESUMED
 * included) by name and payload; `onStatus` each change of the connection. Returns
 * the function that stops listening (which ends the session: close 1000).
 * @example const stop = listenToPlatform(session.access_token, (t, d) => host.platformEvent(t, d));
 */
export function listenToPlatform(
  token: string,
  onDispatch: (type: GatewayDispatch['t'], data: GatewayDispatch['d']) => void,
  openSocket: (url: string) => SocketLike = (url) => new GatewaySocket(url),
  onStatus: (status: PlatformEventsStatus) => void = () => undefined,
): () => void {
  const client = new GatewayClient({
    openSocket,
    timers,
    url: FRAME_GATEWAY_URL,
    reconnectDelayMs: () => RECONNECT_DELAY_MS,
    identify: () => ({
      token: `Bearer ${token}`,
      intents: FRAME_INTENTS,
      // The platform's own client: it also hears the user's joins, quest status and device.
      capabilities: CAPABILITY_PLATFORM_CLIENT,
      properties: { os: 'browser', browser: 'platformpp', device: 'pp-activity-frame' },
    }),
    listener: {
      dispatch: (dispatch) => onDispatch(dispatch.t, dispatch.d),
      state: (change) => {
        if (change.state === 'ready') onStatus(change.resumed ? 'resumed' : 'ready');
        else if (change.state === 'reconnecting') onStatus('disconnected');
      },
    },
  });
  client.start();
  return () => void client.stop('The activity frame stopped');
}
