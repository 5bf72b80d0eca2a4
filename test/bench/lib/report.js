// @ts-check
/**
 * Turns the raw samples of a run into the report: one row per figure with its baseline, the
 * ratio of the two and the target it is read against (never an assertion), then the terminal
 * table and the markdown of bench/results/latest.md.
 */
import { ratio } from './stats.js';

/** The read cache's bound (`READ_CACHE_MAX_BYTES` of src/platform/core/read-cache.ts), in MiB. */
const READ_CACHE_MAX_MIB = 8;

/**
 * @typedef {import('./stats.js').Summary} Summary
 * @typedef {{ median: number, p95?: number | null, n?: number | null }} Value
 * @typedef {{ text: string, max?: number, min?: number, maxValue?: number }} Target `max`/`min` bound the ratio, `maxValue` the median itself
 * @typedef {{ id: string, section: string, figure: string, unit: string, value: number, p95: number | null, n: number | null,
 *   baseline: string | null, baseline_value: number | null, baseline_p95: number | null, ratio: number | null,
 *   target: string | null, met: boolean | null, higher_is_better?: boolean }} Row
 */

/** @param {number} n */
const count = (n) => n.toLocaleString('en');

/** The ids of the scale rows, by size. @param {number} n */
const sizeId = (n) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

/**
 * Whether a row meets its target: the ratio within `min`/`max`, the median within `maxValue`.
 * @param {Target | null} target @param {number | null} r @param {number} value
 */
function meets(target, r, value) {
  if (!target) return null;
  const checks = [];
  if (target.max !== undefined) checks.push(r !== null && r <= target.max);
  if (target.min !== undefined) checks.push(r !== null && r >= target.min);
  if (target.maxValue !== undefined) checks.push(value <= target.maxValue);
  return checks.length === 0 ? null : checks.every(Boolean);
}

/**
 * @param {{ raw: Record<string, any>, options: import('./options.js').BenchOptions, about: ReturnType<typeof import('./machine.js').describeMachine>, summarize: (s: number[]) => Summary, durationS: number }} input
 */
