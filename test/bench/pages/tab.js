// @ts-check
/**
 * A bench tab (`tab.html?name=o1` under the platform's worker, `floor/tab.html?name=f1` under
 * the floor worker). On the driver's word it:
 * - `configure`: keeps the URL and Authorization of its writes;
 * - `write`: sends `n` POSTs one after the other and reports each one's time;
 * - `sockets`: opens one GatewaySocket per token, each identified as a listener of the fan-out
 *   lobby, and acknowledges every fan-out message once all of its sockets have it; and as many
 *   connections to the floor hub, acknowledging each of its messages once all of them have it;
 * - `close`: closes its sockets.
 * It acknowledges each floor fan-out message as soon as it arrives.
 */
import { ACK_CHANNEL, CONTROL_CHANNEL, FLOOR_FANOUT_CHANNEL, FLOOR_HUB } from './control.js';
import { openGatewayClient } from './gateway-client.js';

const name = new URL(location.href).searchParams.get('name') ?? 'tab';
const acks = new BroadcastChannel(ACK_CHANNEL);
/** @param {string} key @param {Record<string, unknown>} [data] */
const ack = (key, data = {}) => acks.postMessage({ tab: name, key, ...data });

/** @type {{ url: string, auth: string | null }} */
let target = { url: '', auth: null };
/** @type {import('./gateway-client.js').GatewayClient[]} */
let clients = [];
/** How many of this tab's sockets have each fan-out message. */
const arrivals = new Map();
/** This tab's connections to the floor hub, one per socket. */
/** @type {SharedWorker[]} */
let floorSockets = [];
/** How many of them have each floor gateway message. */
const floorArrivals = new Map();

/** Opens `count` connections to the floor hub and resolves once each is connected. @param {number} count */
async function openFloorSockets(count) {
  floorSockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve) => {
          const worker = new SharedWorker(FLOOR_HUB, { name: 'bench-floor-hub' });
          worker.port.onmessage = (event) => {
            if (event.data === 'connected') return resolve(worker);
            const key = JSON.parse(event.data).d.content;
            const count = (floorArrivals.get(key) ?? 0) + 1;
            if (count < floorSockets.length) floorArrivals.set(key, count);
            else {
              floorArrivals.delete(key);
              ack(key);
            }
          };
        }),
    ),
  );
}

/** @param {number} n @param {string} key */
async function write(n, key) {
  /** @type {Record<string, string>} */
  const headers = { 'Content-Type': 'application/json' };
  if (target.auth) headers.Authorization = target.auth;
  const times = [];
  let failures = 0;
  for (let i = 0; i < n; i++) {
    const body = JSON.stringify({
      content: `${key} message ${i} from ${name}: the quick brown fox jumps over the lazy dog.`,
    });
    const start = performance.now();
    const response = await fetch(target.url, { method: 'POST', headers, body });
    await response.arrayBuffer();
    times.push(performance.now() - start);
    if (!response.ok) failures++;
  }
  return { times, failures };
}

/** @param {import('./gateway-client.js').Payload} payload */
function onDispatch(payload) {
  if (payload.t !== 'LOBBY_MESSAGE_CREATE') return;
  const key = payload.d.content;
  const count = (arrivals.get(key) ?? 0) + 1;
  if (count < clients.length) arrivals.set(key, count);
  else {
    arrivals.delete(key);
    ack(key);
  }
}

new BroadcastChannel(FLOOR_FANOUT_CHANNEL).addEventListener('message', (event) => ack(event.data.key));

new BroadcastChannel(CONTROL_CHANNEL).addEventListener('message', async (event) => {
  const msg = event.data;
  if (!Array.isArray(msg?.to) || !msg.to.includes(name)) return;
  try {
    if (msg.cmd === 'configure') {
      target = { url: msg.url, auth: msg.auth ?? null };
      ack(msg.key);
    } else if (msg.cmd === 'write') {
      ack(msg.key, await write(msg.n, msg.key));
    } else if (msg.cmd === 'sockets') {
      const tokens = /** @type {string[]} */ (msg.tokens[name]);
      clients = await Promise.all(tokens.map((token) => openGatewayClient(token, 0)));
      for (const client of clients) client.onDispatch = onDispatch;
      await openFloorSockets(tokens.length);
      ack(msg.key, { sockets: clients.length });
    } else if (msg.cmd === 'close') {
      for (const client of clients) client.close();
      clients = [];
      ack(msg.key);
    }
  } catch (error) {
    ack(msg.key, { error: String(/** @type {any} */ (error)?.stack ?? error) });
  }
});

/** Set once the tab listens; the floor tabs first hand themselves to the floor worker. */
const ready = /** @type {any} */ (globalThis).benchTabSetup?.() ?? Promise.resolve();
ready.then(
  () => (document.documentElement.dataset.ready = navigator.serviceWorker.controller?.scriptURL ?? 'uncontrolled'),
  (/** @type {unknown} */ error) => (document.documentElement.dataset.ready = `error: ${error}`),
);
