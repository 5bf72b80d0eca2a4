#!/usr/bin/env node
// @ts-check
/**
 * Where the service worker's first read after a stop spends its time: builds the site with
 * source maps, seeds one lobby, then each round stops the worker (`ServiceWorker.stopAllWorkers`),
 * sends one read of the lobby's newest 200 messages and profiles the start it causes
 * (`Profiler.start` in a session attached to the worker's target: the target outlives a stop,
 * and the session is attached again to the next start). The profiler starts once that session
 * is back, mostly after the script's top-level evaluation: the tool prints how much of that
 * evaluation it saw. Prints the read's median time, and the self time by source file and by
 * function (mapped through the source maps), per round. A tool, not a benchmark: the profiler
 * slows what it watches.
 *
 *   node test/bench/profile-sw-start.js [--rounds=10] [--top=40] [--url=/api/v10/users/@me] [--no-build]
 *
 * `--url` profiles another first request (with the reader's token); `--no-build` keeps `dist/`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { buildBenchPages } from './lib/build.js';
import { connectBrowserDevtools } from './lib/devtools.js';
import { serveSite } from './lib/servers.js';
import { serviceWorkerControl } from './lib/workers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Its own folder: a bench run at the same time keeps its pages.
const benchSiteDir = resolve(root, 'node_modules/.cache/platformpp-profile/site');
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const rounds = Number(args.get('rounds') ?? 10);
const top = Number(args.get('top') ?? 40);

if (!args.has('no-build')) {
  console.log('building the site with source maps, and the bench pages');
  await build({ root, logLevel: 'warn', build: { sourcemap: true } });
}
await buildBenchPages({ root, outDir: benchSiteDir });
const site = await serveSite({ root, benchDir: benchSiteDir });
// A DevTools port besides Playwright's pipe: browser-wide auto-attach needs flat sessions of our own.
const port = 9300 + Math.floor(Math.random() * 600);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    `--remote-debugging-port=${port}`,
  ],
  headless: true,
});

/** @type {Map<string, TraceMap | null>} */
const maps = new Map();
/** @param {string} url */
function mapOf(url) {
  if (!maps.has(url)) {
    const file = resolve(root, 'dist', new URL(url).pathname.slice(1));
    try {
      maps.set(url, new TraceMap(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      maps.set(url, null);
    }
  }
  return maps.get(url) ?? null;
}

/** @param {{ functionName: string, url: string, lineNumber: number, columnNumber: number }} frame */
function placeOf(frame) {
  if (!frame.url) return { file: frame.functionName || '(native)', name: frame.functionName || '(native)' };
  const map = mapOf(frame.url);
  const short = frame.url.replace(site.url, '/');
  if (!map) return { file: short, name: `${frame.functionName || '(anonymous)'} ${short}:${frame.lineNumber}` };
  const at = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  const file = (at.source ?? short).replace(/^(\.\.\/)+/, '').replace(/.*node_modules\//, 'node_modules/');
  const name = at.name ?? frame.functionName ?? '(anonymous)';
  return { file, name: `${name || '(anonymous)'} ${file}:${at.line}` };
}

try {
  const context = await browser.newContext({ baseURL: site.url });
  const driver = await context.newPage();
  await driver.goto('/bench/driver.html');
  await driver.waitForFunction(() => document.documentElement.dataset.ready);
  await driver.evaluate(() => /** @type {any} */ (window).bench.registerPlatform());
  console.log('seeding one lobby of 1,000 messages');
  const world = await driver.evaluate((o) => /** @type {any} */ (window).bench.seed(o), {
    lobbySizes: [1_000],
    guildSizes: [],
    writers: 1,
    fanoutUsers: 1,
    memoryLobbies: 0,
  });
  const lobby = world.readLobbies[0];
  const url = args.get('url') ?? `/api/v10/lobbies/${lobby.id}/messages?limit=200`;
  const init = { headers: { Authorization: world.readerAuth }, cache: 'no-store' };
  // Embeds the read frame (one warm read) so that each round's request comes from it.
  await driver.evaluate((o) => /** @type {any} */ (window).bench.read(o), {
    frames: [{ name: 'ours', src: '/bench/ours/frame.html' }],
    variants: [{ name: 'ours', frame: 'ours', url, init }],
    reference: 'ours',
    rounds: 1,
    warmup: 0,
    batch: 1,
  });
  const cdp = await context.newCDPSession(driver);
  const workers = await serviceWorkerControl(cdp);
  const browserCdp = await connectBrowserDevtools(port);

  /** @type {Map<string, number>} */ const byFile = new Map();
  /** @type {Map<string, number>} */ const byFunction = new Map();
  let total = 0;
  // Inside the top-level evaluation of a script of the worker (its callees included), and in how many rounds it was seen.
  let topLevel = 0;
  let topLevelRounds = 0;
  let times = /** @type {number[]} */ ([]);
  // A service worker's target outlives a stop: a session attached to it is attached again to the next start.
  const { targetInfos } = await browserCdp.send('Target.getTargets');
  const target = targetInfos.find((/** @type {any} */ t) => t.type === 'service_worker' && t.url.endsWith('/sw.js'));
  if (!target) throw new Error('the platform worker has no target');
  const { sessionId } = await browserCdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: true });
  /** @param {string} method @param {object} [params] */
  const send = (method, params = {}) => browserCdp.send(method, params, sessionId);
  for (let round = 0; round < rounds; round++) {
    await workers.stopAll();
    const restarted = new Promise((done) =>
      browserCdp.on((message) => {
        if (message.sessionId !== sessionId || message.method !== 'Inspector.targetReloadedAfterCrash') return false;
        done(undefined);
        return true;
      }),
    );
    const reading = driver.evaluate((v) => /** @type {any} */ (window).bench.readOnce(v), { frame: 'ours', url, init });
    await restarted;
    await send('Profiler.enable');
    await send('Profiler.setSamplingInterval', { interval: 100 });
    await send('Profiler.start');
    await send('Runtime.runIfWaitingForDebugger');
    times.push(await reading);
    const { profile } = await send('Profiler.stop');
    /** @type {Map<number, any>} */
    const nodes = new Map(profile.nodes.map((/** @type {any} */ node) => [node.id, node]));
    /** @type {Map<number, number>} */
    const parents = new Map();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
    /** @param {any} frame */
    const isTopLevel = (frame) =>
      // The script itself, or the function its build wraps the whole script in (`var x=(function(e){`).
      frame.url.startsWith(site.url) && frame.lineNumber === 0 && frame.columnNumber < 64;
    /** @param {number} id */
    const underTopLevel = (id) => {
      for (let at = /** @type {number | undefined} */ (id); at !== undefined; at = parents.get(at))
        if (isTopLevel(nodes.get(at).callFrame)) return true;
      return false;
    };
    if (profile.nodes.some((/** @type {any} */ node) => isTopLevel(node.callFrame))) topLevelRounds++;
    profile.samples.forEach((/** @type {number} */ id, /** @type {number} */ i) => {
      const delta = profile.timeDeltas[i + 1] ?? 0;
      const place = placeOf(nodes.get(id).callFrame);
      byFile.set(place.file, (byFile.get(place.file) ?? 0) + delta);
      byFunction.set(place.name, (byFunction.get(place.name) ?? 0) + delta);
      total += delta;
      if (underTopLevel(id)) topLevel += delta;
    });
  }
  times = times.sort((a, b) => a - b);
  console.log(`\nfirst read after a stop: median ${times[Math.floor(times.length / 2)].toFixed(1)} ms over ${rounds}`);
  console.log(`profiled (per round): ${(total / 1000 / rounds).toFixed(1)} ms`);
  console.log(
    `top-level evaluation of the worker's scripts (per round, callees included): ${(topLevel / 1000 / rounds).toFixed(1)} ms, seen in ${topLevelRounds} of ${rounds} rounds`,
  );
  /** @param {string} title @param {Map<string, number>} table */
  const print = (title, table) => {
    console.log(`\n${title} (self ms per round)`);
    for (const [name, us] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${(us / 1000 / rounds).toFixed(2).padStart(8)}  ${name}`);
  };
  print('by source file', byFile);
  print('by function', byFunction);
  await workers.close();
} finally {
  await browser.close();
  await site.close();
}