export function buildReport({ raw, options, about, summarize, durationS }) {
  /** @type {Row[]} */
  const rows = [];
  /**
   * One row. `id` is stable across runs (tools compare runs by it) and never reused for another
   * meaning.
   * @param {{ id: string, section: string, figure: string, unit: string, value: Value,
   *   baseline?: { name: string, summary: Value } | null, target?: Target | null, higherIsBetter?: boolean }} r
   */
  const row = ({ id, section, figure, unit, value, baseline = null, target = null, higherIsBetter = false }) => {
    const r = baseline ? ratio(value.median, baseline.summary.median) : null;
    rows.push({
      id,
      section,
      figure,
      unit,
      value: value.median,
      p95: value.p95 ?? null,
      n: value.n ?? null,
      baseline: baseline?.name ?? null,
      baseline_value: baseline?.summary.median ?? null,
      baseline_p95: baseline?.summary.p95 ?? null,
      ratio: r,
      target: target?.text ?? null,
      met: meets(target, r, value.median),
      ...(higherIsBetter ? { higher_is_better: true } : {}),
    });
  };
  /** @type {Record<string, any>} */
  const details = {};

  if (raw.read) {
    const s = Object.fromEntries(
      Object.entries(raw.read.times).map(([name, t]) => [name, summarize(/** @type {number[]} */ (t))]),
    );
    const floor = { name: 'floor: minimal SW, same bytes from memory', summary: s.floor };
    const reference = raw.read.reference;
    const size = Number(reference.split('-')[1]);
    const bytes = raw.read.answers[reference].bytes;
    const section = `1. API read (${count(bytes)} B)`;
    row({
      id: 'read.hit',
      section,
      figure: `GET /lobbies/{id}/messages?limit=200, ${count(size)} msgs, our SW`,
      unit: 'ms',
      value: s[reference],
      baseline: floor,
      target: { text: '≤ 1.25× floor', max: 1.25 },
    });
    row({
      id: 'read.after_write_other',
      section,
      figure: 'the same read right after a POST to another lobby',
      unit: 'ms',
      value: s[`other-${size}`],
      baseline: floor,
      target: { text: '≤ 1.25× floor', max: 1.25 },
    });
    const same = Object.keys(s).find((n) => n.startsWith('same-'));
    if (same)
      row({
        id: 'read.after_write_same',
        section,
        figure: `a lobby of ${count(Number(same.split('-')[1]))} msgs read right after a POST to it (${count(raw.read.answers[same].bytes)} B)`,
        unit: 'ms',
        value: s[same],
        baseline: floor,
        target: { text: '≤ 1.4× floor', max: 1.4 },
      });
    if (raw.read.cold) {
      const cold = {
        ours: summarize(raw.read.cold.ours),
        floor: summarize(raw.read.cold.floor),
        durable: summarize(raw.read.cold.durable),
      };
      const durableCold = {
        name: "the floor worker's first request after a stop, reading the lobby's newest 200 and their authors from IndexedDB",
        summary: cold.durable,
      };
      row({
        id: 'read.cold',
        section,
        figure: 'the first read after the browser stopped the service worker',
        unit: 'ms',
        value: cold.ours,
        baseline: { name: "the floor worker's first request after a stop (from Cache Storage)", summary: cold.floor },
        target: { text: '≤ 1.5× floor after a stop', max: 1.5 },
      });
      row({
        id: 'read.cold_vs_durable',
        section,
        figure: 'the same first read after a stop, against a worker that reads it from IndexedDB',
        unit: 'ms',
        value: cold.ours,
        baseline: durableCold,
        target: { text: '≤ 1.5× durable floor', max: 1.5 },
      });
      row({
        id: 'read.cold_durable_floor',
        section,
        figure: "that durable floor itself: the floor worker's first read from IndexedDB after a stop",
        unit: 'ms',
        value: cold.durable,
        baseline: { name: "the floor worker's first request after a stop (from Cache Storage)", summary: cold.floor },
      });
      const parts = raw.read.cold.parts;
      if (parts?.ours_start?.length && parts.durable_start?.length) {
        const starts = { ours: summarize(parts.ours_start), durable: summarize(parts.durable_start) };
        const handlers = { ours: summarize(parts.ours_handler), durable: summarize(parts.durable_handler) };
        row({
          id: 'read.cold_worker_start',
          section,
          figure:
            "the first read after a stop, its first part: the worker's start, from the browser starting it to its fetch event (the frame's resource timing, workerStart to fetchStart)",
          unit: 'ms',
          value: starts.ours,
          baseline: { name: "the same part of the durable floor's first read after a stop", summary: starts.durable },
        });
        row({
          id: 'read.cold_handler',
          section,
          figure:
            'the first read after a stop, its second part: from the fetch event to the first byte of the answer (fetchStart to responseStart)',
          unit: 'ms',
          value: handlers.ours,
          baseline: { name: "the same part of the durable floor's first read after a stop", summary: handlers.durable },
        });
        Object.assign(cold, { parts: { starts, handlers } });
      }
      if (raw.read.cold.sw_script?.length) {
        const script = summarize(raw.read.cold.sw_script);
        const pass = summarize(raw.read.cold.pass);
        row({
          id: 'size.sw_startup',
          section: '6. Size (gzip -9)',
          figure: `what the service worker's size costs at start-up: the first request after a stop through dist/sw.js, which passes it to the network (${(script.median - pass.median).toFixed(1)} ms more)`,
          unit: 'ms',
          value: script,
          baseline: { name: 'the same through a minimal worker that passes it on', summary: pass },
        });
        row({
          id: 'read.cold_startup_floor',
          section,
          figure:
            "the start of dist/sw.js alone after a stop (it answers nothing: the request goes to the network), against the floor worker's first request after a stop",
          unit: 'ms',
          value: script,
          baseline: { name: "the floor worker's first request after a stop (from Cache Storage)", summary: cold.floor },
        });
        Object.assign(cold, { sw_script: script, pass });
      }
      details.read_cold = cold;
    }
    row({
      id: 'read.msw',
      section,
      figure: 'MSW 2.15: http.get handler, same bytes from memory',
      unit: 'ms',
      value: s.msw,
      baseline: floor,
      target: { text: 'peer: MSW ≈ 1.87× on this machine' },
    });
    row({
      id: 'read.node',
      section,
      figure: 'node:http on 127.0.0.1, same bytes',
      unit: 'ms',
      value: s.node,
      baseline: floor,
      target: { text: 'peer: node:http ≈ 1.18×' },
    });
    const sizes = Object.keys(raw.read.times)
      .filter((n) => n.startsWith('ours-'))
      .map((n) => Number(n.split('-')[1]))
      .sort((a, b) => a - b);
    const smallest = { name: `our SW at ${count(sizes[0])} msgs`, summary: s[`ours-${sizes[0]}`] };
    for (const n of sizes) {
      row({
        id: `read.scale.${sizeId(n)}`,
        section: '4. Scale: API read',
        figure: `read of (1) with ${count(n)} msgs in the lobby`,
        unit: 'ms',
        value: s[`ours-${n}`],
        baseline: floor,
        target: { text: '≤ 1.25× floor', max: 1.25 },
      });
    }
    for (const n of sizes.slice(1)) {
      row({
        id: `read.flat.${sizeId(n)}`,
        section: '4. Scale: API read',
        figure: `read with ${count(n)} msgs vs ${count(sizes[0])}`,
        unit: 'ms',
        value: s[`ours-${n}`],
        baseline: smallest,
        target: { text: 'flat: ≤ 1.2×', max: 1.2 },
      });
    }
    details.read = {
      summaries: s,
      frames: raw.read.about,
      answers: raw.read.answers,
      failures: raw.read.failures,
      batch: options.read.batch,
    };
  }

  if (raw.memory) {
    const m = raw.memory;
    const mb = (/** @type {number} */ bytes) => ({ median: bytes / 1e6, p95: null, n: 1 });
    row({
      id: 'memory.sw_heap',
      section: '8. Memory',
      figure: `service worker heap after reading ${m.lobbies} lobbies of 200 msgs once each`,
      unit: 'MB',
      value: mb(m.read),
      baseline: { name: 'the same worker after a start and one request', summary: mb(m.started) },
      target: { text: `cache bound ${READ_CACHE_MAX_MIB} MiB` },
    });
    details.memory = m;
  }

  if (raw.write) {
    const r = raw.write.results;
    const lat = (/** @type {string} */ g) => summarize(r[g].times);
    const rate = (/** @type {string} */ g) => summarize(r[g].rates);
    const section = '2. API write';
    row({
      id: 'write.one_page',
      section,
      figure: 'POST /lobbies/{id}/messages, 1 page, latency',
      unit: 'ms',
      value: lat('ours-1'),
      baseline: { name: 'raw IndexedDB put in a SW, 1 page', summary: lat('floor-1') },
      target: { text: '≤ 2× put', max: 2 },
    });
    row({
      id: 'write.four_pages',
      section,
      figure: 'POST /lobbies/{id}/messages, 4 pages at once, latency',
      unit: 'ms',
      value: lat('ours-4'),
      baseline: { name: 'raw IndexedDB put in a SW, 4 pages', summary: lat('floor-4') },
      target: { text: '≤ 1.6× put', max: 1.6 },
    });
    if (r['guarded-4']) {
      const guarded = {
        name: 'guarded floor: the raw put beside the SHA-256 fingerprint of its request (looked up, then stored) in one transaction, 4 pages',
        summary: lat('guarded-4'),
      };
      row({
        id: 'write.four_pages_vs_guarded_floor',
        section,
        figure: 'POST, 4 pages at once, against a put that also recognizes a request dispatched again',
        unit: 'ms',
        value: lat('ours-4'),
        baseline: guarded,
      });
      row({
        id: 'write.guarded_floor',
        section,
        figure: 'that guarded floor itself, against the raw put (what exactly-once costs at the least)',
        unit: 'ms',
        value: guarded.summary,
        baseline: { name: 'raw IndexedDB put in a SW, 4 pages', summary: lat('floor-4') },
      });
    }
    row({
      id: 'write.one_page_rate',
      section,
      figure: 'POST, 1 page: messages per second',
      unit: 'msg/s',
      value: rate('ours-1'),
      baseline: { name: 'raw IndexedDB put, 1 page', summary: rate('floor-1') },
      higherIsBetter: true,
    });
    row({
      id: 'write.four_pages_rate',
      section,
      figure: 'POST, 4 pages at once: messages per second',
      unit: 'msg/s',
      value: rate('ours-4'),
      baseline: { name: 'raw IndexedDB put, 4 pages', summary: rate('floor-4') },
      higherIsBetter: true,
    });
    details.write = {
      latency: Object.fromEntries(Object.keys(r).map((g) => [g, lat(g)])),
      rates: Object.fromEntries(Object.keys(r).map((g) => [g, rate(g)])),
      failures: raw.write.failures,
      batch: options.write.batch,
    };
  }

  if (raw.fanout) {
    const g = summarize(raw.fanout.times.gateway);
    const f = summarize(raw.fanout.times.floor);
    const d = summarize(raw.fanout.times.durable);
    const tabs = options.fanout.tabs;
    const figure = `lobby message to ${raw.fanout.sockets} GatewaySockets on ${tabs} tabs (POST → every tab has it)`;
    const bc = { name: `one BroadcastChannel message to the ${tabs} tabs`, summary: f };
    const durable = {
      name: `durable floor: raw IndexedDB put in a SW, then one BroadcastChannel message to the ${tabs} tabs`,
      summary: d,
    };
    const section = '3. Gateway fan-out';
    row({
      id: 'fanout.durable',
      section,
      figure,
      unit: 'ms',
      value: g,
      baseline: durable,
      target: { text: '≤ 1.5× durable floor', max: 1.5 },
    });
    row({
      id: 'fanout.bc',
      section,
      figure: 'the same lobby message, against a bare BroadcastChannel message (stores nothing)',
      unit: 'ms',
      value: g,
      baseline: bc,
      target: { text: 'for reference' },
    });
    row({
      id: 'fanout.durable_floor',
      section,
      figure: 'the durable floor itself',
      unit: 'ms',
      value: d,
      baseline: bc,
    });
    /** @type {any} */
    let gf = null;
    if (raw.fanout.times.gatewayFloor?.length) {
      gf = summarize(raw.fanout.times.gatewayFloor);
      const gatewayFloor = {
        name: `gateway floor: the durable floor's put, then a shared worker that stores one record and posts to the ${raw.fanout.sockets} sockets' ports`,
        summary: gf,
      };
      row({
        id: 'fanout.vs_gateway_floor',
        section,
        figure: 'the same lobby message, against the gateway floor',
        unit: 'ms',
        value: g,
        baseline: gatewayFloor,
      });
      row({
        id: 'fanout.gateway_floor',
        section,
        figure:
          'the gateway floor itself: a gateway that stores a resume point before it sends, against the durable floor',
        unit: 'ms',
        value: gf,
        baseline: durable,
      });
    }
    details.fanout = { gateway: g, floor: f, durable: d, gateway_floor: gf, sockets: raw.fanout.sockets };
  }

  if (raw.members) {
    const sizes = Object.keys(raw.members.times)
      .map(Number)
      .sort((a, b) => a - b);
    const s = Object.fromEntries(sizes.map((n) => [n, summarize(raw.members.times[n])]));
    for (const n of sizes) {
      const base =
        n === sizes[0] ? null : { name: `all of ${count(sizes[0])} (× ${n / sizes[0]} members)`, summary: s[sizes[0]] };
      row({
        id: `members.${sizeId(n)}`,
        section: '4. Scale: Request Guild Members',
        figure: `all members of a guild of ${count(n)}, to the last chunk`,
        unit: 'ms',
        value: s[n],
        baseline: base,
        target: n === 100_000 ? { text: '≤ 1,500 ms', maxValue: 1500 } : null,
      });
    }
    const largest = sizes[sizes.length - 1];
    if (raw.members.floors?.[largest]?.length) {
      const floor = summarize(raw.members.floors[largest]);
      row({
        id: `members.${sizeId(largest)}_vs_read_floor`,
        section: '4. Scale: Request Guild Members',
        figure: `all members of the guild of ${count(largest)}, against reading them from IndexedDB`,
        unit: 'ms',
        value: s[largest],
        baseline: {
          name: `the same members and their users read from IndexedDB in a page, nothing else (${count(largest)})`,
          summary: floor,
        },
      });
      details.members_read_floor = Object.fromEntries(sizes.map((n) => [n, summarize(raw.members.floors[n] ?? [])]));
    }
    details.members = {
      summaries: s,
      rate_limited_retries: raw.members.rateLimited,
      per_member_us: Object.fromEntries(sizes.map((n) => [n, (s[n].median / n) * 1000])),
    };
  }

  if (raw.cold) {
    const c = raw.cold;
    const targets = { first: { text: '≤ 1.8× blank', max: 1.8 }, repeat: { text: '≤ 1.3× blank', max: 1.3 } };
    for (const visit of /** @type {const} */ (['first', 'repeat'])) {
      row({
        id: `cold.${visit}`,
        section: '5. Cold start',
        figure: `<pp-platform> ready, ${visit} visit`,
        unit: 'ms',
        value: summarize(c.platform[visit]),
        baseline: { name: `blank page + empty SW, ${visit} visit`, summary: summarize(c.blank[visit]) },
        target: targets[visit],
      });
    }
    if (c.worker?.first?.length) {
      for (const visit of /** @type {const} */ (['first', 'repeat'])) {
        const worker = summarize(c.worker[visit]);
        row({
          id: `cold.${visit}_vs_workers_floor`,
          section: '5. Cold start',
          figure: `<pp-platform> ready, ${visit} visit, against the platform's service worker and a minimal shared worker`,
          unit: 'ms',
          value: summarize(c.platform[visit]),
          baseline: {
            name: `a page that registers dist/sw.js and starts a minimal shared worker at once, ready once both answer, ${visit} visit`,
            summary: worker,
          },
          target: visit === 'repeat' ? { text: '≤ 1.2× workers floor', max: 1.2 } : null,
        });
        row({
          id: `cold.${visit}_workers_floor`,
          section: '5. Cold start',
          figure: `that floor itself, ${visit} visit: the platform's service worker installed (its precache included) or started, and a shared worker started, against the blank page`,
          unit: 'ms',
          value: worker,
          baseline: { name: `blank page + empty SW, ${visit} visit`, summary: summarize(c.blank[visit]) },
        });
      }
    }
    if (c.worker_hub?.repeat?.length) {
      const floor = summarize(c.worker.repeat);
      const withHub = summarize(c.worker_hub.repeat);
      row({
        id: 'cold.repeat_hub_floor',
        section: '5. Cold start',
        figure:
          "the workers floor with the platform's hub instead of the minimal one, repeat visit: what the hub's start costs (its entry fetched, compiled and run until it answers)",
        unit: 'ms',
        value: withHub,
        baseline: { name: 'the workers floor, repeat visit', summary: floor },
      });
      row({
        id: 'cold.repeat_vs_hub_floor',
        section: '5. Cold start',
        figure:
          "<pp-platform> ready, repeat visit, against the workers floor with the platform's hub: what the element's own code costs (its modules, lit, the registration through Workbox)",
        unit: 'ms',
        value: summarize(c.platform.repeat),
        baseline: { name: "the workers floor with the platform's hub, repeat visit", summary: withHub },
      });
    }
    details.cold = c;
  }

  if (raw.server) {
    const v = raw.server;
    const section = '7. Server (workerd through Miniflare, loopback)';
    const s = (/** @type {number[]} */ times) => summarize(times);
    row({
      id: 'server.rest_read',
      section,
      figure: `REST read of 200 lobby messages (${count(v.rest_read.bytes)} B)`,
      unit: 'ms',
      value: s(v.rest_read.server),
      baseline: { name: 'bare node:http server sending the same bytes', summary: s(v.rest_read.bare) },
    });
    row({
      id: 'server.fanout_ws',
      section,
      figure: 'one lobby message to 50 member WebSockets, to the last',
      unit: 'ms',
      value: s(v.fanout_ws.server),
      baseline: { name: 'bare ws server broadcasting the same size to 50 sockets', summary: s(v.fanout_ws.bare) },
    });
    row({
      id: 'server.discordjs_ready',
      section,
      figure: 'discord.js 14: login() to ClientReady',
      unit: 'ms',
      value: s(v.discordjs_ready.server),
      baseline: { name: 'raw WebSocket Identify to READY on the same server', summary: s(v.discordjs_ready.raw) },
      target: { text: '≤ 1.5× raw Identify', max: 1.5 },
    });
    row({
      id: 'server.messages_per_s',
      section,
      figure: 'sustained lobby messages per second into one sandbox (8 writers)',
      unit: 'msg/s',
      value: { median: v.messages_per_s.server, p95: null, n: null },
      baseline: {
        name: 'same loop against a bare node:http server storing nothing',
        summary: { median: v.messages_per_s.bare },
      },
      higherIsBetter: true,
    });
    if (v.rest_read.engine_floor) {
      const engineRead = {
        name: 'engine floor: a minimal Worker handing the request to a minimal Durable Object, which answers the same bytes from memory',
        summary: s(v.rest_read.engine_floor),
      };
      const sqlRead = {
        name: `SQL floor: that object finds the token in SQLite, reads the same 200 messages as rows and answers them as JSON (${count(v.rest_read.sql_floor_bytes)} B)`,
        summary: s(v.rest_read.sql_floor),
      };
      const bareRead = { name: 'bare node:http server sending the same bytes', summary: s(v.rest_read.bare) };
      row({
        id: 'server.rest_read_vs_engine',
        section,
        figure: 'REST read of 200 lobby messages, against the engine floor',
        unit: 'ms',
        value: s(v.rest_read.server),
        baseline: engineRead,
        target: { text: '≤ 1.3× engine floor', max: 1.3 },
      });
      row({
        id: 'server.rest_read_engine_floor',
        section,
        figure: 'that engine floor itself (Miniflare and workerd, a Worker and an object)',
        unit: 'ms',
        value: engineRead.summary,
        baseline: bareRead,
      });
      row({
        id: 'server.rest_read_worker_floor',
        section,
        figure: 'a minimal Worker answering the same bytes from memory, no object',
        unit: 'ms',
        value: s(v.rest_read.worker_floor),
        baseline: bareRead,
      });
      row({
        id: 'server.rest_read_vs_sql_floor',
        section,
        figure: 'REST read of 200 lobby messages, against the SQL floor',
        unit: 'ms',
        value: s(v.rest_read.server),
        baseline: sqlRead,
      });
      row({
        id: 'server.rest_read_sql_floor',
        section,
        figure:
          'that SQL floor itself, against the engine floor (what the token lookup and the rows cost at the least)',
        unit: 'ms',
        value: sqlRead.summary,
        baseline: engineRead,
      });
    }
    if (v.fanout_ws.engine_floor) {
      const engineFan = {
        name: `engine floor: a minimal Worker hands a POST to a minimal Durable Object, which sends its body (${count(v.fanout_ws.bytes)} B) to 50 hibernatable WebSockets`,
        summary: s(v.fanout_ws.engine_floor),
      };
      const storedFan = {
        name: 'stored floor: that object inserts the body as one SQLite row, then sends it to the 50 sockets',
        summary: s(v.fanout_ws.stored_floor),
      };
      row({
        id: 'server.fanout_ws_vs_engine',
        section,
        figure: 'one lobby message to 50 member WebSockets, against the engine floor',
        unit: 'ms',
        value: s(v.fanout_ws.server),
        baseline: engineFan,
        target: { text: '≤ 1.5× engine floor', max: 1.5 },
      });
      row({
        id: 'server.fanout_ws_engine_floor',
        section,
        figure: 'that engine floor itself',
        unit: 'ms',
        value: engineFan.summary,
        baseline: { name: 'bare ws server broadcasting the same size to 50 sockets', summary: s(v.fanout_ws.bare) },
      });
      row({
        id: 'server.fanout_ws_vs_stored_floor',
        section,
        figure: 'one lobby message to 50 member WebSockets, against the stored floor',
        unit: 'ms',
        value: s(v.fanout_ws.server),
        baseline: storedFan,
      });
      if (v.fanout_ws.gateway_floor) {
        const gatewayFan = {
          name: "gateway floor: that object stores the message and its event, then one resume record of the 50 sockets' sequence numbers, then sends each socket the dispatch with its own number",
          summary: s(v.fanout_ws.gateway_floor),
        };
        row({
          id: 'server.fanout_ws_vs_gateway_floor',
          section,
          figure: 'one lobby message to 50 member WebSockets, against the gateway floor',
          unit: 'ms',
          value: s(v.fanout_ws.server),
          baseline: gatewayFan,
        });
        row({
          id: 'server.fanout_ws_gateway_floor',
          section,
          figure:
            'that gateway floor itself, against the engine floor (what storing the message and the resume points before the send costs at the least)',
          unit: 'ms',
          value: gatewayFan.summary,
          baseline: engineFan,
        });
        if (v.fanout_ws.gateway_after_floor?.length) {
          row({
            id: 'server.fanout_ws_gateway_after_commit_floor',
            section,
            figure:
              'gateway floor numbering after the commit: the message and its event in one transaction, the resume record in a second, then the sends, against the engine floor (what numbering only what was committed costs at the least)',
            unit: 'ms',
            value: s(v.fanout_ws.gateway_after_floor),
            baseline: engineFan,
          });
        }
        const cpu = v.fanout_ws.cpu_ms_per_message;
        if (cpu) {
          const cpuRow = (/** @type {number} */ ms) => ({ median: ms, p95: null, n: null });
          row({
            id: 'server.fanout_ws_cpu_vs_gateway_floor',
            section,
            figure:
              'workerd CPU time per lobby message to 50 member WebSockets (the whole workerd process, over the measured rounds), against the gateway floor numbering after the commit',
            unit: 'ms',
            value: cpuRow(cpu.server),
            baseline: { name: 'the CPU time per message of that floor', summary: cpuRow(cpu.gateway_after_floor) },
          });
          row({
            id: 'server.fanout_ws_cpu_gateway_after_commit_floor',
            section,
            figure:
              'the CPU time per message of that floor, against the engine floor (what the two commits cost in CPU)',
            unit: 'ms',
            value: cpuRow(cpu.gateway_after_floor),
            baseline: { name: 'the CPU time per message of the engine floor', summary: cpuRow(cpu.engine_floor) },
          });
        }
      }
      row({
        id: 'server.fanout_ws_stored_floor',
        section,
        figure:
          'that stored floor itself, against the engine floor (what the commit before the send costs at the least)',
        unit: 'ms',
        value: storedFan.summary,
        baseline: engineFan,
      });
    }
    if (v.messages_per_s.engine_floor) {
      const engineRate = {
        name: 'engine floor: the same loop against a minimal Worker and Durable Object inserting one SQLite row per message',
        summary: { median: v.messages_per_s.engine_floor },
      };
      row({
        id: 'server.messages_per_s_vs_engine',
        section,
        figure: 'sustained lobby messages per second into one sandbox (8 writers), against the engine floor',
        unit: 'msg/s',
        value: { median: v.messages_per_s.server, p95: null, n: null },
        baseline: engineRate,
        target: { text: '≥ 0.7× engine floor', min: 0.7 },
        higherIsBetter: true,
      });
      row({
        id: 'server.messages_per_s_engine_floor',
        section,
        figure: 'that engine floor itself',
        unit: 'msg/s',
        value: engineRate.summary,
        baseline: {
          name: 'same loop against a bare node:http server storing nothing',
          summary: { median: v.messages_per_s.bare },
        },
        higherIsBetter: true,
      });
    }
    if (v.messages_per_s.write_floor) {
      const writeRate = {
        name: 'write floor: the same loop against a minimal object that finds the token in SQLite, then inserts the message and an event naming it in one transaction',
        summary: { median: v.messages_per_s.write_floor },
      };
      row({
        id: 'server.messages_per_s_vs_write_floor',
        section,
        figure: 'sustained lobby messages per second into one sandbox (8 writers), against the write floor',
        unit: 'msg/s',
        value: { median: v.messages_per_s.server, p95: null, n: null },
        baseline: writeRate,
        higherIsBetter: true,
      });
      row({
        id: 'server.messages_per_s_write_floor',
        section,
        figure:
          'that write floor itself, against the engine floor (what the token lookup and the logged event cost at the least)',
        unit: 'msg/s',
        value: writeRate.summary,
        baseline: {
          name: 'the engine floor (one SQLite row per message)',
          summary: { median: v.messages_per_s.engine_floor },
        },
        higherIsBetter: true,
      });
      const cpu = v.messages_per_s.cpu_ms_per_message;
      if (cpu) {
        row({
          id: 'server.messages_per_s_cpu_vs_write_floor',
          section,
          figure:
            'workerd CPU time per lobby message in the 8-writer loop (the whole workerd process, over every slice), against the write floor',
          unit: 'ms',
          value: { median: cpu.server, p95: null, n: null },
          baseline: {
            name: 'the CPU time per message of the write floor',
            summary: { median: cpu.write_floor, p95: null, n: null },
          },
        });
      }
    }
    if (v.discordjs_ready.protocol?.length) {
      const protocol = {
        name: 'protocol floor: a raw client asks GET /gateway/bot, connects, identifies and waits for GUILD_CREATE (what ClientReady waits for)',
        summary: s(v.discordjs_ready.protocol),
      };
      row({
        id: 'server.discordjs_ready_vs_protocol_floor',
        section,
        figure: 'discord.js 14: login() to ClientReady, against the protocol floor',
        unit: 'ms',
        value: s(v.discordjs_ready.server),
        baseline: protocol,
      });
      row({
        id: 'server.discordjs_protocol_floor',
        section,
        figure: 'that protocol floor itself, against a raw Identify to READY (what the REST call and the guilds add)',
        unit: 'ms',
        value: protocol.summary,
        baseline: { name: 'raw WebSocket Identify to READY on the same server', summary: s(v.discordjs_ready.raw) },
      });
    }
    details.server = v;
  }
  if (raw.ratelimit) {
    const v = raw.ratelimit;
    row({
      id: 'server.rate_limit_accounting',
      section: '7. Server (workerd through Miniflare, loopback)',
      figure: 'GET /users/@me with the rate-limit accounting on (route bucket + global limit, X-RateLimit-* headers)',
      unit: 'ms',
      value: summarize(v.limited),
      baseline: { name: 'the same request in a sandbox with rate limits off', summary: summarize(v.plain) },
    });
    details.ratelimit = v;
  }
  if (raw.server_load) {
    const v = raw.server_load;
    const section = `9. Many sandboxes (${v.sandboxes} on one server, ${v.team.bots} bots + ${v.team.users} users each)`;
    const { paced, saturated } = v.stages;
    const one = (/** @type {number} */ x) => ({ median: x, p95: null, n: null });
    const mb = (/** @type {number} */ bytes) => one(bytes / 1e6);
    const zero = { text: '0', maxValue: 0 };
    row({
      id: 'server_load.throughput',
      section,
      figure: `guild messages per second, every team posting back to back (one message in flight per sandbox)`,
      unit: 'msg/s',
      value: one(saturated.messages_per_s),
      higherIsBetter: true,
    });
    row({
      id: 'server_load.events_per_s',
      section,
      figure: 'MESSAGE_CREATE events delivered per second in the same stage',
      unit: 'events/s',
      value: one(saturated.events_per_s),
      higherIsBetter: true,
    });
    row({
      id: 'server_load.cpu_per_message',
      section,
      figure: `workerd CPU time per message stored and sent to ${v.team.bots + v.team.users} sessions, in the same stage`,
      unit: 'ms',
      value: one(saturated.workerd_cpu_ms_per_message),
    });
    for (const [id, q] of /** @type {const} */ ([
      ['delivery_p50', 'p50'],
      ['delivery_p99', 'p99'],
    ])) {
      row({
        id: `server_load.${id}`,
        section,
        figure: `delivery latency ${q}, POST sent to each member's MESSAGE_CREATE, every member posting every ${v.pace_ms / 1000} s (${paced.messages_per_s.toFixed(0)} msg/s in all)`,
        unit: 'ms',
        value: {
          median: paced.delivery_ms[q],
          p95: q === 'p50' ? paced.delivery_ms.p95 : null,
          n: paced.delivery_ms.n,
        },
      });
    }
    row({
      id: 'server_load.saturated_delivery_p50',
      section,
      figure: 'delivery latency p50 while every team posts back to back (waiting for the engine included)',
      unit: 'ms',
      value: { median: saturated.delivery_ms.p50, p95: saturated.delivery_ms.p95, n: saturated.delivery_ms.n },
    });
    row({
      id: 'server_load.memory',
      section,
      figure: `workerd's resident memory at its peak, ${v.sandboxes} sandboxes under load`,
      unit: 'MB',
      value: mb(v.memory.workerd_peak),
      baseline: { name: 'workerd started, no sandbox yet', summary: mb(v.memory.workerd_idle) },
    });
    row({
      id: 'server_load.memory_per_sandbox',
      section,
      figure: `workerd's resident memory per sandbox: (peak − started) / ${v.sandboxes}`,
      unit: 'MB',
      value: mb((v.memory.workerd_peak - v.memory.workerd_idle) / v.sandboxes),
    });
    row({
      id: 'server_load.memory_per_session',
      section,
      figure: `workerd's resident memory per gateway session: (all ${v.sockets} connected − seeded) / ${v.sockets}`,
      unit: 'MB',
      value: mb((v.memory.workerd_connected - v.memory.workerd_seeded) / v.sockets),
    });
    row({
      id: 'server_load.memory_node',
      section,
      figure: `the Node process's resident memory at its peak (Miniflare and the load's ${v.sockets} clients)`,
      unit: 'MB',
      value: mb(v.memory.node_peak),
      baseline: { name: 'the same process before the server started', summary: mb(v.memory.node_before_server) },
    });
    row({
      id: 'server_load.lost',
      section,
      figure: `events lost: acknowledged messages missing at a member after the drain (of ${count(v.expected_events)})`,
      unit: 'events',
      value: one(v.lost),
      target: zero,
    });
    row({
      id: 'server_load.duplicated',
      section,
      figure: 'events duplicated: a message delivered twice to one member',
      unit: 'events',
      value: one(v.duplicated),
      target: zero,
    });
    row({
      id: 'server_load.misrouted',
      section,
      figure: "events of another sandbox's channel received by a member",
      unit: 'events',
      value: one(v.misrouted),
      target: zero,
    });
    row({
      id: 'server_load.failed_posts',
      section,
      figure: `POSTs not answered 200 (of ${count(v.posted)})`,
      unit: 'requests',
      value: one(v.failed_posts),
      target: zero,
    });
    row({
      id: 'server_load.resumes',
      section,
      figure:
        'sessions resumed after the server asked them to (a sandbox object evicted while its clients were connected, then woken)',
      unit: 'sessions',
      value: one(v.sessions.resumes),
    });
    details.server_load = v;
  }
  if (raw.size) {
    const z = raw.size;
    const kb = (/** @type {number} */ bytes) => bytes / 1000;
    const gz = (/** @type {{ gzip: number }} */ m) => ({ median: kb(m.gzip), p95: null, n: null });
    const publicSdk = {
      name: "public SDK: import { DiscordSDK } from '@discord/embedded-app-sdk'",
      summary: { median: kb(z.public_sdk_equivalent.entry.gzip) },
    };
    const section = '6. Size (gzip -9)';
    row({
      id: 'size.activity_sdk',
      section,
      figure: "activity SDK: import { ActivitySdk } from 'platformpp-web/activity'",
      unit: 'kB gz',
      value: gz(z.activity_equivalent.entry),
      baseline: publicSdk,
      target: { text: '≤ 1/3 of public', max: 1 / 3 },
    });
    row({
      id: 'size.activity_sdk_all',
      section,
      figure: 'activity SDK: every export of src/activity/index.ts',
      unit: 'kB gz',
      value: gz(z.activity_entry.entry),
      baseline: publicSdk,
      target: { text: '≤ 1/3 of public', max: 1 / 3 },
    });
    row({
      id: 'size.game_sdk',
      section,
      figure: 'game SDK: src/sdk/index.ts (entry chunk)',
      unit: 'kB gz',
      value: gz(z.game_sdk_entry.entry),
    });
    row({
      id: 'size.game_sdk_lazy',
      section,
      figure: 'game SDK with its lazily loaded chunks',
      unit: 'kB gz',
      value: gz(z.game_sdk_entry.all),
    });
    row({
      id: 'size.sw',
      section,
      figure: 'service worker: dist/sw.js, the start-up script (every start runs it)',
      unit: 'kB gz',
      value: gz(z.service_worker),
      target: { text: '≤ 60 kB gz', maxValue: 60 },
    });
    if (z.service_worker_total)
      row({
        id: 'size.sw_total',
        section,
        figure: `service worker in all: dist/sw.js and the routes it runs on first use (${z.service_worker_total.routes_file ?? 'none'})`,
        unit: 'kB gz',
        value: gz(z.service_worker_total),
      });
    row({
      id: 'size.hub',
      section,
      figure: `shared worker: ${z.shared_worker.file}`,
      unit: 'kB gz',
      value: gz(z.shared_worker),
    });
    if (z.shared_worker_total)
      row({
        id: 'size.hub_total',
        section,
        figure: `shared worker in all: its entry and the core it imports once it answers (${z.shared_worker_total.core_file ?? 'none'})`,
        unit: 'kB gz',
        value: gz(z.shared_worker_total),
      });
    details.size = z;
  }

  if (raw.voice) {
    const v = raw.voice;
    const section = '7. Voice (2 tabs, 1 lobby call)';
    const plain = { name: 'the same call without the frame transform' };
    row({
      id: 'voice.mouth_to_ear',
      section,
      figure: "mouth-to-ear: a beep's onset at the sender's microphone to its onset at the receiver, E2EE call",
      unit: 'ms',
      value: summarize(v.e2ee.mouthToEar),
      baseline: { ...plain, summary: summarize(v.plain.mouthToEar) },
    });
    row({
      id: 'voice.e2ee_cpu',
      section,
      figure: 'CPU time of the whole browser per second of call, E2EE (AES-256-GCM per frame)',
      unit: 'ms/s',
      value: summarize(v.e2ee.cpu),
      baseline: { ...plain, summary: summarize(v.plain.cpu) },
    });
    details.voice = {
      seconds_per_window: v.seconds,
      mouth_to_ear: { e2ee: summarize(v.e2ee.mouthToEar), plain: summarize(v.plain.mouthToEar) },
      cpu_ms_per_s: { e2ee: summarize(v.e2ee.cpu), plain: summarize(v.plain.cpu) },
      beeps_heard_without_a_sent_onset: { e2ee: v.e2ee.unpaired, plain: v.plain.unpaired },
    };
  }

  const order = ['1.', '2.', '3.', '4. Scale: API', '4. Scale: Request', '5.', '6.', '7.', '8.', '9.'];
  rows.sort(
    (a, b) => order.findIndex((p) => a.section.startsWith(p)) - order.findIndex((p) => b.section.startsWith(p)),
  );
  return {
    title: 'npm run bench',
    date: new Date().toISOString(),
    duration_s: durationS,
    quick: options.quick,
    ...about,
    config: {
      lobby_sizes: options.lobbySizes,
      guild_sizes: options.guildSizes,
      read: options.read,
      write: options.write,
      fanout: options.fanout,
      members: options.members,
      cold: options.cold,
      cold_read: options.cold_read,
      memory: options.memory,
      voice: options.voice,
      server_load: options.server_load,
    },
    rows,
    details,
  };
}

