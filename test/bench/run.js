#!/usr/bin/env node
// @ts-check
/**
 * `npm run bench`: speed, scale and size of the built platform, each figure beside its
 * baseline measured in the same run, in headless Chromium on this machine. A benchmark, not a
 * test: it never fails on a time. It prints progress, then one table, and writes the table and
 * every figure to bench/results/latest.json and latest.md (full runs only).
 *
 *   npm run bench                 everything, full size (about 10 minutes on 2 cores)
 *   npm run bench -- --quick      every phase, small
 *   npm run bench -- --only=read  some phases: read, write, fanout, members, cold, voice, size, server, ratelimit, server-load
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { buildBenchPages } from './lib/build.js';
import { describeMachine } from './lib/machine.js';
import { parseOptions } from './lib/options.js';
import { buildReport, renderMarkdown, renderTerminal } from './lib/report.js';
import { serverPhase } from './lib/server-phase.js';
import { rateLimitPhase } from './lib/rate-limit-phase.js';
import { serverLoadPhase } from './lib/server-load.js';
import { servePeer, serveSite } from './lib/servers.js';
import { measureSizes } from './lib/sizes.js';
import { voicePhase } from './lib/voice.js';
import { serviceWorkerControl, serviceWorkerHeap } from './lib/workers.js';
import { summarize } from './lib/stats.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// PLATFORMPP_BENCH_CACHE: another folder inside the project for the bench's builds (two checkouts sharing node_modules).
const cacheDir = resolve(root, process.env.PLATFORMPP_BENCH_CACHE || 'node_modules/.cache/platformpp-bench');
const benchSiteDir = resolve(cacheDir, 'site');
/** The flags of every Chromium the project drives (scripts/chromium.ts), the voice calls' included. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
  '--autoplay-policy=no-user-gesture-required',
];

const options = parseOptions(process.argv.slice(2));
const started = Date.now();
/** @param {string} line */
const say = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** @param {import('playwright-core').Page} page @param {string} label */
function forwardConsole(page, label) {
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith('bench: ')) say(text.slice('bench: '.length));
    else if (message.type() === 'error') say(`${label} console error: ${text}`);
  });
  page.on('pageerror', (error) => say(`${label} page error: ${error.message}`));
}

/**
 * Opens `url` in a new tab of `context` and waits until its script says it is ready.
 * @param {import('playwright-core').BrowserContext} context @param {string} url
 */
async function openTab(context, url) {
  const page = await context.newPage();
  forwardConsole(page, url);
  await page.goto(url);
  await page
    .waitForFunction(() => document.documentElement.dataset.ready, undefined, { timeout: 30_000 })
    .catch(async (error) => {
      const controller = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? 'nothing');
      throw new Error(`${url} (controlled by ${controller}) did not get ready: ${error.message}`);
    });
  const ready = await page.evaluate(() => document.documentElement.dataset.ready);
  if (ready?.startsWith('error')) throw new Error(`${url}: ${ready}`);
  return page;
}

/**
 * Cold start: each round, in a fresh browser context (nothing registered, nothing cached), the
 * first visit and then a repeat visit of each page, the pages in turns: `<pp-platform>`, a blank
 * page with an empty worker, a page that only registers the platform's worker and starts a minimal
 * shared worker, and the same page starting the platform's hub instead.
 * @param {import('playwright-core').Browser} browser @param {string} site
 */
