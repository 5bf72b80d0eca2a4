// @ts-check
/** The machine and the versions a run measured with, for the report. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { resolve } from 'node:path';

/** The packages whose versions bear on the figures. */
const PACKAGES = [
  'vite',
  'playwright-core',
  'msw',
  '@discord/embedded-app-sdk',
  'idb',
  'hono',
  'valibot',
  'lit',
  'comlink',
  'workbox-window',
  'workbox-precaching',
];

/** @param {string} root @param {string} name */
function installedVersion(root, name) {
  try {
    return JSON.parse(readFileSync(resolve(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

/** @param {string} root */
function gitCommit(root) {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    // The results of an earlier run are the bench's own output, not a change to what it measures.
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results'], {
        cwd: root,
        encoding: 'utf8',
      }).trim() !== '';
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

/**
 * @param {string} root @param {string} chromiumVersion
 */
export function describeMachine(root, chromiumVersion) {
  const cpu = cpus();
  return {
    machine: {
      cpu: cpu[0]?.model ?? 'unknown',
      cores: cpu.length,
      memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      os: `${type()} ${release()}`,
      load_average_at_start: loadavg().map((x) => Math.round(x * 100) / 100),
    },
    versions: {
      node: process.versions.node,
      chromium: chromiumVersion,
      ...Object.fromEntries(PACKAGES.map((name) => [name, installedVersion(root, name)])),
      platformpp: installedVersion(root, '..'),
      commit: gitCommit(root),
    },
  };
}
