#!/usr/bin/env node
// @ts-check
/**
 * Where a repeat visit's start goes (`node test/bench/profile-cold.js [--no-build] [--rounds=N]
 * [--page=cold/platform.html] [--out=dir]`): the bench's cold-start page, first visited in a fresh
 * context, then visited again with a trace of every process (the page, the service worker, the
 * shared worker) and CPU profiles of the page and of the shared worker from its first line (CDP
 * `Target.setAutoAttach` with `waitForDebuggerOnStart`). It prints a timeline of the repeat visit
 * (the navigation, each script fetched and run, the workers' top-level evaluation, ready) and the
 * functions that took the most time, and keeps the trace and profiles in `--out`
 * (`node_modules/.cache/platformpp-bench/profile` by default) to open in DevTools.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { buildBenchPages } from './lib/build.js';
import { connectBrowserDevtools } from './lib/devtools.js';
import { serveSite } from './lib/servers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// PLATFORMPP_BENCH_CACHE: another folder inside the project for the bench's builds (two checkouts sharing node_modules).
const cacheDir = resolve(root, process.env.PLATFORMPP_BENCH_CACHE || 'node_modules/.cache/platformpp-bench');
const benchSiteDir = resolve(cacheDir, 'site');
const args = process.argv.slice(2);
const option = (/** @type {string} */ name, /** @type {string} */ fallback) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const outDir = resolve(option('out', resolve(cacheDir, 'profile')));
const rounds = Number(option('rounds', '3'));
const pagePath = option('page', 'cold/platform.html');
const DEBUG_PORT = Number(option('debug-port', '9339'));

const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'netlog',
  'ServiceWorker',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
];

/** @param {import('playwright-core').Page} page @param {string} url */
async function visit(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.ready, undefined, { timeout: 30_000 });
  const ready = /** @type {string} */ (await page.evaluate(() => document.documentElement.dataset.ready));
  if (ready.startsWith('error')) throw new Error(`${url}: ${ready}`);
  return Number(ready);
}

/**
 * The repeat visit's timeline from a trace: times in ms from the navigation's start.
 * @param {any[]} events
 */
function timeline(events) {
  const navigation = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame);
  const zero = navigation?.ts ?? Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
  const ms = (/** @type {number} */ ts) => (ts - zero) / 1000;
  /** @type {Map<string, string>} */
  const threads = new Map();
  for (const e of events) if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const thread = (/** @type {any} */ e) => threads.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
  /** @type {{ at: number, end?: number, thread: string, what: string }[]} */
  const rows = [];
  /** @type {Map<string, any>} */
  const requests = new Map();
  for (const e of events) {
    const data = e.args?.data;
    if (e.name === 'ResourceSendRequest')
      requests.set(data.requestId, { url: data.url, start: e.ts, thread: thread(e) });
    else if (e.name === 'ResourceReceiveResponse' && requests.has(data.requestId))
      Object.assign(requests.get(data.requestId), { response: e.ts, fromSw: data.fromServiceWorker });
    else if (e.name === 'ResourceFinish' && requests.has(data.requestId))
      Object.assign(requests.get(data.requestId), { finish: e.ts, bytes: data.decodedBodyLength });
    else if (
      e.ph === 'X' &&
      e.dur > 500 &&
      [
        'EvaluateScript',
        'v8.compileModule',
        'v8.evaluateModule',
        'v8.compile',
        'FunctionCall',
        'v8.run',
        'RunMicrotasks',
        'ParseHTML',
      ].includes(e.name)
    ) {
      const url = data?.url ?? e.args?.fileName ?? data?.functionName ?? '';
      rows.push({ at: ms(e.ts), end: ms(e.ts + e.dur), thread: thread(e), what: `${e.name} ${short(url)}` });
    } else if (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'i') {
      if (e.cat?.includes('user_timing') || ['markDOMContent', 'markLoad', 'firstContentfulPaint'].includes(e.name))
        rows.push({ at: ms(e.ts), thread: thread(e), what: `mark ${e.name}` });
    }
  }
  for (const r of requests.values())
    rows.push({
      at: ms(r.start),
      end: r.finish ? ms(r.finish) : undefined,
      thread: r.thread,
      what: `fetch ${short(r.url)}${r.fromSw ? ' (service worker)' : ''}${r.bytes ? ` ${r.bytes} B` : ''}${r.response ? `, response at ${ms(r.response).toFixed(1)}` : ''}`,
    });
  // Worker starts (the shared worker's and the service worker's lifecycle).
  for (const e of events)
    if (
      /SharedWorker|ServiceWorker.*Start|StartWorker|EmbeddedWorker/i.test(e.name) &&
      (e.ph === 'X' || e.ph === 'b' || e.ph === 'B')
    )
      rows.push({ at: ms(e.ts), end: e.dur ? ms(e.ts + e.dur) : undefined, thread: thread(e), what: `${e.name}` });
  return rows.filter((r) => r.at >= -5).sort((a, b) => a.at - b.at);
}