async function coldStart(browser, site) {
  const variants = [
    { name: 'platform', url: `${site}bench/cold/platform.html` },
    { name: 'blank', url: `${site}bench/blank/index.html` },
    { name: 'worker', url: `${site}bench/cold/worker.html` },
    { name: 'worker_hub', url: `${site}bench/cold/worker-hub.html` },
  ];
  /** @type {Record<string, { first: number[], repeat: number[] }>} */
  const times = Object.fromEntries(variants.map((v) => [v.name, { first: [], repeat: [] }]));
  const total = options.cold.warmup + options.cold.rounds;
  for (let round = 0; round < total; round++) {
    const k = round % variants.length;
    const order = [...variants.slice(k), ...variants.slice(0, k)];
    for (const variant of order) {
      const context = await browser.newContext();
      const page = await context.newPage();
      forwardConsole(page, variant.name);
      for (const visit of /** @type {const} */ (['first', 'repeat'])) {
        await page.goto(variant.url);
        await page.waitForFunction(() => document.documentElement.dataset.ready, undefined, { timeout: 30_000 });
        const ready = /** @type {string} */ (await page.evaluate(() => document.documentElement.dataset.ready));
        if (ready.startsWith('error')) throw new Error(`${variant.url}: ${ready}`);
        if (round >= options.cold.warmup) times[variant.name][visit].push(Number(ready));
      }
      await context.close();
    }
    say(`cold start: round ${round + 1}/${total}`);
  }
  return times;
}

