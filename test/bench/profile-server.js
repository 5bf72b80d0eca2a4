#!/usr/bin/env node
// @ts-check
/**
 * A CPU profile of the server's own isolate under the loads of the server phase, to find where
 * its time goes (docs/performance.md, "Server against its engine"):
 *
 *   node test/bench/profile-server.js [--load=fanout|rate|read] [--count=N] [--floor] [--out=DIR] [--top=N]
 *
 * The Worker is built one file per source module, started on workerd through Miniflare with its
 * V8 inspector on, and profiled over the Chrome DevTools protocol (`Profiler.start` /
 * `Profiler.stop` on the Worker's target, which runs the Worker and its Durable Objects) while
 *
 * - `fanout` (the default): one lobby message at a time is posted and read by 50 identified
 *   gateway sessions (`server.fanout_ws`), `--count` messages (default 300);
 * - `rate`: 8 writers post lobby messages back to back (`server.messages_per_s`) for `--count`
 *   seconds (default 10);
 * - `read`: a lobby's 200 newest messages are read one request at a time (`server.rest_read`),
 *   `--count` reads (default 1000).
 *
 * With `--floor`, the same fan-out is profiled in the engine's gateway floor that numbers after
 * the commit (`floor-server.js`, `broadcast-numbered-after`, padded to the server's dispatch), to
 * read the two profiles side by side.
 *
 * It prints the self time summed by function and by file, and writes the `.cpuprofile` (which
 * Chromium's DevTools opens) to `--out` (default `bench/profiles/`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { buildServer } from '../../scripts/build-server.js';
import { startServer } from '../../server/start.js';
import { connectDevtools } from './lib/devtools.js';
import { startEngineFloors } from './lib/engine-floors.js';
import { identified, lobbyWorld } from './lib/server-phase.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const load = args.load ?? 'fanout';
if (!['fanout', 'rate', 'read'].includes(load)) throw new Error(`--load is fanout, rate or read, not ${load}`);
const count = Number(args.count ?? { fanout: 300, rate: 10, read: 1000 }[load]);
const floor = args.floor === 'true';
if (floor && load !== 'fanout') throw new Error('--floor profiles the fan-out only');
const top = Number(args.top ?? 40);
const outDir = resolve(root, args.out ?? 'bench/profiles');
const buildDir = resolve(root, 'node_modules/.cache/platformpp-bench/profile-server');

/** A free TCP port on loopback. */
async function freePort() {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', () => done(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  await new Promise((done) => server.close(done));
  return port;
}

/** Resolves once every socket of `members` received a message containing `content`. */
function heardBy(/** @type {WebSocket[]} */ members, /** @type {string} */ content) {
  return Promise.all(
    members.map(
      (socket) =>
        new Promise((done) => {
          const listener = (/** @type {Buffer} */ data) => {
            if (!String(data).includes(content)) return;
            socket.off('message', listener);
            done(undefined);
          };
          socket.on('message', listener);
        }),
    ),
  );
}

/** `count` fan-outs of `one` (a function of the message's number), after 20 unmeasured. */
function fanoutDriver(/** @type {(n: number) => Promise<unknown>} */ one, /** @type {WebSocket[]} */ members) {
  let n = 0;
  return {
    warm: async () => {
      for (let i = 0; i < 20; i++) await one(++n);
    },
    run: async () => {
      for (let i = 0; i < count; i++) await one(++n);
      return `${count} messages to 50 sessions`;
    },
    close: () => {
      for (const socket of members) socket.close(1000);
    },
  };
}

/** The fan-out: `count` lobby messages, each until all 50 sessions have its dispatch. */
async function fanout(/** @type {string} */ url) {
  const world = await lobbyWorld(`${url}/s/profile-fanout`, 50);
  const gateway = `${(await world.call('GET', '/api/v10/gateway')).url}?v=10&encoding=json`;
  const members = /** @type {WebSocket[]} */ (await Promise.all(world.auths.map((auth) => identified(gateway, auth))));
  return fanoutDriver(async (n) => {
    const content = `profile ${n}`;
    const heard = heardBy(members, content);
    await world.call('POST', `/api/v10/lobbies/${world.lobby.id}/messages`, { content }, world.auths[0]);
    await heard;
  }, members);
}

/** The same fan-out through the engine's gateway floor that numbers after the commit. */
async function floorFanout(/** @type {string} */ url) {
  const members = /** @type {WebSocket[]} */ (
    await Promise.all(
      Array.from(
        { length: 50 },
        () =>
          new Promise((done, fail) => {
            const socket = new WebSocket(`${url.replace('http', 'ws')}/o/profile-fanout/ws`);
            socket.on('open', () => done(socket));
            socket.on('error', fail);
          }),
      ),
    )
  );
  return fanoutDriver(async (n) => {
    const content = `profile ${n}`;
    const heard = heardBy(members, content);
    // The server's dispatch of a lobby message is about 460 bytes.
    const body = JSON.stringify({ content, pad: 'x'.repeat(300) });
    await fetch(`${url}/o/profile-fanout/broadcast-numbered-after`, { method: 'POST', body }).then((r) => r.text());
    await heard;
  }, members);
}

