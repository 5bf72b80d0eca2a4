// @ts-check
/**
 * What a process costs, read from Linux's `/proc`: the resident memory and CPU time of a
 * process, and the workerd processes a Miniflare of this process started (its descendants named
 * `workerd`), so a bench can weigh the server's engine apart from the Node process driving it.
 * Elsewhere than on Linux nothing is found and every figure reads as zero.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat`'s CPU times (USER_HZ, 100 on every Linux build that matters). */
const TICKS_PER_S = 100;

/**
 * The fields of `/proc/<pid>/stat` after the command name (which may hold spaces and parentheses).
 * @param {number} pid
 */
function statFields(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const close = text.lastIndexOf(')');
  return { name: text.slice(text.indexOf('(') + 1, close), rest: text.slice(close + 2).split(' ') };
}

/**
 * The pids of every live descendant of `root` whose command name is `name`.
 * @param {number} root @param {string} name
 * @example descendantsNamed(process.pid, 'workerd') // [41231]
 */
export function descendantsNamed(root, name) {
  /** @type {Map<number, { name: string, parent: number }>} */
  const all = new Map();
  // Without /proc (not Linux) nothing is found, and every usage reads as zero.
  const entries = existsSync('/proc') ? readdirSync('/proc') : [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = statFields(pid);
      all.set(pid, { name: stat.name, parent: Number(stat.rest[1]) });
    } catch {
      // The process ended while the list was read.
    }
  }
  const isDescendant = (/** @type {number} */ pid) => {
    for (let p = all.get(pid)?.parent; p !== undefined && p > 0; p = all.get(p)?.parent) if (p === root) return true;
    return false;
  };
  return [...all].filter(([pid, p]) => p.name === name && isDescendant(pid)).map(([pid]) => pid);
}

/**
 * Resident memory (bytes) and CPU time (user + system, seconds) of `pid`, or zeros once it ended.
 * @param {number} pid
 */
export function processUsage(pid) {
  try {
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    const { rest } = statFields(pid);
    // utime and stime are fields 14 and 15 of stat, 11 and 12 after the name and state.
    const cpuS = (Number(rest[11]) + Number(rest[12])) / TICKS_PER_S;
    return { rss: rss ? Number(rss[1]) * 1024 : 0, cpuS };
  } catch {
    return { rss: 0, cpuS: 0 };
  }
}

/**
 * The summed usage of `pids`.
 * @param {number[]} pids
 */
export function totalUsage(pids) {
  return pids.map(processUsage).reduce((a, b) => ({ rss: a.rss + b.rss, cpuS: a.cpuS + b.cpuS }), { rss: 0, cpuS: 0 });
}
