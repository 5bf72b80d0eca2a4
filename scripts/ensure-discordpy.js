#!/usr/bin/env node
// @ts-check
/**
 * Makes sure discord.py is there for the server's bot-library tests, before any test starts:
 * Debian's `python3-discord` (2.2.2), imported by Debian's /usr/bin/python3. As root with
 * apt-get it installs the package; otherwise it stops with the one command that installs it.
 * It never lets the discord.py tests skip silently.
 */
import { spawnSync } from 'node:child_process';

const PYTHON = '/usr/bin/python3';

function hasDiscordpy() {
  // From `/`: a `discord` folder in the working directory would shadow the package.
  return spawnSync(PYTHON, ['-c', 'import discord'], { stdio: 'ignore', cwd: '/' }).status === 0;
}

/** @param {string} command @param {string[]} args */
function run(command, args) {
  console.log(`ensure-discordpy: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

if (hasDiscordpy()) process.exit(0);

const isRoot = process.getuid?.() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (isRoot && hasApt) {
  console.log(`ensure-discordpy: ${PYTHON} cannot import discord; installing Debian's python3-discord.`);
  // The package lists may be stale or absent (a fresh container): refresh them only when the first try fails.
  const installed =
    run('apt-get', ['install', '-y', 'python3-discord']) ||
    (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'python3-discord']));
  if (installed && hasDiscordpy()) process.exit(0);
  console.error('ensure-discordpy: installing python3-discord with apt-get failed (see above).');
  process.exit(1);
}

console.error(`ensure-discordpy: the bot-library tests need discord.py for ${PYTHON}, which cannot import it.`);
console.error('Install it with:');
console.error('');
console.error('    sudo apt-get install -y python3-discord');
console.error('');
process.exit(1);