/** The sustained write: 8 writers posting back to back for `count` seconds. */
async function rate(/** @type {string} */ url) {
  const world = await lobbyWorld(`${url}/s/profile-rate`, 8);
  const loop = async (/** @type {number} */ seconds) => {
    let done = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      world.auths.map(async (auth, i) => {
        for (let k = 0; performance.now() < until; k++) {
          await world.call('POST', `/api/v10/lobbies/${world.lobby.id}/messages`, { content: `w${i} ${k}` }, auth);
          done++;
        }
      }),
    );
    return done;
  };
  return {
    warm: () => loop(1),
    run: async () => `${await loop(count)} messages from 8 writers in ${count} s`,
    close: () => {},
  };
}

/** The read: a lobby's 200 newest messages, `count` times. */
async function read(/** @type {string} */ url) {
  const world = await lobbyWorld(`${url}/s/profile-read`, 1);
  for (let i = 0; i < 200; i++) {
    const content = `message ${i} `.padEnd(120, '.');
    await world.call('POST', `/api/v10/lobbies/${world.lobby.id}/messages`, { content }, world.auths[0]);
  }
  const path = `${url}/s/profile-read/api/v10/lobbies/${world.lobby.id}/messages?limit=200`;
  const one = () => fetch(path, { headers: { Authorization: world.auths[0] } }).then((r) => r.text());
  return {
    warm: async () => {
      for (let i = 0; i < 50; i++) await one();
    },
    run: async () => {
      for (let i = 0; i < count; i++) await one();
      return `${count} reads of 200 messages`;
    },
    close: () => {},
  };
}

/**
 * Self time by function and by file.
 * @param {{ nodes: { id: number, callFrame: { functionName: string, url: string, lineNumber: number }, hitCount?: number }[], samples: number[], timeDeltas: number[] }} profile
 */
function summarize(profile) {
  /** @type {Map<number, number>} microseconds of each node */
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample's time is the gap to the next one (the last has none).
    const delta = profile.timeDeltas[i + 1] ?? 0;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + delta);
  }
  let total = 0;
  /** @type {Map<string, number>} */
  const byFunction = new Map();
  /** @type {Map<string, number>} */
  const byFile = new Map();
  for (const node of profile.nodes) {
    const time = self.get(node.id) ?? 0;
    if (!time) continue;
    total += time;
    const { functionName, url, lineNumber } = node.callFrame;
    // workerd names each module by its path under the modules' root.
    const file = url || `(${functionName || 'outside JavaScript'})`;
    const name = `${functionName || '(anonymous)'} ${url ? `${file}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + time);
    byFile.set(file, (byFile.get(file) ?? 0) + time);
  }
  const table = (/** @type {Map<string, number>} */ map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, time]) =>
          `${(time / 1000).toFixed(1).padStart(9)} ms ${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`,
      )
      .join('\n');
  return { total, functions: table(byFunction), files: table(byFile) };
}

const inspectorPort = await freePort();
const server = floor
  ? await startEngineFloors({ inspectorPort })
  : await startServer({
      port: 0,
      workerPath: await buildServer({ quiet: true, outDir: buildDir, perModule: true }),
      modulesRoot: buildDir,
      inspectorPort,
    });
try {
  const driver = await (floor ? floorFanout : { fanout, rate, read }[load])(server.url);
  await driver.warm();
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  // `core:user:<name>` is the Worker's own isolate (`core:user:` for an unnamed Worker), where
  // its Durable Objects run too.
  const target = targets.find((/** @type {{ id: string }} */ t) => t.id.startsWith('core:user:'));
  if (!target) throw new Error(`no Worker target among ${targets.map((/** @type {{ id: string }} */ t) => t.id)}`);
  const session = await connectDevtools(target.webSocketDebuggerUrl);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 100 });
  await session.send('Profiler.start');
  const started = performance.now();
  const what = await driver.run();
  const wall = performance.now() - started;
  const { profile } = await session.send('Profiler.stop');
  session.close();
  driver.close();
  await mkdir(outDir, { recursive: true });
  const file = join(
    outDir,
    `server-${floor ? 'floor-' : ''}${load}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`,
  );
  await writeFile(file, JSON.stringify(profile));
  const summary = summarize(profile);
  console.log(
    `${what}: ${(wall / 1000).toFixed(1)} s, ${(summary.total / 1000).toFixed(0)} ms sampled in the Worker's isolate`,
  );
  console.log(`\nSelf time by file:\n${summary.files}\n\nSelf time by function:\n${summary.functions}\n\n${file}`);
} finally {
  await server.stop();
}
