// @ts-check
/**
 * Many sandboxes at once on one server (`npm run bench -- --only=server-load`), loopback only,
 * bounded in time and count. One server is started once; `sandboxes` teams are seeded through
 * the control API, each a guild with 2 bots and 5 users, every member on a real gateway
 * WebSocket (`server-load-team.js`). Then every member posts guild messages over REST, in two
 * stages:
 * - paced: each member posts one message every `pace_ms` (a busy team's chat), at a random
 *   phase, whether or not its previous message was answered: the latency a team sees;
 * - saturated: each team posts back to back, its members taking turns (one request in flight
 *   per sandbox, as one object takes them one after another): the most the server takes, and
 *   what it costs in CPU per message.
 * Each message's MESSAGE_CREATE must reach all seven members of its team exactly once, and
 * nothing of another team: after a drain, every acknowledged message missing at a member is
 * lost, every second copy duplicated. Delivery latency is from the POST's send to each member's
 * receipt. The server's memory and CPU are read from `/proc` for workerd (the Miniflare
 * engine's process, a child of this one) and for this Node process (which also drives the load).
 * Progress goes to stderr.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildServer } from '../../../scripts/build-server.js';
import { startServer } from '../../../server/start.js';
import { descendantsNamed, totalUsage } from './processes.js';
import { closeConnections, connectMember, REST_CONNECTIONS, requestJson, seedTeam } from './server-load-team.js';
import { quantile } from './stats.js';

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` over `items` with at most `width` at a time, in order of start.
 * @template T, R @param {T[]} items @param {number} width @param {(item: T, index: number) => Promise<R>} task
 */
async function pool(items, width, task) {
  /** @type {R[]} */
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i], i);
      }
    }),
  );
  return results;
}