/** @param {number | null} x @param {string} unit */
function fmt(x, unit) {
  if (x === null || Number.isNaN(x)) return '–';
  if (unit === 'msg/s' || unit === 'events/s' || unit === 'events' || unit === 'requests') return x.toFixed(0);
  if (unit === 'kB gz' || unit === 'ms/s' || unit === 'MB') return x.toFixed(1);
  return x >= 100 ? x.toFixed(0) : x.toFixed(2);
}

/** @param {Row} r */
function cells(r) {
  const met = r.met === null ? '' : r.met ? ' ✓' : ' ✗';
  return [
    r.section,
    r.figure,
    `${fmt(r.value, r.unit)} ${r.unit}`,
    r.p95 === null ? '–' : fmt(r.p95, r.unit),
    r.baseline ?? '–',
    r.baseline_value === null
      ? '–'
      : `${fmt(r.baseline_value, r.unit)}${r.baseline_p95 != null ? ` (p95 ${fmt(r.baseline_p95, r.unit)})` : ''}`,
    r.ratio === null ? '–' : `${r.ratio.toFixed(2)}×`,
    r.target ? `${r.target}${met}` : '–',
  ];
}

const HEADER = ['Section', 'Figure', 'Median', 'p95', 'Baseline (same run)', 'Baseline median', 'Ratio', 'Target'];

