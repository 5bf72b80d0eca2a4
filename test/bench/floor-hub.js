// @ts-check
/// <reference lib="webworker" />
/**
 * The floor of the gateway (`npm run bench`): the least a shared worker can do that, told of a
 * stored message, stores a resume point of its own and then hands the message to every socket
 * connected to it. Each connection is a port (a tab opens one per socket, as GatewaySocket
 * does); a message on the `bench-floor-gateway` BroadcastChannel (posted by the floor service
 * worker after its put) is put into IndexedDB as one record, committed, then posted to every port.
 */
const scope = /** @type {SharedWorkerGlobalScope} */ (/** @type {unknown} */ (self));
/** `FLOOR_GATEWAY_CHANNEL` of pages/control.js (this classic worker script imports nothing). */
const FLOOR_GATEWAY_CHANNEL = 'bench-floor-gateway';
/** @type {MessagePort[]} */
const ports = [];
let sequence = 0;

/** @type {Promise<IDBDatabase>} */
const database = new Promise((resolve, reject) => {
  const request = indexedDB.open('bench-floor-hub', 1);
  request.onupgradeneeded = () => request.result.createObjectStore('points', { keyPath: 'id' });
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});

new BroadcastChannel(FLOOR_GATEWAY_CHANNEL).addEventListener('message', async (event) => {
  const db = await database;
  const key = event.data.key;
  await new Promise((resolve, reject) => {
    const tx = db.transaction('points', 'readwrite');
    tx.objectStore('points').put({ id: ++sequence, key, ports: ports.length });
    tx.oncomplete = () => resolve(undefined);
    tx.onerror = () => reject(tx.error);
  });
  const text = JSON.stringify({ t: 'MESSAGE', d: { content: key }, s: sequence });
  for (const port of ports) port.postMessage(text);
});

scope.addEventListener('connect', (event) => {
  for (const port of event.ports) {
    ports.push(port);
    port.postMessage('connected');
  }
});