/** @param {string} url */
function short(url) {
  return String(url).replace(/^https?:\/\/[^/]+/, '');
}

/**
 * The functions with the most self time in a CPU profile, with the script's total.
 * @param {any} profile
 */
function hotFunctions(profile, top = 15) {
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length);
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const byScript = new Map();
  for (const node of profile.nodes) {
    const n = counts.get(node.id) ?? 0;
    if (n === 0) continue;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (n * interval) / 1000);
    const script = short(f.url) || f.functionName;
    byScript.set(script, (byScript.get(script) ?? 0) + (n * interval) / 1000);
  }
  const sort = (/** @type {Map<string, number>} */ m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { total: (profile.endTime - profile.startTime) / 1000, functions: sort(self), scripts: sort(byScript) };
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  if (!args.includes('--no-build')) {
    console.log('building the site and the bench pages');
    await build({ root, logLevel: 'warn' });
    await buildBenchPages({ root, outDir: benchSiteDir });
  }
  const site = await serveSite({ root, benchDir: benchSiteDir });
  const url = `${site.url}bench/${pagePath}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', `--remote-debugging-port=${DEBUG_PORT}`],
    headless: true,
  });
  const cdp = await connectBrowserDevtools(DEBUG_PORT);
  try {
    for (let round = 0; round < rounds; round++) {
      // The timeline: nothing paused, every process traced.
      const context = await browser.newContext();
      const page = await context.newPage();
      const first = await visit(page, url);
      await browser.startTracing(undefined, { categories: TRACE_CATEGORIES });
      const repeat = await visit(page, url);
      const trace = JSON.parse(String(await browser.stopTracing()));
      await context.close();
      const events = trace.traceEvents ?? trace;
      writeFileSync(resolve(outDir, `repeat-${round}.trace.json`), JSON.stringify(events));
      console.log(
        `\nround ${round + 1}: first visit ready at ${first.toFixed(1)} ms, repeat visit at ${repeat.toFixed(1)} ms`,
      );
      for (const r of timeline(events))
        console.log(
          `  ${r.at.toFixed(1).padStart(8)}${r.end === undefined ? '         ' : ` → ${r.end.toFixed(1).padStart(6)}`}  ${r.thread.padEnd(22).slice(0, 22)} ${r.what}`,
        );
    }

    // CPU profiles: the page's, and the shared worker's from its first line (it waits for us).
    const context = await browser.newContext();
    const page = await context.newPage();
    await visit(page, url);
    /** @type {Map<string, { type: string, url: string }>} */
    const sessions = new Map();
    cdp.on(({ method, params }) => {
      if (method !== 'Target.attachedToTarget') return;
      const { sessionId, targetInfo, waitingForDebugger } = params;
      sessions.set(sessionId, { type: targetInfo.type, url: targetInfo.url });
      (async () => {
        await cdp.send('Profiler.enable', {}, sessionId);
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 }, sessionId);
        await cdp.send('Profiler.start', {}, sessionId);
        if (waitingForDebugger) await cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId);
      })().catch((error) => console.error(`attaching ${targetInfo.url}: ${error.message}`));
    });
    await cdp.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
      filter: [{ type: 'shared_worker', exclude: false }, { exclude: true }],
    });
    const { targetInfos } = await cdp.send('Target.getTargets');
    const pageTarget = targetInfos.find((/** @type {any} */ t) => t.type === 'page' && t.url === url);
    const { sessionId: pageSession } = await cdp.send('Target.attachToTarget', {
      targetId: pageTarget.targetId,
      flatten: true,
    });
    sessions.set(pageSession, { type: 'page', url });
    await cdp.send('Profiler.enable', {}, pageSession);
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 }, pageSession);
    await cdp.send('Profiler.start', {}, pageSession);
    const repeat = await visit(page, url);
    console.log(
      `\nprofiled repeat visit (the shared worker waited for the debugger): ready at ${repeat.toFixed(1)} ms`,
    );
    for (const [sessionId, target] of sessions) {
      const { profile } = await cdp.send('Profiler.stop', {}, sessionId).catch(() => ({ profile: null }));
      if (!profile) continue;
      const name = `${target.type}-${short(target.url).replace(/[^a-z0-9]+/gi, '-')}`.slice(0, 80);
      writeFileSync(resolve(outDir, `${name}.cpuprofile`), JSON.stringify(profile));
      const hot = hotFunctions(profile);
      console.log(`\n${target.type} ${short(target.url)}: ${hot.total.toFixed(1)} ms profiled`);
      console.log('  by script (self time):');
      for (const [script, t] of hot.scripts) console.log(`  ${t.toFixed(2).padStart(8)} ms  ${script}`);
      console.log('  hottest functions (self time):');
      for (const [f, t] of hot.functions) console.log(`  ${t.toFixed(2).padStart(8)} ms  ${f}`);
    }
    await cdp.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true });
    await context.close();
    console.log(`\ntraces and profiles in ${outDir}`);
  } finally {
    cdp.close();
    await browser.close();
    await site.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