/** @param {ReturnType<typeof buildReport>} report */
function machineLine(report) {
  const m = report.machine;
  return `${m.cpu}, ${m.cores} cores, ${m.memory_gib} GiB, ${m.os}; load at start ${m.load_average_at_start.join(' ')}`;
}

/** @param {ReturnType<typeof buildReport>} report */
function versionsLine(report) {
  return Object.entries(report.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** @param {ReturnType<typeof buildReport>} report */
export function renderTerminal(report) {
  const table = [HEADER, ...report.rows.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const line = (/** @type {string[]} */ r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [
    `${report.title}${report.quick ? ' (quick: small sizes, not comparable)' : ''}, ${report.date}, ${report.duration_s} s`,
    `machine: ${machineLine(report)}`,
    `versions: ${versionsLine(report)}`,
    '',
    line(table[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...table.slice(1).map(line),
    '',
    'Ratio = median / baseline median, both measured in this run, interleaved. Targets are read, not asserted.',
  ].join('\n');
}

/** @param {ReturnType<typeof buildReport>} report */
export function renderMarkdown(report) {
  const esc = (/** @type {string} */ s) => s.replaceAll('|', '\\|').replaceAll('<', '&lt;');
  // The markdown table leads with each row's id, what a program compares runs by.
  const table = [
    `| Id | ${HEADER.join(' | ')} |`,
    `|---|${HEADER.map((_, i) => (i >= 2 && i !== 4 ? '---:' : '---')).join('|')}|`,
    ...report.rows.map((r) => `| \`${r.id}\` | ${cells(r).map(esc).join(' | ')} |`),
  ];
  const d = report.details;
  const notes = [
    '- Run with `npm run bench` (builds the site, then about 10 minutes on 2 cores; `-- --quick` for a small run that leaves this file alone). Headless Chromium driven by playwright-core against the built `dist/`; every time is taken inside the page that makes the request, with `performance.now()` in cross-origin isolated pages.',
    "- Seeding: users, the application, tokens, lobbies, memberships and guilds through the platform's own API; the bulk (lobby messages, guild members and their users) written straight into the platform's IndexedDB from the driver page with the records' shapes of `src/store/records/core.ts` and `lobbies/messages.ts`.",
  ];
  if (d.read) {
    notes.push(
      `- Read: ${d.read.summaries.floor.n} requests per variant after warm-up, ${d.read.batch} in a row per turn, the variants' turns rotated every round; each timed in the page that made it (fetch until the body is read as bytes). Frames: ${Object.entries(
        d.read.frames,
      )
        .map(([k, v]) => `${k} (isolated: ${/** @type {any} */ (v).isolated})`)
        .join(', ')}. Identical bytes: ${Object.entries(d.read.answers)
        .map(([k, v]) => `${k} ${/** @type {any} */ (v).bytes} B${/** @type {any} */ (v).identical ? ' =' : ''}`)
        .join(', ')}. Failed requests: ${d.read.failures}.`,
    );
  }
  if (d.read_cold)
    notes.push(
      `- First read after a stop: each round stops every service worker through the DevTools protocol (\`ServiceWorker.stopAllWorkers\`, waiting until each reports stopped), then times one request in the read frame: our worker's read of the same lobby (the worker starts, opens the database, authenticates and reads), or the floor worker's answer (it starts and reads the bytes from Cache Storage), or the floor worker's read of the lobby's newest 200 and their authors from the platform's IndexedDB; beside them two start-up probes, each a request for a small file that its worker passes to the network: through dist/sw.js registered a second time for \`/bench/startup/sw/\` (a classic worker, as \`<pp-platform>\` registers it), and through a minimal module worker; all in turns, ${d.read_cold.ours.n} each.`,
    );
  if (d.cold?.worker)
    notes.push(
      "- Cold start: each round opens a fresh browser context per page (nothing registered or cached) and times a first visit, then a repeat visit, from the navigation's start to the page's ready mark: `<pp-platform>`'s `pp-status` ready; the blank page with an empty worker controlling it; the page that registers dist/sw.js and at once starts the floor hub (a minimal shared worker), ready once the worker controls it and the hub answered; the same page starting the platform's hub (as `<pp-platform>` reaches it) instead of the floor hub.",
    );
  if (d.memory)
    notes.push(
      `- Memory: the platform worker's JavaScript heap in use after a full garbage collection (DevTools \`HeapProfiler.collectGarbage\`, \`Runtime.getHeapUsage\` on the worker's target), once after a stop and one authenticated request, once after reading ${d.memory.lobbies} lobbies of 200 messages once each; the read cache keeps at most ${READ_CACHE_MAX_MIB} MiB, the least recently used going first.`,
    );
  if (d.write)
    notes.push(
      `- Write: ${d.write.batch} POSTs per tab per turn; latency from the tabs, messages per second from the driver's clock (word go → last report). The guarded floor's pages post to the floor worker, which hashes the request (client, method, URL, body: SHA-256), looks the fingerprint up and stores it beside the record in one transaction. Failed requests: ${d.write.failures}.`,
    );
  if (d.fanout)
    notes.push(
      `- Fan-out: each figure ends when the last of the tabs has acknowledged on a BroadcastChannel (the same extra hop for every variant). The durable floor's put is sent from a frame under the floor worker (one postMessage more than the gateway's POST, which the driver sends itself). The gateway floor's put is followed by one BroadcastChannel message to the floor hub (\`floor-hub.js\`, a shared worker), which puts one record and then posts one prepared text to each of the sockets' ports (one port per socket, as GatewaySocket has).`,
    );
  if (d.members)
    notes.push(
      `- Request Guild Members: the sandbox clock moves 31 s before each request (the all-members limit is once per 30 s); retries after RATE_LIMITED: ${d.members.rate_limited_retries}. Median per member: ${Object.entries(
        d.members.per_member_us,
      )
        .map(([n, us]) => `${Number(n).toLocaleString('en')}: ${Number(us).toFixed(1)} µs`)
        .join(', ')}.`,
    );
  if (d.voice)
    notes.push(
      `- Voice: two tabs of one browser, each its own user with the game SDK, in one lobby call through the shared worker; the fake microphone beeps twice a second. Each round runs the E2EE call and the same call without the frame transform (\`voice: { e2ee: false }\`, the sandbox clock before 2026-03-01), in alternating order. CPU: every browser process's CPU time (DevTools \`SystemInfo.getProcessInfo\`) over ${d.voice.seconds_per_window} s of call, nothing else running. Mouth-to-ear: a beep's onset (over -35 dBFS after 150 ms under -55) in the sender's microphone level to its onset in the level the receiver gets, both polled about every 4 ms on the tabs' shared clock (performance.timeOrigin + now); it includes Opus encoding, the transforms, loopback, the jitter buffer and decoding. Beeps heard without a sent onset: E2EE ${d.voice.beeps_heard_without_a_sent_onset.e2ee}, plain ${d.voice.beeps_heard_without_a_sent_onset.plain}.`,
    );
  if (d.server_load) {
    const v = d.server_load;
    const { paced, saturated } = v.stages;
    notes.push(
      `- Many sandboxes (\`--only=server-load\`): one server (workerd through Miniflare) with ${v.sandboxes} sandboxes seeded through the control API, each a guild with ${v.team.bots} bots and ${v.team.users} users (OAuth2 tokens with \`guilds messages.read messages.write\`), every member on a gateway WebSocket from this Node process (Identify with GUILDS | GUILD_MESSAGES, heartbeats: ${v.sessions.heartbeats} sent, ${v.sessions.acks} acknowledged). Every member posts guild messages over REST (${v.rest_connections} keep-alive connections shared by the run): ${paced.seconds} s paced (one every ${v.pace_ms / 1000} s at a random phase: ${paced.messages} messages), then ${saturated.seconds} s with each team posting back to back, one message in flight per sandbox (${saturated.messages}). Latency from the POST's send to each member's receipt; memory and CPU of workerd (${v.workerd_pids} process) from /proc. Events delivered ${count(v.delivered_events)} of ${count(v.expected_events)}; lost ${v.lost}, duplicated ${v.duplicated}, misrouted ${v.misrouted}, failed POSTs ${v.failed_posts}, sequence gaps ${v.sessions.sequence_gaps}, sessions closed by the server ${v.sessions.closed_by_server}. workerd's CPU share: ${paced.workerd_cpu_share.toFixed(2)} paced, ${saturated.workerd_cpu_share.toFixed(2)} saturated; the Node process's ${paced.node_cpu_share.toFixed(2)} and ${saturated.node_cpu_share.toFixed(2)}.`,
    );
  }
  return [
    `# ${report.title}: latest results`,
    '',
    `${report.date}, ${report.duration_s} s${report.quick ? ' (quick run: small sizes)' : ''}.`,
    '',
    `- Machine: ${machineLine(report)}`,
    `- Versions: ${versionsLine(report)}`,
    '',
    ...table,
    '',
    'Ratio = median / baseline median, both measured in the same run, interleaved. Targets are read, never asserted.',
    '',
    ...notes,
    '',
  ].join('\n');
}
