// @ts-check
/**
 * The driver page of `npm run bench` (`/bench/driver.html`, under the platform's service
 * worker). Each phase runs here as one long in-page function: it interleaves the variants
 * round by round, rotating their order, times inside the pages that make the requests, and
 * hands back every raw time at the end. Progress goes to the console, which run.js prints.
 */
import { acknowledged, embedFrame, FLOOR_FANOUT_CHANNEL, sleep, tell } from './control.js';
import { openGatewayClient } from './gateway-client.js';
import { call, must, seedWorld } from './seed.js';

/** @param {string} line */
const log = (line) => console.log(`bench: ${line}`);

/**
 * `items` in the order of round `round`: rotated by one per round, so that every variant runs
 * first, second... equally often.
 * @template T @param {T[]} items @param {number} round
 */
function rotated(items, round) {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** Logs about every tenth round. @param {string} phase @param {number} round @param {number} total */
function progress(phase, round, total) {
  const step = Math.max(1, Math.round(total / 10));
  if ((round + 1) % step === 0 || round + 1 === total) log(`${phase}: round ${round + 1}/${total}`);
}

/** Registers the built `/sw.js` like `<pp-platform>` does and resolves once it controls the page. */
async function registerPlatform() {
  const container = navigator.serviceWorker;
  const registration = await container.register('/sw.js', { type: 'classic', scope: '/' });
  if (!container.controller) {
    const changed = new Promise((resolve) => container.addEventListener('controllerchange', resolve, { once: true }));
    (registration.active ?? (await container.ready).active)?.postMessage({ type: 'claim' });
    await changed;
  }
  return /** @type {ServiceWorker} */ (container.controller).scriptURL;
}

/** The read frames, once `read` embedded them: the cold reads and the heap reuse them. */
/** @type {Record<string, import('./control.js').BenchFrame>} */
const readFrames = {};

/**
 * Phase 1 and the read half of phase 4: every variant fetched `batch` times in a row per round,
 * in the frame that answers it. Returns the raw times per variant (warm-up rounds dropped), what
 * each frame is (isolated, controlled by whom) and whether every variant answered the same bytes.
 * @param {{ frames: { name: string, src: string, body?: string }[], variants: { name: string, frame: string, url: string, init?: RequestInit, before?: { url: string, init: RequestInit } }[], reference: string, rounds: number, warmup: number, batch: number }} options
 */
async function read({ frames, variants, reference, rounds, warmup, batch }) {
  const byName = readFrames;
  /** @type {Record<string, { isolated: boolean, controller: string | null }>} */
  const about = {};
  for (const spec of frames) {
    byName[spec.name] = await embedFrame(spec.name, spec.src);
    const { isolated, controller } = await byName[spec.name].call('setup', { body: spec.body });
    about[spec.name] = { isolated, controller };
    log(
      `read: frame ${spec.name} ready (cross-origin isolated: ${isolated}, controlled by ${controller ?? 'nothing'})`,
    );
  }
  /** @type {Record<string, { bytes: number, identical: boolean }>} */
  const answers = {};
  let referenceText = null;
  // The reference first: every other variant is compared with its bytes.
  for (const variant of [...variants].sort((a, b) => Number(b.name === reference) - Number(a.name === reference))) {
    const { status, text } = await byName[variant.frame].call('text', { url: variant.url, init: variant.init });
    if (status !== 200) throw new Error(`${variant.name}: ${variant.url} answered ${status}: ${text.slice(0, 200)}`);
    referenceText ??= text;
    answers[variant.name] = { bytes: new TextEncoder().encode(text).byteLength, identical: text === referenceText };
  }
  /** @type {Record<string, number[]>} */
  const times = Object.fromEntries(variants.map((v) => [v.name, []]));
  let failures = 0;
  for (let round = 0; round < warmup + rounds; round++) {
    for (const variant of rotated(variants, round)) {
      const result = await byName[variant.frame].call('loop', {
        url: variant.url,
        init: variant.init,
        before: variant.before,
        warm: !variant.before,
        n: batch,
        status: 200,
      });
      failures += result.failures;
      if (round >= warmup) times[variant.name].push(...result.times);
    }
    progress('read', round, warmup + rounds);
  }
  return { times, about, answers, failures };
}

/**
 * One request from read frame `frame`, timed inside it (run.js stopped the service workers
 * first: this is the first request of a new start). Resolves to its time in ms.
 * @param {{ frame: string, url: string, init?: RequestInit }} options
 */
async function readOnce({ frame, url, init }) {
  const result = await readFrames[frame].call('loop', { url, init, warm: false, n: 1, status: 200 });
  if (result.failures > 0) throw new Error(`${url} did not answer 200 from frame ${frame}`);
  return result.times[0];
}

/**
 * {@link readOnce}, with the request's two parts as the frame's resource timing tells them:
 * `start` (the service worker's start, to its fetch event) and `handler` (the fetch event to
 * the first byte of the answer), in ms.
 * @param {{ frame: string, url: string, init?: RequestInit }} options
 */
async function readOnceInParts({ frame, url, init }) {
  const result = await readFrames[frame].call('loop', { url, init, warm: false, n: 1, status: 200, phases: true });
  if (result.failures > 0) throw new Error(`${url} did not answer 200 from frame ${frame}`);
  return { time: result.times[0], ...result.phases[0] };
}

/**
 * Reads each of `lobbies` once from the platform's read frame, newest 200 messages each.
 * @param {{ lobbies: { id: string }[], init: RequestInit }} options
 */
async function readLobbiesOnce({ lobbies, init }) {
  for (const lobby of lobbies) {
    const result = await readFrames.ours.call('loop', {
      url: `/api/v10/lobbies/${lobby.id}/messages?limit=200`,
      init,
      warm: false,
      n: 1,
      status: 200,
    });
    if (result.failures > 0) throw new Error(`lobby ${lobby.id} did not answer 200`);
  }
}

/**
 * Phase 2: each group of tabs sends `batch` POSTs per tab per round, the tabs of a group at
 * once. Latencies come from the tabs; messages per second from this page's clock, from the
 * word go to the last tab's report.
 * @param {{ groups: { name: string, tabs: string[] }[], targets: Record<string, { url: string, auth?: string }>, rounds: number, warmup: number, batch: number }} options
 */
async function write({ groups, targets, rounds, warmup, batch }) {
  for (const [tab, target] of Object.entries(targets)) {
    const done = acknowledged([tab], `configure-${tab}`);
    tell([tab], 'configure', `configure-${tab}`, target);
    await done;
  }
  /** @type {Record<string, { times: number[], rates: number[] }>} */
  const results = Object.fromEntries(groups.map((g) => [g.name, { times: [], rates: [] }]));
  let failures = 0;
  for (let round = 0; round < warmup + rounds; round++) {
    for (const group of rotated(groups, round)) {
      const key = `write-${round}-${group.name}`;
      const done = acknowledged(group.tabs, key);
      const start = performance.now();
      tell(group.tabs, 'write', key, { n: batch });
      const reports = await done;
      const elapsed = performance.now() - start;
      for (const report of reports.values()) {
        if (report.error) throw new Error(`${report.tab}: ${report.error}`);
        failures += report.failures;
        if (round >= warmup) results[group.name].times.push(...report.times);
      }
      if (round >= warmup) results[group.name].rates.push((group.tabs.length * batch) / (elapsed / 1000));
    }
    progress('write', round, warmup + rounds);
  }
  return { results, failures };
}

/**
 * Phase 3: one lobby message (posted by the bot) until every one of the tabs' sockets has it
 * and each tab said so; beside it, interleaved, three floors until every tab said so: one
 * BroadcastChannel message (nothing stored); a raw IndexedDB put in the floor service worker
 * that then posts that BroadcastChannel message (the least a durable write that tells every tab
 * can do; the put is sent from a frame under the floor worker, one postMessage away); and the
 * same put telling the floor hub, which stores one record and then posts to every socket's port
 * (the least a gateway that stores a resume point before it sends can do).
 * @param {{ tabs: string[], tokens: Record<string, string[]>, lobbyId: string, botAuth: string, floorFrame: string, rounds: number, warmup: number }} options
 */
async function fanout({ tabs, tokens, lobbyId, botAuth, floorFrame, rounds, warmup }) {
  const opened = acknowledged(tabs, 'sockets');
  tell(tabs, 'sockets', 'sockets', { tokens });
  const sockets = [...(await opened).values()].reduce((sum, report) => {
    if (report.error) throw new Error(`${report.tab}: ${report.error}`);
    return sum + report.sockets;
  }, 0);
  log(`fan-out: ${sockets} sockets identified on ${tabs.length} tabs`);
  const durableFrame = await embedFrame('durable floor', floorFrame);
  await durableFrame.call('setup', { body: '' });
  const floor = new BroadcastChannel(FLOOR_FANOUT_CHANNEL);
  const put = (/** @type {string} */ key, /** @type {string} */ to = 'announce') => ({
    url: `/bench/floor/put?${to}=1`,
    init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ content: key }) },
  });
  /** @type {Record<string, number[]>} */
  const times = { gateway: [], floor: [], durable: [], gatewayFloor: [] };
  for (let round = 0; round < warmup + rounds; round++) {
    for (const variant of rotated(['gateway', 'floor', 'durable', 'gatewayFloor'], round)) {
      const key = `${variant}-${round}`;
      const done = acknowledged(tabs, key, 30_000);
      const start = performance.now();
      /** @type {Promise<any> | undefined} */
      let posted;
      if (variant === 'gateway')
        posted = must(201, 'POST', `/api/v10/lobbies/${lobbyId}/messages`, { content: key }, botAuth);
      else if (variant === 'durable') posted = durableFrame.call('text', put(key));
      else if (variant === 'gatewayFloor') posted = durableFrame.call('text', put(key, 'gateway'));
      else floor.postMessage({ key });
      await done;
      const elapsed = performance.now() - start;
      const answer = await posted;
      if ((variant === 'durable' || variant === 'gatewayFloor') && answer.status !== 200)
        throw new Error(`the floor put answered ${answer.status}`);
      if (round >= warmup) times[variant].push(elapsed);
      // Let the hub finish its own bookkeeping before the next figure starts.
      await sleep(10);
    }
    progress('fan-out', round, warmup + rounds);
  }
  const closed = acknowledged(tabs, 'close');
  tell(tabs, 'close', 'close');
  await closed;
  floor.close();
  return { times, sockets };
}

