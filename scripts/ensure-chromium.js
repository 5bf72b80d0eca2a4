#!/usr/bin/env node
// @ts-check
/**
 * Makes sure a Chromium is there for the browser tests, before any test starts: the one at
 * $CHROMIUM_PATH, else Debian's /usr/bin/chromium. As root with apt-get it installs Debian's
 * package (with apt's own progress on the terminal); otherwise it stops with the one command
 * that installs it. It never skips the browser tests silently.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const DEFAULT_PATH = '/usr/bin/chromium';

/** @param {string} path */
function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** @param {string} command @param {string[]} args */
function run(command, args) {
  console.log(`ensure-chromium: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

const wanted = process.env.CHROMIUM_PATH;
if (wanted) {
  if (isExecutable(wanted)) process.exit(0);
  console.error(`ensure-chromium: CHROMIUM_PATH=${wanted} is not an executable file.`);
  console.error("Point CHROMIUM_PATH at a Chromium binary, or unset it to use Debian's /usr/bin/chromium.");
  process.exit(1);
}
if (isExecutable(DEFAULT_PATH)) process.exit(0);

const isRoot = process.getuid?.() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (isRoot && hasApt) {
  console.log(`ensure-chromium: no Chromium at ${DEFAULT_PATH}; installing Debian's chromium package (about 30 s).`);
  if (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'chromium']) && isExecutable(DEFAULT_PATH)) {
    process.exit(0);
  }
  console.error('ensure-chromium: installing chromium with apt-get failed (see above).');
  process.exit(1);
}

console.error(`ensure-chromium: the browser tests need Chromium, and there is none at ${DEFAULT_PATH}.`);
console.error('Install it with:');
console.error('');
console.error('    sudo apt-get install -y chromium');
console.error('');
console.error('or set CHROMIUM_PATH to a Chromium binary.');
process.exit(1);
