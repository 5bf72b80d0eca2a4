// @ts-check
/**
 * The server's figures (CONTRACT §7), each beside a baseline measured in the same run, all on
 * loopback from this Node process:
 * - `server.rest_read`: GET of a lobby's 200 newest messages, against a bare node:http server
 *   sending the same bytes;
 * - `server.fanout_ws`: one lobby message until 50 member sessions (real WebSockets) have its
 *   dispatch, against a bare `ws` server broadcasting the same bytes to 50 sockets;
 * - `server.discordjs_ready`: discord.js 14 from `login()` to ClientReady, against a raw
 *   WebSocket client's Identify to GUILD_CREATE on the same server (what the library adds);
 * - `server.messages_per_s`: lobby messages per second into one sandbox with 8 concurrent
 *   writers, against the same request loop on a bare node:http server that stores nothing.
 * Each is also measured against the engine's floor on the same Miniflare and workerd
 * (`floor-server.js`): a minimal Worker and Durable Object answering the same bytes, broadcasting
 * to 50 hibernatable WebSockets, and inserting one SQLite row per message.
 */
import { createServer } from 'node:http';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import WebSocket, { WebSocketServer } from 'ws';
import { buildServer } from '../../../scripts/build-server.js';
import { startServer } from '../../../server/start.js';
import { startEngineFloors } from './engine-floors.js';
import { descendantsNamed, totalUsage } from './processes.js';

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** JSON requests to `base`. */
function client(/** @type {string} */ base) {
  /** @param {string} method @param {string} path @param {unknown} [body] @param {string} [auth] */
  return async (method, path, body, auth) => {
    /** @type {Record<string, string>} */
    const headers = {};
    if (auth) headers.Authorization = auth;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  };
}

/** A plain node:http server answering every request with `body`. */
async function bareHttp(/** @type {string} */ body) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Milliseconds of each of `rounds` sequential calls of `run` (after `warmup` unmeasured ones). */
async function timeEach(/** @type {() => Promise<unknown>} */ run, /** @type {number} */ rounds, warmup = 3) {
  for (let i = 0; i < warmup; i++) await run();
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times;
}

/** A sandbox with `users` users of one application, each with a lobby-capable token, all in one lobby. */
export async function lobbyWorld(/** @type {string} */ base, /** @type {number} */ users) {
  const call = client(base);
  const owner = (await call('POST', '/sandbox/users', { username: 'owner' })).user;
  const app = await call('POST', '/sandbox/applications', { name: 'Bench', owner_id: owner.id });
  const auths = [];
  for (let i = 0; i < users; i++) {
    const user = (await call('POST', '/sandbox/users', { username: `player${i}` })).user;
    const token = await call('POST', '/sandbox/tokens', {
      application_id: app.application.id,
      user_id: user.id,
      scopes: 'openid sdk.social_layer lobbies.write',
    });
    auths.push(`Bearer ${token.access_token}`);
  }
  let lobby;
  for (const auth of auths) lobby = await call('PUT', '/api/v10/lobbies', { secret: 'bench' }, auth);
  return { call, app, owner, auths, lobby };
}

/** A WebSocket identified with `token`; resolves once the dispatch `until` (READY) arrived. */
export function identified(/** @type {string} */ url, /** @type {string} */ token, intents = 0, until = 'READY') {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('message', (data) => {
      const payload = JSON.parse(String(data));
      if (payload.op === 10) socket.send(JSON.stringify({ op: 2, d: { token, intents, properties: {} } }));
      if (payload.t === until) resolve(socket);
    });
    socket.on('error', reject);
  });
}

/**
 * Runs the server phase.
 * @param {{ root: string, cacheDir: string, quick: boolean, say: (line: string) => void }} options
 */