/** p50, p95 and p99 of `samples` (ms), and how many. @param {number[]} samples */
function percentiles(samples) {
  const sorted = Float64Array.from(samples).sort();
  const q = (/** @type {number} */ p) => quantile(/** @type {any} */ (sorted), p);
  return { n: sorted.length, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

/**
 * @typedef {{ team: number, stage: string | null, t0: number | null, answered: number | null,
 *   seen: Set<number>, arrivals: number[], duplicates: number }} Tracked
 */

/**
 * @typedef {{ name: string, seconds: number, start: number, end: number,
 *   before: { workerd: { cpuS: number }, node: { cpuS: number }, at: number },
 *   after: { workerd: { cpuS: number }, node: { cpuS: number }, at: number } }} StageWindow
 */

/**
 * The figures of one stage: rates within its window, latencies of its messages, and CPU over the
 * whole stage, until its last POST was answered (a saturated stage ends with its queue).
 * @param {StageWindow} s @param {Tracked[]} acknowledged @param {number[]} eventTimes
 * @param {{ p50: number, p99: number }} loopDelay the load's own event-loop delay meanwhile (ms)
 */
function stageFigures(s, acknowledged, eventTimes, loopDelay) {
  const mine = acknowledged.filter((e) => e.stage === s.name);
  const sent = (/** @type {Tracked} */ e) => /** @type {number} */ (e.t0);
  const windowS = (s.end - s.start) / 1000;
  const stageS = (s.after.at - s.before.at) / 1000;
  const cpuS = s.after.workerd.cpuS - s.before.workerd.cpuS;
  return {
    seconds: s.seconds,
    messages: mine.length,
    messages_per_s: mine.filter((e) => /** @type {number} */ (e.answered) <= s.end).length / windowS,
    events_per_s: eventTimes.filter((at) => at >= s.start && at < s.end).length / windowS,
    delivery_ms: percentiles(mine.flatMap((e) => e.arrivals.map((at) => at - sent(e)))),
    post_ms: percentiles(mine.map((e) => /** @type {number} */ (e.answered) - sent(e))),
    workerd_cpu_s: cpuS,
    workerd_cpu_share: cpuS / stageS,
    workerd_cpu_ms_per_message: (cpuS * 1000) / Math.max(1, mine.length),
    node_cpu_share: (s.after.node.cpuS - s.before.node.cpuS) / stageS,
    node_event_loop_delay_ms: loopDelay,
  };
}

/**
 * The sessions' counts added up.
 * @param {ReturnType<Awaited<ReturnType<typeof connectMember>>['counts']>[]} counts
 */
function sessionTotals(counts) {
  return {
    heartbeats: counts.reduce((sum, c) => sum + c.heartbeats, 0),
    acks: counts.reduce((sum, c) => sum + c.acks, 0),
    unacked: counts.reduce((sum, c) => sum + c.unacked, 0),
    sequence_gaps: counts.reduce((sum, c) => sum + c.gaps, 0),
    resumes: counts.reduce((sum, c) => sum + c.resumes, 0),
    invalid_sessions: counts.reduce((sum, c) => sum + c.invalid_sessions, 0),
    closed_by_server: counts.filter((c) => c.closed !== null).length,
    /** How many sessions the server closed with each code. */
    close_codes: counts.reduce(
      (codes, c) => (c.closed === null ? codes : { ...codes, [c.closed]: (codes[c.closed] ?? 0) + 1 }),
      /** @type {Record<number, number>} */ ({}),
    ),
  };
}

/**
 * Runs the load.
 * @param {{ cacheDir: string, sandboxes: number, users: number, bots: number, paced_s: number, pace_ms: number,
 *   saturated_s: number, drain_s: number }} options
 */
export async function serverLoadPhase({ cacheDir, sandboxes, users, bots, paced_s, pace_ms, saturated_s, drain_s }) {
  const started = performance.now();
  const progress = (/** @type {string} */ line) =>
    process.stderr.write(`[server-load ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}\n`);
  const teamSize = users + bots;
  progress(`${sandboxes} sandboxes × (${bots} bots + ${users} users) on one server`);
  const workerPath = await buildServer({ quiet: true, outDir: `${cacheDir}/server` });
  const nodeBefore = process.memoryUsage.rss();
  const server = await startServer({ port: 0, workerPath });
  const engine = descendantsNamed(process.pid, 'workerd');
  const usage = () => {
    const cpu = process.cpuUsage();
    return {
      workerd: totalUsage(engine),
      node: { rss: process.memoryUsage.rss(), cpuS: (cpu.user + cpu.system) / 1e6 },
      at: performance.now(),
    };
  };
  const idle = usage();
  progress(
    `server at ${server.url}, workerd pid ${engine.join(', ') || 'not found'} (RSS ${(idle.workerd.rss / 1e6).toFixed(0)} MB)`,
  );
  /** @type {Map<string, Tracked>} */
  const messages = new Map();
  // Keyed by team and id: each sandbox makes its own ids, so two sandboxes may make the same one.
  const tracked = (/** @type {string} */ id, /** @type {number} */ team) => {
    const key = `${team}:${id}`;
    let entry = messages.get(key);
    if (!entry) {
      entry = { team, stage: null, t0: null, answered: null, seen: new Set(), arrivals: [], duplicates: 0 };
      messages.set(key, entry);
    }
    return entry;
  };
  const counters = { posted: 0, failed: 0, events: 0, other: 0, misrouted: 0 };
  /** @type {Record<string, number>} */
  const failures = {};
  /** @type {number[]} */
  const eventTimes = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let peak = idle;
  const sampler = setInterval(() => {
    const now = usage();
    peak = {
      workerd: { rss: Math.max(peak.workerd.rss, now.workerd.rss), cpuS: now.workerd.cpuS },
      node: { rss: Math.max(peak.node.rss, now.node.rss), cpuS: now.node.cpuS },
      at: now.at,
    };
  }, 1000);
  /** @type {Awaited<ReturnType<typeof connectMember>>[]} */
  let sockets = [];
  try {
    const teams = await pool(
      Array.from({ length: sandboxes }, (_, i) => i),
      4,
      async (i) => {
        const team = await seedTeam(`${server.url}/s/load-${i}`, { users, bots });
        if ((i + 1) % 10 === 0 || i + 1 === sandboxes) progress(`seeded ${i + 1}/${sandboxes} sandboxes`);
        return team;
      },
    );
    const seeded = usage();
    const pairs = teams.flatMap((team, t) => team.members.map((member, m) => ({ team, t, member, m })));
    sockets = await pool(pairs, 16, ({ team, t, member, m }) =>
      connectMember(team, member, (payload, at) => {
        if (payload.t !== 'MESSAGE_CREATE') {
          counters.other++;
          return;
        }
        counters.events++;
        eventTimes.push(at);
        if (payload.d.channel_id !== team.channelId) {
          counters.misrouted++;
          return;
        }
        const entry = tracked(payload.d.id, t);
        if (entry.seen.has(m)) entry.duplicates++;
        else {
          entry.seen.add(m);
          entry.arrivals.push(at);
        }
      }),
    );
    const connected = usage();
    progress(
      `${sockets.length} gateway sessions ready; workerd RSS ${(connected.workerd.rss / 1e6).toFixed(0)} MB, node RSS ${(connected.node.rss / 1e6).toFixed(0)} MB`,
    );

    /** Posts one message as member `m` of team `t`. */
    const post = async (/** @type {number} */ t, /** @type {number} */ m, /** @type {string} */ stage) => {
      const team = teams[t];
      const member = team.members[m];
      const content = `${member.name} of team ${t}, message ${counters.posted++}: `.padEnd(96, '·');
      const t0 = performance.now();
      try {
        const answer = await requestJson(
          `${team.base}/api/v10/channels/${team.channelId}/messages`,
          'POST',
          { content },
          member.auth,
        );
        if (answer.status !== 200) {
          counters.failed++;
          failures[answer.status] = (failures[answer.status] ?? 0) + 1;
          return;
        }
        const entry = tracked(answer.body.id, t);
        Object.assign(entry, { stage, t0, answered: performance.now() });
      } catch (error) {
        counters.failed++;
        const name = /** @type {Error} */ (error).message;
        failures[name] = (failures[name] ?? 0) + 1;
      }
    };
    const everyone = teams.flatMap((team, t) => team.members.map((_, m) => ({ t, m })));
    /** Runs one stage: every sender until `seconds` are over; resolves with its window and usage. */
    const stage = async (
      /** @type {string} */ name,
      /** @type {number} */ seconds,
      /** @type {((until: number) => Promise<void>)[]} */ senders,
    ) => {
      const before = usage();
      const until = before.at + seconds * 1000;
      const ticker = setInterval(() => {
        const done = [...messages.values()].filter((e) => e.stage === name).length;
        progress(
          `${name}: ${((performance.now() - before.at) / 1000).toFixed(0)}/${seconds} s, ${done} messages answered, ${counters.events} events received, ${counters.failed} failed; workerd RSS ${(usage().workerd.rss / 1e6).toFixed(0)} MB`,
        );
      }, 5000);
      loop.enable();
      await Promise.all(senders.map((send) => send(until)));
      loop.disable();
      clearInterval(ticker);
      return { name, seconds, start: before.at, end: until, before, after: usage() };
    };

    progress(`paced: each of ${everyone.length} members posts every ${pace_ms} ms for ${paced_s} s`);
    const paced = await stage(
      'paced',
      paced_s,
      everyone.map(({ t, m }) => async (until) => {
        /** @type {Promise<void>[]} */
        const sent = [];
        for (let next = performance.now() + Math.random() * pace_ms; next < until; next += pace_ms) {
          await sleep(next - performance.now());
          sent.push(post(t, m, 'paced'));
        }
        await Promise.all(sent);
      }),
    );
    const pacedLoop = { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6 };
    loop.reset();
    progress(`saturated: each team posts back to back, its members taking turns, for ${saturated_s} s`);
    const saturated = await stage(
      'saturated',
      saturated_s,
      teams.map((_, t) => async (until) => {
        for (let k = 0; performance.now() < until; k++) await post(t, k % teamSize, 'saturated');
      }),
    );
    const saturatedLoop = { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6 };

    // The drain: until every acknowledged message reached all its team, or `drain_s` passed.
    const drainUntil = performance.now() + drain_s * 1000;
    const missing = () => [...messages.values()].filter((e) => e.t0 !== null && e.seen.size < teamSize).length;
    while (missing() > 0 && performance.now() < drainUntil) await sleep(100);
    const end = usage();
    const all = [...messages.values()];
    const acknowledged = all.filter((e) => e.t0 !== null);
    const result = {
      sandboxes,
      team: { users, bots },
      pace_ms,
      sockets: sockets.length,
      rest_connections: REST_CONNECTIONS,
      stages: {
        paced: stageFigures(paced, acknowledged, eventTimes, pacedLoop),
        saturated: stageFigures(saturated, acknowledged, eventTimes, saturatedLoop),
      },
      posted: counters.posted,
      acknowledged: acknowledged.length,
      failed_posts: counters.failed,
      failures,
      expected_events: acknowledged.length * teamSize,
      delivered_events: acknowledged.reduce((sum, e) => sum + e.seen.size, 0),
      lost: acknowledged.reduce((sum, e) => sum + (teamSize - e.seen.size), 0),
      duplicated: all.reduce((sum, e) => sum + e.duplicates, 0),
      misrouted: counters.misrouted,
      // Messages whose event arrived but whose POST was not answered 200 (a request that failed after it committed).
      unacknowledged_delivered: all.length - acknowledged.length,
      other_dispatches: counters.other,
      sessions: sessionTotals(sockets.map((socket) => socket.counts())),
      memory: {
        workerd_idle: idle.workerd.rss,
        workerd_seeded: seeded.workerd.rss,
        workerd_connected: connected.workerd.rss,
        workerd_peak: Math.max(peak.workerd.rss, end.workerd.rss),
        workerd_end: end.workerd.rss,
        node_before_server: nodeBefore,
        node_peak: Math.max(peak.node.rss, end.node.rss),
      },
      workerd_pids: engine.length,
    };
    progress(
      `done: ${result.acknowledged} messages, ${result.delivered_events} of ${result.expected_events} events delivered; lost ${result.lost}, duplicated ${result.duplicated}, misrouted ${result.misrouted}, failed POSTs ${result.failed_posts}`,
    );
    const share = (/** @type {number} */ x) => x.toFixed(2);
    const { paced: p, saturated: q } = result.stages;
    progress(
      `CPU share of one core: workerd ${share(p.workerd_cpu_share)} paced, ${share(q.workerd_cpu_share)} saturated; this process ${share(p.node_cpu_share)} and ${share(q.node_cpu_share)}, its event-loop delay p99 ${p.node_event_loop_delay_ms.p99.toFixed(0)} and ${q.node_event_loop_delay_ms.p99.toFixed(0)} ms; workerd RSS ${(idle.workerd.rss / 1e6).toFixed(0)} MB started, ${(seeded.workerd.rss / 1e6).toFixed(0)} MB seeded, ${(connected.workerd.rss / 1e6).toFixed(0)} MB with every session, ${(result.memory.workerd_peak / 1e6).toFixed(0)} MB at the peak`,
    );
    const {
      sequence_gaps: gaps,
      closed_by_server: closed,
      close_codes: codes,
      resumes,
      invalid_sessions: invalid,
    } = result.sessions;
    progress(`sessions resumed after the server asked (an object evicted meanwhile): ${resumes}`);
    if (
      result.lost > 0 ||
      result.duplicated > 0 ||
      result.misrouted > 0 ||
      result.failed_posts > 0 ||
      gaps ||
      closed ||
      invalid
    ) {
      progress(
        `NOT CLEAN: sequence gaps ${gaps}, sessions closed by the server ${closed} (by code ${JSON.stringify(codes)}), invalidated ${invalid}, failed POSTs by cause ${JSON.stringify(failures)}`,
      );
    }
    return result;
  } finally {
    clearInterval(sampler);
    for (const socket of sockets) socket.close();
    closeConnections();
    await server.stop();
  }
}