/**
 * The floor of reading a guild's members: its member records and their users read from the
 * platform's IndexedDB in one transaction, as few requests as can be (one range read of the
 * members, and the users in runs of 500 ids, each one range read), nothing else. Resolves to the
 * time in ms.
 * @param {string} guildId
 */
async function readMembersFloor(guildId) {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('platformpp');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    /** @template T @param {IDBRequest<T>} request @returns {Promise<T>} */
    const done = (request) =>
      new Promise((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const start = performance.now();
    const tx = /** @type {IDBDatabase} */ (db).transaction(['members', 'users'], 'readonly');
    const members = await done(tx.objectStore('members').getAll(IDBKeyRange.bound([guildId], [guildId, []])));
    const ids = members.map((/** @type {{ user_id: string }} */ m) => m.user_id).sort();
    const runs = [];
    for (let i = 0; i < ids.length; i += 500) {
      const run = ids.slice(i, i + 500);
      runs.push(done(tx.objectStore('users').getAll(IDBKeyRange.bound(run[0], run[run.length - 1]), run.length * 4)));
    }
    const users = (await Promise.all(runs)).flat();
    const elapsed = performance.now() - start;
    if (users.length < members.length - 2) throw new Error(`read ${users.length} users for ${members.length} members`);
    return elapsed;
  } finally {
    /** @type {IDBDatabase} */ (db).close();
  }
}

/**
 * Phase 4, Request Guild Members for all members: from the request to the last chunk. The
 * sandbox clock moves 31 s before each request, past the all-members rate limit of 30 s. Beside
 * each request, the floor of reading the same members from IndexedDB (`readMembersFloor`).
 * @param {{ botAuth: string, guilds: { size: number, id: string }[], rounds: number, warmup: number }} options
 */
async function requestMembers({ botAuth, guilds, rounds, warmup }) {
  const GUILDS_AND_MEMBERS = (1 << 0) | (1 << 1);
  const client = await openGatewayClient(botAuth, GUILDS_AND_MEMBERS);
  const base = Date.now();
  let step = 0;
  /** @type {Record<string, number[]>} */
  const times = Object.fromEntries(guilds.map((g) => [String(g.size), []]));
  /** @type {Record<string, number[]>} */
  const floors = Object.fromEntries(guilds.map((g) => [String(g.size), []]));
  let rateLimited = 0;
  /** @param {{ size: number, id: string }} guild @param {string} nonce */
  const request = (guild, nonce) =>
    new Promise((resolve, reject) => {
      let members = 0;
      let chunks = 0;
      const timer = setTimeout(
        () => reject(new Error(`no last chunk for ${guild.size} members within 120 s`)),
        120_000,
      );
      client.onDispatch = (payload) => {
        if (payload.t === 'RATE_LIMITED' && payload.d.meta?.nonce === nonce) {
          clearTimeout(timer);
          resolve({ limited: true });
        } else if (payload.t === 'GUILD_MEMBERS_CHUNK' && payload.d.nonce === nonce) {
          members += payload.d.members.length;
          if (++chunks === payload.d.chunk_count) {
            const elapsed = performance.now() - start;
            clearTimeout(timer);
            resolve({ limited: false, elapsed, members });
          }
        }
      };
      const start = performance.now();
      client.send({ op: 8, d: { guild_id: guild.id, query: '', limit: 0, nonce } });
    });
  try {
    for (let round = 0; round < warmup + rounds; round++) {
      for (const guild of rotated(guilds, round)) {
        for (let attempt = 0; ; attempt++) {
          await must(200, 'PUT', '/sandbox/clock', { now: new Date(base + ++step * 31_000).toISOString() });
          // The hub hears of the clock on the announcement channel.
          await sleep(50);
          const result = /** @type {any} */ (await request(guild, `m${round}-${guild.size}-${attempt}`));
          if (result.limited) {
            rateLimited++;
            if (attempt > 5) throw new Error('still rate limited after moving the clock 6 times');
            continue;
          }
          if (result.members !== guild.size)
            throw new Error(`asked for all ${guild.size} members, got ${result.members}`);
          if (round >= warmup) times[String(guild.size)].push(result.elapsed);
          break;
        }
        const floor = await readMembersFloor(guild.id);
        if (round >= warmup) floors[String(guild.size)].push(floor);
      }
      progress('request guild members', round, warmup + rounds);
    }
  } finally {
    client.close();
    await call('DELETE', '/sandbox/clock');
  }
  return { times, floors, rateLimited };
}

/** What run.js calls through `page.evaluate`. */
/** @type {any} */ (globalThis).bench = {
  registerPlatform,
  /** @param {Omit<Parameters<typeof seedWorld>[0], 'log'>} options */
  seed: (options) => seedWorld({ ...options, log: (line) => log(`seed: ${line}`) }),
  read,
  readOnce,
  readOnceInParts,
  readLobbiesOnce,
  write,
  fanout,
  requestMembers,
};
document.documentElement.dataset.ready = 'true';
