// @ts-check
/**
 * A gateway client for bench pages: a `GatewaySocket` (the built hub), Identify, heartbeats,
 * and a hook for every dispatch.
 */
import { GatewaySocket } from '../../../src/sockets/gateway-socket';

/**
 * @typedef {{ op: number, d: any, s: number | null, t: string | null }} Payload
 * @typedef {{ socket: GatewaySocket, ready: any, onDispatch: ((payload: Payload, raw: string) => void) | null, send(payload: unknown): void, close(): void }} GatewayClient
 */

/**
 * Opens a socket, identifies with `token` and resolves once READY has arrived.
 * @param {string} token `Bot …` or `Bearer …`
 * @param {number} intents
 * @returns {Promise<GatewayClient>}
 */
export function openGatewayClient(token, intents) {
  const socket = new GatewaySocket('/gateway?v=10&encoding=json');
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let heartbeat;
  let seq = /** @type {number | null} */ (null);
  return new Promise((resolve, reject) => {
    /** @type {GatewayClient} */
    const client = {
      socket,
      ready: null,
      onDispatch: null,
      send: (payload) => socket.send(JSON.stringify(payload)),
      close() {
        clearInterval(heartbeat);
        socket.close(1000);
      },
    };
    socket.addEventListener('close', (event) => {
      clearInterval(heartbeat);
      if (!client.ready) reject(new Error(`gateway closed before READY: ${event.code} ${event.reason}`));
    });
    socket.addEventListener('message', (event) => {
      const raw = /** @type {string} */ (event.data);
      /** @type {Payload} */
      const payload = JSON.parse(raw);
      if (payload.s !== null) seq = payload.s;
      if (payload.op === 10) {
        // Heartbeats keep the 50 sessions alive through a long run (the gateway closes a silent one).
        heartbeat = setInterval(() => client.send({ op: 1, d: seq }), payload.d.heartbeat_interval * 0.9);
        client.send({ op: 2, d: { token, intents, properties: { os: 'linux', browser: 'bench', device: 'bench' } } });
      } else if (payload.op === 0 && payload.t === 'READY') {
        client.ready = payload.d;
        resolve(client);
      } else if (payload.op === 0) {
        client.onDispatch?.(payload, raw);
      }
    });
  });
}