async function main() {
  say(`bench${options.quick ? ' (quick)' : ''}: phases ${[...options.phases].join(', ')}`);
  // The site and the bench pages from the same tree: a hub built later than dist/sw.js could
  // expect a newer database version and close the worker's connection.
  say('building the site (vite build) and the bench pages');
  await build({ root, logLevel: 'warn' });
  await buildBenchPages({ root, outDir: benchSiteDir });
  const site = await serveSite({ root, benchDir: benchSiteDir });
  const peer = await servePeer({ runnerFile: resolve(root, 'test/bench/pages/runner.js') });
  say(`site (dist/ + /bench/) at ${site.url}, node:http peer at ${peer.url}`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const about = describeMachine(root, browser.version());
  say(
    `${about.machine.cpu}, ${about.machine.cores} cores, ${about.machine.memory_gib} GiB; Chromium ${about.versions.chromium}, node ${about.versions.node}`,
  );
  /** @type {Record<string, any>} */
  const raw = {};
  try {
    const browserPhases = ['read', 'write', 'fanout', 'members'].filter((p) => options.phases.has(p));
    if (browserPhases.length > 0) {
      const context = await browser.newContext({ baseURL: site.url });
      const driver = await context.newPage();
      forwardConsole(driver, 'driver');
      await driver.goto('/bench/driver.html');
      await driver.waitForFunction(() => document.documentElement.dataset.ready);
      say(`platform worker: ${await driver.evaluate(() => /** @type {any} */ (window).bench.registerPlatform())}`);
      const isolated = await driver.evaluate(() => crossOriginIsolated);
      say(`driver page cross-origin isolated: ${isolated}`);
      say('seeding the world');
      const world = await driver.evaluate((o) => /** @type {any} */ (window).bench.seed(o), {
        lobbySizes: options.lobbySizes,
        guildSizes: options.guildSizes,
        writers: 4,
        fanoutUsers: options.fanout.tabs * options.fanout.socketsPerTab,
        memoryLobbies: options.phases.has('read') ? options.memory.lobbies : 0,
      });
      raw.world = { lobbies: world.readLobbies, guilds: world.guilds };

      if (options.phases.has('read')) {
        raw.read = await readPhase(driver, world, peer);
        const cdp = await context.newCDPSession(driver);
        const workers = await serviceWorkerControl(cdp);
        raw.read.cold = await coldReads(driver, world, workers);
        raw.memory = await workerHeap(browser, driver, world, workers);
        await workers.close();
        await cdp.detach();
      }
      if (options.phases.has('write')) raw.write = await writePhase(context, driver, world, site.url);
      if (options.phases.has('fanout')) raw.fanout = await fanoutPhase(context, driver, world, site.url);
      if (options.phases.has('members')) {
        say(
          `request guild members: guilds of ${options.guildSizes.map((n) => n.toLocaleString('en')).join(', ')} members`,
        );
        raw.members = await driver.evaluate((o) => /** @type {any} */ (window).bench.requestMembers(o), {
          botAuth: world.botAuth,
          guilds: world.guilds,
          rounds: options.members.rounds,
          warmup: options.members.warmup,
        });
      }
      await context.close();
    }
    if (options.phases.has('cold')) {
      say('cold start: fresh browser contexts');
      raw.cold = await coldStart(browser, site.url);
    }
    if (options.phases.has('voice')) {
      say(`voice: two tabs in one lobby call, ${options.voice.rounds} rounds of an E2EE and a plain call`);
      raw.voice = await voicePhase({ browser, site: site.url, ...options.voice, say, openTab });
    }
  } finally {
    await browser.close();
    await peer.close();
    await site.close();
  }
  if (options.phases.has('size')) {
    say('size: bundling the SDKs');
    raw.size = await measureSizes({ root, cacheDir, benchSiteDir });
  }
  if (options.phases.has('server')) raw.server = await serverPhase({ root, cacheDir, quick: options.quick, say });
  if (options.phases.has('ratelimit')) raw.ratelimit = await rateLimitPhase({ cacheDir, quick: options.quick, say });
  if (options.phases.has('server-load')) {
    say(`server-load: ${options.server_load.sandboxes} sandboxes at once (progress on stderr)`);
    raw.server_load = await serverLoadPhase({ cacheDir, ...options.server_load });
  }

  const report = buildReport({ raw, options, about, summarize, durationS: Math.round((Date.now() - started) / 1000) });
  console.log('');
  console.log(renderTerminal(report));
  if (options.write_results) {
    const dir = resolve(root, 'bench/results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(resolve(dir, 'latest.json'), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(resolve(dir, 'latest.md'), renderMarkdown(report));
    say('wrote bench/results/latest.json and bench/results/latest.md');
  } else {
    say('quick or partial run: bench/results/ left as it was');
  }
}

/**
 * @param {import('playwright-core').Page} driver @param {any} world @param {Awaited<ReturnType<typeof servePeer>>} peer
 */
async function readPhase(driver, world, peer) {
  const middle = world.readLobbies[Math.min(1, world.readLobbies.length - 1)];
  const init = { headers: { Authorization: world.readerAuth }, cache: 'no-store' };
  /** @param {{ id: string }} lobby */
  const apiUrl = (lobby) => `/api/v10/lobbies/${lobby.id}/messages?limit=200`;
  const body = await driver.evaluate(
    async ({ url, init }) => (await fetch(url, /** @type {RequestInit} */ (init))).text(),
    { url: apiUrl(middle), init },
  );
  peer.setBody(body);
  say(`read: ${JSON.parse(body).length} messages, ${Buffer.byteLength(body)} bytes per answer`);
  const reference = `ours-${middle.size}`;
  const elsewhere = {
    url: `/api/v10/lobbies/${world.writeLobbyId}/messages`,
    init: {
      method: 'POST',
      headers: { Authorization: world.writerAuths[0], 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'meanwhile, in another lobby' }),
    },
  };
  const sameLobby = {
    url: `/api/v10/lobbies/${world.sameLobby.id}/messages`,
    init: {
      method: 'POST',
      headers: { Authorization: world.readerAuth, 'Content-Type': 'application/json' },
      // As long as the seeded messages, so the answer keeps about the same size.
      body: JSON.stringify({ content: 'Message x of the bench: the quick brown fox jumps over the lazy dog, twice.' }),
    },
  };
  const variants = [
    ...world.readLobbies.map((/** @type {{ size: number, id: string }} */ lobby) => ({
      name: `ours-${lobby.size}`,
      frame: 'ours',
      url: apiUrl(lobby),
      init,
    })),
    // The same read right after a message was posted to another lobby (untimed): the write changes
    // none of this lobby's records, so its cached entry stays.
    { name: `other-${middle.size}`, frame: 'ours', url: apiUrl(middle), init, before: elsewhere },
    // A lobby of the same size read right after the reader posted to it (untimed): the new message
    // joins the cached entry.
    { name: `same-${world.sameLobby.size}`, frame: 'ours', url: apiUrl(world.sameLobby), init, before: sameLobby },
    { name: 'floor', frame: 'floor', url: '/bench/floor/data', init: { cache: 'no-store' } },
    { name: 'msw', frame: 'msw', url: '/bench/msw/data', init: { cache: 'no-store' } },
    { name: 'node', frame: 'node', url: `${peer.url}data`, init: { cache: 'no-store' } },
  ];
  const frames = [
    { name: 'ours', src: '/bench/ours/frame.html' },
    { name: 'floor', src: '/bench/floor/frame.html', body },
    { name: 'msw', src: '/bench/msw/frame.html', body },
    { name: 'node', src: `${peer.url}frame.html` },
    { name: 'startup-pass', src: '/bench/startup/pass/frame.html' },
    { name: 'startup-sw', src: '/bench/startup/sw/frame.html' },
  ];
  say(
    `read: ${variants.length} variants interleaved, ${options.read.rounds} rounds of ${options.read.batch} requests each (+${options.read.warmup} warm-up rounds)`,
  );
  const result = await driver.evaluate((o) => /** @type {any} */ (window).bench.read(o), {
    frames,
    variants,
    reference,
    ...options.read,
  });
  return { ...result, reference };
}

/**
 * The first read after the browser stopped the service workers: each round stops every worker
 * (the DevTools protocol, as the browser does when a worker idles), then times one request in
 * the read frame of the variant, in turns: our worker's read of the middle lobby, the floor
 * worker's answer from Cache Storage, and the floor worker's read of the same lobby's newest 200
 * messages and their authors from the platform's IndexedDB.
 * @param {import('playwright-core').Page} driver @param {any} world @param {Awaited<ReturnType<typeof serviceWorkerControl>>} workers
 */
async function coldReads(driver, world, workers) {
  const middle = world.readLobbies[Math.min(1, world.readLobbies.length - 1)];
  const variants = [
    {
      name: 'ours',
      frame: 'ours',
      url: `/api/v10/lobbies/${middle.id}/messages?limit=200`,
      init: { headers: { Authorization: world.readerAuth }, cache: 'no-store' },
    },
    { name: 'floor', frame: 'floor', url: '/bench/floor/data', init: { cache: 'no-store' } },
    { name: 'durable', frame: 'floor', url: `/bench/floor/lobby?id=${middle.id}`, init: { cache: 'no-store' } },
    // The platform's worker and a minimal one, both passing a small file through from the network.
    { name: 'sw_script', frame: 'startup-sw', url: '/bench/startup/sw/data.json', init: { cache: 'no-store' } },
    { name: 'pass', frame: 'startup-pass', url: '/bench/startup/pass/data.json', init: { cache: 'no-store' } },
  ];
  const { rounds, warmup } = options.cold_read;
  say(
    `read: first request after a stop, ${rounds} rounds (+${warmup} warm-up) of our worker, two floors, two start-up probes`,
  );
  /** @type {Record<string, number[]>} */
  const times = { ours: [], floor: [], durable: [], sw_script: [], pass: [] };
  // Our read and the durable floor's in two parts: the worker's start, and its fetch handler.
  /** @type {Record<string, number[]>} */
  const parts = { ours_start: [], ours_handler: [], durable_start: [], durable_handler: [] };
  for (let round = 0; round < warmup + rounds; round++) {
    const k = round % variants.length;
    for (const variant of [...variants.slice(k), ...variants.slice(0, k)]) {
      await workers.stopAll();
      const { time, start, handler } = await driver.evaluate(
        (v) => /** @type {any} */ (window).bench.readOnceInParts(v),
        variant,
      );
      if (round < warmup) continue;
      times[variant.name].push(time);
      if (`${variant.name}_start` in parts && Number.isFinite(start) && Number.isFinite(handler)) {
        parts[`${variant.name}_start`].push(start);
        parts[`${variant.name}_handler`].push(handler);
      }
    }
  }
  return { ...times, parts };
}

/**
 * The platform worker's heap after it read `world.heapLobbies` (200 messages each) once, beside
 * its heap right after a start that answered one authenticated request.
 * @param {import('playwright-core').Browser} browser @param {import('playwright-core').Page} driver @param {any} world @param {Awaited<ReturnType<typeof serviceWorkerControl>>} workers
 */
async function workerHeap(browser, driver, world, workers) {
  const init = { headers: { Authorization: world.memoryAuth }, cache: 'no-store' };
  await workers.stopAll();
  await driver.evaluate(
    (i) => /** @type {any} */ (window).bench.readOnce({ frame: 'ours', url: '/api/v10/users/@me', init: i }),
    init,
  );
  const started = await serviceWorkerHeap(browser, '/sw.js');
  await driver.evaluate((o) => /** @type {any} */ (window).bench.readLobbiesOnce(o), {
    lobbies: world.heapLobbies,
    init,
  });
  const read = await serviceWorkerHeap(browser, '/sw.js');
  say(
    `memory: worker heap ${(started / 1e6).toFixed(1)} MB after a start, ${(read / 1e6).toFixed(1)} MB after reading ${world.heapLobbies.length} lobbies`,
  );
  return { lobbies: world.heapLobbies.length, started, read };
}

/**
 * @param {import('playwright-core').BrowserContext} context @param {import('playwright-core').Page} driver @param {any} world @param {string} site
 */
async function writePhase(context, driver, world, site) {
  say('write: opening 4 tabs under the platform worker and 8 under the floor worker');
  const ours = ['o1', 'o2', 'o3', 'o4'];
  const floor = ['f1', 'f2', 'f3', 'f4'];
  const guarded = ['h1', 'h2', 'h3', 'h4'];
  const tabs = [
    ...(await Promise.all(ours.map((name) => openTab(context, `${site}bench/tab.html?name=${name}`)))),
    ...(await Promise.all(
      [...floor, ...guarded].map((name) => openTab(context, `${site}bench/floor/tab.html?name=${name}`)),
    )),
  ];
  /** @type {Record<string, { url: string, auth?: string }>} */
  const targets = {};
  ours.forEach(
    (name, i) =>
      (targets[name] = { url: `/api/v10/lobbies/${world.writeLobbyId}/messages`, auth: world.writerAuths[i] }),
  );
  floor.forEach((name) => (targets[name] = { url: '/bench/floor/put' }));
  guarded.forEach((name) => (targets[name] = { url: '/bench/floor/put?guarded=1' }));
  const groups = [
    { name: 'ours-1', tabs: ours.slice(0, 1) },
    { name: 'ours-4', tabs: ours },
    { name: 'floor-1', tabs: floor.slice(0, 1) },
    { name: 'floor-4', tabs: floor },
    { name: 'guarded-4', tabs: guarded },
  ];
  say(
    `write: ${options.write.rounds} rounds of ${options.write.batch} POSTs per tab (+${options.write.warmup} warm-up)`,
  );
  const result = await driver.evaluate((o) => /** @type {any} */ (window).bench.write(o), {
    groups,
    targets,
    ...options.write,
  });
  for (const tab of tabs) await tab.close();
  return result;
}

/**
 * @param {import('playwright-core').BrowserContext} context @param {import('playwright-core').Page} driver @param {any} world @param {string} site
 */
async function fanoutPhase(context, driver, world, site) {
  const { tabs: count, socketsPerTab } = options.fanout;
  const names = Array.from({ length: count }, (_, i) => `g${i + 1}`);
  say(`fan-out: ${count} tabs with ${socketsPerTab} gateway sockets each`);
  const tabs = await Promise.all(names.map((name) => openTab(context, `${site}bench/tab.html?name=${name}`)));
  /** @type {Record<string, string[]>} */
  const tokens = Object.fromEntries(
    names.map((name, i) => [name, world.fanAuths.slice(i * socketsPerTab, (i + 1) * socketsPerTab)]),
  );
  const result = await driver.evaluate((o) => /** @type {any} */ (window).bench.fanout(o), {
    tabs: names,
    tokens,
    lobbyId: world.fanLobbyId,
    botAuth: world.botAuth,
    floorFrame: '/bench/floor/frame.html',
    rounds: options.fanout.rounds,
    warmup: options.fanout.warmup,
  });
  for (const tab of tabs) await tab.close();
  return result;
}

await main();
