// @vitest-environment node
/**
 * `platformpp-web serve` refuses bad options with exit status 2 and one line naming the option,
 * before it starts anything (CONTRACT §7).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const serve = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/platformpp-web.js', 'serve', ...args], { encoding: 'utf8', timeout: 20_000 });

describe('platformpp-web serve options', () => {
  it('refuses a --heartbeat-interval that is not whole milliseconds from 1000 to 600000', () => {
    const value = '1.5';
    const run = serve('--heartbeat-interval', value);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`--heartbeat-interval must be milliseconds from 1000 to 600000, not ${value}.`);
    expect(run.stdout).not.toContain('platformpp server:');
  });

  it('refuses a port out of 0..65535', () => {
    const run = serve('--port', '70000');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--port must be a port number (0-65535), not 70000.');
  });
});