export async function serverPhase({ cacheDir, quick, say }) {
  const workerPath = await buildServer({ quiet: true, outDir: `${cacheDir}/server` });
  // Each Miniflare's own workerd processes, whose CPU time the fan-out and the write loop read.
  const workerdBefore = new Set(descendantsNamed(process.pid, 'workerd'));
  const server = await startServer({ port: 0, workerPath });
  const serverPids = descendantsNamed(process.pid, 'workerd').filter((pid) => !workerdBefore.has(pid));
  const floors = await startEngineFloors();
  const floorPids = descendantsNamed(process.pid, 'workerd').filter(
    (pid) => !workerdBefore.has(pid) && !serverPids.includes(pid),
  );
  /** CPU milliseconds of `pids` that `run` took (whatever else they did meanwhile: nothing here). */
  const cpuOf = async (/** @type {number[]} */ pids, /** @type {() => Promise<unknown>} */ run) => {
    const before = totalUsage(pids).cpuS;
    const result = await run();
    return { cpuMs: (totalUsage(pids).cpuS - before) * 1000, result };
  };
  /** @type {Record<string, any>} */
  const raw = {};
  try {
    // REST read of 200 lobby messages.
    say('server: REST read of 200 lobby messages');
    const read = await lobbyWorld(`${server.url}/s/read`, 1);
    for (let i = 0; i < 200; i++) {
      await read.call(
        'POST',
        `/api/v10/lobbies/${read.lobby.id}/messages`,
        { content: `message ${i} `.padEnd(120, '.') },
        read.auths[0],
      );
    }
    const path = `/api/v10/lobbies/${read.lobby.id}/messages?limit=200`;
    const bytes = await (
      await fetch(`${server.url}/s/read${path}`, { headers: { Authorization: read.auths[0] } })
    ).text();
    const bare = await bareHttp(bytes);
    const rounds = quick ? 30 : 300;
    const readServer = () =>
      fetch(`${server.url}/s/read${path}`, { headers: { Authorization: read.auths[0] } }).then((r) => r.text());
    const readBare = () => fetch(bare.url + path).then((r) => r.text());
    // The engine's floors: the same bytes from the Worker's memory, from the object's memory, and
    // the same messages as SQLite rows that the object reads after finding the token in SQLite.
    await fetch(`${floors.url}/worker/body`, { method: 'PUT', body: bytes });
    await fetch(`${floors.url}/o/read/body`, { method: 'PUT', body: bytes });
    await fetch(`${floors.url}/o/read/rows`, {
      method: 'PUT',
      body: JSON.stringify({ token: read.auths[0], rows: JSON.parse(bytes).reverse() }),
    });
    const floorRead = (/** @type {string} */ route) => () =>
      fetch(`${floors.url}${route}`, { headers: { Authorization: read.auths[0] } }).then((r) => r.text());
    const readers = {
      server: readServer,
      bare: readBare,
      worker_floor: floorRead('/worker/read'),
      engine_floor: floorRead('/o/read/read'),
      sql_floor: floorRead('/o/read/read-sql'),
    };
    raw.rest_read = {
      bytes: bytes.length,
      sql_floor_bytes: (await readers.sql_floor()).length,
      ...Object.fromEntries(Object.keys(readers).map((name) => [name, /** @type {number[]} */ ([])])),
    };
    for (let i = 0; i < rounds / 10; i++) {
      for (const [name, run] of Object.entries(readers)) {
        raw.rest_read[name].push(...(await timeEach(run, 10, i === 0 ? 5 : 0)));
      }
    }
    await bare.close();

    // Fan-out of one lobby message to 50 WebSockets.
    say('server: fan-out of one message to 50 WebSockets');
    const sockets = 50;
    const fan = await lobbyWorld(`${server.url}/s/fanout`, sockets);
    const gatewayUrl = `${(await fan.call('GET', '/api/v10/gateway')).url}?v=10&encoding=json`;
    const members = /** @type {WebSocket[]} */ (
      await Promise.all(fan.auths.map((auth) => identified(gatewayUrl, auth)))
    );
    const everyone = (/** @type {WebSocket[]} */ list, /** @type {(text: string) => boolean} */ match) =>
      Promise.all(
        list.map(
          (socket) =>
            new Promise((resolve) => {
              const listener = (/** @type {Buffer} */ data) => {
                if (match(String(data))) {
                  socket.off('message', listener);
                  resolve(undefined);
                }
              };
              socket.on('message', listener);
            }),
        ),
      );
    let n = 0;
    const fanRounds = quick ? 10 : 60;
    raw.fanout_ws = { server: [], bare: [] };
    const sample = JSON.stringify({ op: 0, t: 'LOBBY_MESSAGE_CREATE', s: 1, d: { content: 'x'.repeat(200) } });
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => wss.once('listening', resolve));
    const bareUrl = `ws://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (wss.address()).port}`;
    const bareClients = await Promise.all(
      Array.from(
        { length: sockets },
        () =>
          new Promise((resolve) => {
            const s = new WebSocket(bareUrl);
            s.on('open', () => resolve(s));
          }),
      ),
    );
    // The engine's floor: 50 hibernatable WebSockets of one minimal object, which sends each
    // message it is posted to all of them (and, stored, after inserting it as one SQLite row).
    const floorClients = /** @type {WebSocket[]} */ (
      await Promise.all(
        Array.from(
          { length: sockets },
          () =>
            new Promise((resolve, reject) => {
              const s = new WebSocket(`${floors.url.replace('http', 'ws')}/o/fanout/ws`);
              s.on('open', () => resolve(s));
              s.on('error', reject);
            }),
        ),
      )
    );
    /** The size of the server's dispatch, which the floor's message is padded to. */
    let dispatchBytes = 0;
    raw.fanout_ws.engine_floor = [];
    raw.fanout_ws.stored_floor = [];
    raw.fanout_ws.gateway_floor = [];
    raw.fanout_ws.gateway_after_floor = [];
    // workerd CPU time of the measured rounds, ours and each floor's (ms in all, then per message).
    /** @type {Record<string, number>} */
    const fanCpu = { server: 0, engine_floor: 0, gateway_floor: 0, gateway_after_floor: 0 };
    const floorFan = async (/** @type {string} */ op, /** @type {string} */ content) => {
      const heard = everyone(floorClients, (text) => text.includes(content));
      const start = performance.now();
      const d = { content, pad: '' };
      d.pad = 'x'.repeat(
        Math.max(0, dispatchBytes - JSON.stringify({ op: 0, d, s: n, t: 'LOBBY_MESSAGE_CREATE' }).length),
      );
      // The numbered floor is given the dispatch's `d` and numbers it itself.
      const body = JSON.stringify(
        op.startsWith('broadcast-numbered') ? d : { op: 0, d, s: n, t: 'LOBBY_MESSAGE_CREATE' },
      );
      await fetch(`${floors.url}/o/fanout/${op}`, { method: 'POST', body }).then((r) => r.text());
      await heard;
      return performance.now() - start;
    };
    await sleep(50);
    for (let i = 0; i < fanRounds + 3; i++) {
      const content = `fan ${++n}`;
      const heard = everyone(members, (text) => {
        if (!text.includes(content)) return false;
        dispatchBytes = text.length;
        return true;
      });
      const start = performance.now();
      const { cpuMs } = await cpuOf(serverPids, async () => {
        await fan.call('POST', `/api/v10/lobbies/${fan.lobby.id}/messages`, { content }, fan.auths[0]);
        await heard;
      });
      if (i >= 3) raw.fanout_ws.server.push(performance.now() - start);
      if (i >= 3) fanCpu.server += cpuMs;
      const bareHeard = everyone(/** @type {WebSocket[]} */ (bareClients), (text) => text.length > 0);
      const bareStart = performance.now();
      for (const peer of wss.clients) peer.send(sample);
      await bareHeard;
      if (i >= 3) raw.fanout_ws.bare.push(performance.now() - bareStart);
      const floorTime = await cpuOf(floorPids, () => floorFan('broadcast', `floor ${n}`));
      if (i >= 3) raw.fanout_ws.engine_floor.push(floorTime.result);
      const storedTime = await floorFan('broadcast-stored', `stored ${n}`);
      if (i >= 3) raw.fanout_ws.stored_floor.push(storedTime);
      const gatewayTime = await cpuOf(floorPids, () => floorFan('broadcast-numbered', `numbered ${n}`));
      if (i >= 3) raw.fanout_ws.gateway_floor.push(gatewayTime.result);
      const afterTime = await cpuOf(floorPids, () => floorFan('broadcast-numbered-after', `after ${n}`));
      if (i >= 3) raw.fanout_ws.gateway_after_floor.push(afterTime.result);
      if (i >= 3) {
        fanCpu.engine_floor += floorTime.cpuMs;
        fanCpu.gateway_floor += gatewayTime.cpuMs;
        fanCpu.gateway_after_floor += afterTime.cpuMs;
      }
    }
    raw.fanout_ws.bytes = dispatchBytes;
    // Linux's CPU times tick every 10 ms: summed over the rounds, a message's share is exact enough.
    raw.fanout_ws.cpu_ms_per_message = Object.fromEntries(
      Object.entries(fanCpu).map(([name, total]) => [name, total / fanRounds]),
    );
    for (const socket of [...members, .../** @type {WebSocket[]} */ (bareClients), ...floorClients]) socket.close(1000);
    await new Promise((resolve) => wss.close(resolve));

    // discord.js to ClientReady.
    say('server: discord.js 14 to ClientReady');
    raw.discordjs_ready = { server: [], raw: [], protocol: [] };
    const djs = client(`${server.url}/s/djs`);
    const owner = (await djs('POST', '/sandbox/users', { username: 'owner' })).user;
    const app = await djs('POST', '/sandbox/applications', { name: 'Bench', owner_id: owner.id });
    const guild = await djs('POST', '/sandbox/guilds', { name: 'Bench Guild', owner_id: owner.id });
    await djs('PUT', `/sandbox/guilds/${guild.guild.id}/members/${app.bot.id}`, {});
    const djsGateway = `${(await djs('GET', '/api/v10/gateway')).url}?v=10&encoding=json`;
    for (let i = 0; i < (quick ? 3 : 15); i++) {
      const bot = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/s/djs/api` } });
      const start = performance.now();
      const ready = new Promise((resolve) => bot.once(Events.ClientReady, resolve));
      await bot.login(app.bot_token);
      await ready;
      raw.discordjs_ready.server.push(performance.now() - start);
      await bot.destroy();
      const rawStart = performance.now();
      const socket = /** @type {WebSocket} */ (await identified(djsGateway, app.bot_token, 1));
      raw.discordjs_ready.raw.push(performance.now() - rawStart);
      socket.close(1000);
      // What discord.js must do at the least: ask GET /gateway/bot, then Identify until the
      // guild it is in arrives (GUILD_CREATE), when it says ClientReady.
      const protocolStart = performance.now();
      const info = await djs('GET', '/api/v10/gateway/bot', undefined, `Bot ${app.bot_token}`);
      const guilds = /** @type {WebSocket} */ (
        await identified(`${info.url}?v=10&encoding=json`, app.bot_token, 1, 'GUILD_CREATE')
      );
      raw.discordjs_ready.protocol.push(performance.now() - protocolStart);
      guilds.close(1000);
    }

    // Sustained messages per second into one sandbox.
    say('server: sustained lobby messages per second');
    const writers = 8;
    const seconds = quick ? 2 : 10;
    const rate = await lobbyWorld(`${server.url}/s/rate`, writers);
    // The loops take turns in slices (ours, the engine floor, its variant that does what every
    // write must, the bare server) so that a machine busy for a moment weighs on all alike; each
    // figure is the median of its slices.
    const slice = quick ? 0.5 : 1;
    const sustained = async (/** @type {(i: number, k: number) => Promise<unknown>} */ send) => {
      let done = 0;
      const until = performance.now() + slice * 1000;
      await Promise.all(
        Array.from({ length: writers }, async (_, i) => {
          for (let k = 0; performance.now() < until; k++) {
            await send(i, k);
            done++;
          }
        }),
      );
      return done / slice;
    };
    const rateBare = await bareHttp('{"id":"1"}');
    await fetch(`${floors.url}/o/rate/rows`, {
      method: 'PUT',
      body: JSON.stringify({ token: rate.auths[0], rows: [] }),
    });
    const post = (/** @type {string} */ url, /** @type {string} */ content, auth = '') =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: auth },
        body: JSON.stringify({ content }),
      }).then((r) => r.text());
    /** @type {Record<string, (i: number, k: number) => Promise<unknown>>} */
    const loops = {
      server: (i, k) =>
        rate.call('POST', `/api/v10/lobbies/${rate.lobby.id}/messages`, { content: `w${i} ${k}` }, rate.auths[i]),
      engine_floor: (i, k) => post(`${floors.url}/o/rate/write`, `w${i} ${k}`),
      write_floor: (i, k) => post(`${floors.url}/o/rate/write-logged`, `w${i} ${k}`, rate.auths[0]),
      bare: (i, k) => post(`${rateBare.url}/api/v10/lobbies/1/messages`, `w${i} ${k}`),
    };
    /** @type {Record<string, number[]>} */
    const slices = Object.fromEntries(Object.keys(loops).map((name) => [name, []]));
    // workerd CPU time and messages of the slices, ours and the write floor's.
    /** @type {Record<string, { cpuMs: number, messages: number }>} */
    const rateCpu = { server: { cpuMs: 0, messages: 0 }, write_floor: { cpuMs: 0, messages: 0 } };
    for (let round = 0; round < seconds / slice; round++) {
      for (const [name, loop] of Object.entries(loops)) {
        const { cpuMs, result } = await cpuOf(name === 'server' ? serverPids : floorPids, () => sustained(loop));
        slices[name].push(result);
        if (rateCpu[name]) {
          rateCpu[name].cpuMs += cpuMs;
          rateCpu[name].messages += result * slice;
        }
      }
    }
    const median = (/** @type {number[]} */ values) => [...values].sort((a, b) => a - b)[values.length >> 1];
    raw.messages_per_s = {
      ...Object.fromEntries(Object.entries(slices).map(([name, values]) => [name, median(values)])),
      slices,
      cpu_ms_per_message: Object.fromEntries(
        Object.entries(rateCpu).map(([name, { cpuMs, messages }]) => [name, cpuMs / messages]),
      ),
    };
    await rateBare.close();
  } finally {
    await server.stop();
    await floors.stop();
  }
  return raw;
}
