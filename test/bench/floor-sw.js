// @ts-check
/// <reference lib="webworker" />
/**
 * The floor service worker of `npm run bench`, registered at `/bench/floor/` so that it never
 * fights the platform's worker (scope `/`) for a page. It does the least a service worker can:
 * - `GET /bench/floor/data`: the bytes of the platform's answer, held in memory (kept in Cache
 *   Storage too, only so that a worker the browser stopped between two phases finds them again);
 * - `POST /bench/floor/put`: reads the body, puts one record into IndexedDB, answers once the
 *   transaction has committed: a raw IndexedDB put behind a fetch. With `?announce=1` it then
 *   posts `{key: content}` on the fan-out floor channel: the least a durable write that tells
 *   every tab can do (the durable floor of the gateway fan-out). With `?gateway=1` it posts
 *   `{key}` to the floor hub (`floor-hub.js`) instead, which stores a point and tells every
 *   socket (the gateway floor).
 * - `GET /bench/floor/lobby?id=`: opens the platform's IndexedDB (the worker keeps no connection
 *   across a stop) and answers the lobby's newest 200 stored messages and their authors' records
 *   as JSON, read in one transaction: the least a worker that answers a read from IndexedDB does
 *   after the browser stopped it (the floor of the first read after a stop).
 * Every other request goes to the network untouched.
 */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const BODY_CACHE = 'bench-floor';
const BODY_KEY = '/bench/floor/body';
const JSON_HEADERS = { 'Content-Type': 'application/json' };
/** `FLOOR_FANOUT_CHANNEL` and `FLOOR_GATEWAY_CHANNEL` of pages/control.js (this classic worker script imports nothing). */
const FLOOR_FANOUT_CHANNEL = 'bench-floor-fanout';
const FLOOR_GATEWAY_CHANNEL = 'bench-floor-gateway';
/** @type {BroadcastChannel | null} */
let fanout = null;
/** @type {BroadcastChannel | null} */
let gateway = null;

/** @type {string | null} */
let body = null;
/** @type {Promise<IDBDatabase> | null} */
let database = null;
let sequence = 0;

/** @returns {Promise<IDBDatabase>} */
function openDatabase() {
  database ??= new Promise((resolve, reject) => {
    const request = indexedDB.open('bench-floor', 2);
    request.onupgradeneeded = () => {
      const names = request.result.objectStoreNames;
      if (!names.contains('records')) request.result.createObjectStore('records', { keyPath: 'id' });
      if (!names.contains('requests')) request.result.createObjectStore('requests', { keyPath: 'fingerprint' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return database;
}

/** @type {Promise<IDBDatabase> | null} */
let platformDatabase = null;

/** The newest 200 messages of lobby `id` with their authors, from the platform's database. @param {string} id */
async function answerLobby(id) {
  platformDatabase ??= new Promise((resolve, reject) => {
    const request = indexedDB.open('platformpp');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await platformDatabase;
  const tx = db.transaction(['lobby_messages', 'users'], 'readonly');
  /** @template T @param {IDBRequest<T>} request @returns {Promise<T>} */
  const done = (request) =>
    new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  const messages = await done(
    tx.objectStore('lobby_messages').getAll(IDBKeyRange.bound([id, ''], [id, '\uffff']), 200),
  );
  const authorIds = [...new Set(messages.map((m) => m.author_id))];
  const authors = await Promise.all(authorIds.map((a) => done(tx.objectStore('users').get(a))));
  return new Response(JSON.stringify({ messages, authors }), { headers: JSON_HEADERS });
}

/** @returns {Promise<Response>} */
async function answerBody() {
  if (body === null) {
    const cached = await (await caches.open(BODY_CACHE)).match(BODY_KEY);
    body = cached ? await cached.text() : '';
  }
  return new Response(body, { headers: JSON_HEADERS });
}

/** The SHA-256 of a request's client, method, URL and body, in hex. @param {string[]} parts */
async function fingerprintOf(parts) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(parts.join('\n')));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {FetchEvent} event @returns {Promise<Response>} */
async function put(event) {
  const request = event.request;
  const text = await request.text();
  const input = JSON.parse(text);
  const params = new URL(request.url).searchParams;
  // `?guarded=1`: the least a write that recognizes a request dispatched again can do.
  const fingerprint = params.has('guarded')
    ? await fingerprintOf([event.clientId, request.method, request.url, text])
    : null;
  const db = await openDatabase();
  const record = { id: `${Date.now()}-${++sequence}`, content: input.content, created_at: Date.now() };
  await new Promise((resolve, reject) => {
    const tx = db.transaction(fingerprint ? ['records', 'requests'] : 'records', 'readwrite');
    if (fingerprint) {
      const requests = tx.objectStore('requests');
      const seen = requests.get(fingerprint);
      seen.onsuccess = () => {
        if (seen.result) return tx.abort();
        requests.put({ fingerprint, record_id: record.id, at: Date.now() });
        tx.objectStore('records').put(record);
      };
    } else tx.objectStore('records').put(record);
    tx.oncomplete = () => resolve(undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('the request came again'));
  });
  if (params.has('announce')) {
    fanout ??= new BroadcastChannel(FLOOR_FANOUT_CHANNEL);
    fanout.postMessage({ key: input.content });
  }
  if (params.has('gateway')) {
    gateway ??= new BroadcastChannel(FLOOR_GATEWAY_CHANNEL);
    gateway.postMessage({ key: input.content });
  }
  return new Response(JSON.stringify(record), { headers: JSON_HEADERS });
}

sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
sw.addEventListener('message', (event) => {
  // The page has put the same bytes into Cache Storage before it sends them.
  if (event.data?.type === 'body') body = event.data.body;
  // A page that loaded while the worker was installing asks to be claimed.
  if (event.data?.type === 'claim') event.waitUntil(sw.clients.claim());
});
sw.addEventListener('fetch', (event) => {
  const { pathname } = new URL(event.request.url);
  if (pathname === '/bench/floor/data') event.respondWith(answerBody());
  else if (pathname === '/bench/floor/lobby')
    event.respondWith(answerLobby(/** @type {string} */ (new URL(event.request.url).searchParams.get('id'))));
  else if (pathname === '/bench/floor/put' && event.request.method === 'POST') event.respondWith(put(event));
});
