// @vitest-environment node
/**
 * Durability of the server with `--persist`: the `platformpp-web serve` process (and its
 * workerd) killed outright in the middle of a stream of writes loses no write it acknowledged,
 * and a gateway session resumed on the restarted server gets, from the durable log, what was
 * committed while it was away.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { connectWire, identifyWire } from './gateway-client';
import { sandboxClient } from './server-harness';

const CLI = new URL('../../bin/platformpp-web.js', import.meta.url).pathname;
const started: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) killGroup(child);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `platformpp-web serve` in a process group of its own; resolves once it printed its URL. */
async function serve(port: number, persist: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--persist', persist], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The tests' own build of the Worker.
    env: { ...process.env, PLATFORMPP_WORKER: inject('serverWorkerPath') },
  });
  started.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const found = /platformpp server: (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]);
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${output}`)));
  });
  return { child, url };
}

/** SIGKILL to the whole process group: the CLI and the workerd it started, with no chance to flush. */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.on('exit', () => resolve()),
  );

describe('server durability (--persist)', () => {
  it('killing the server process mid-write loses no acknowledged write', async () => {
    const persist = mkdtempSync(join(tmpdir(), 'platformpp-persist-'));
    dirs.push(persist);
    const port = await freePort();
    const first = await serve(port, persist);
    const api = sandboxClient(first.url);
    const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
    const app = (await api.post('/sandbox/applications', { name: 'Game', owner_id: alice.id })).body;
    const token = (
      await api.post('/sandbox/tokens', {
        application_id: app.application.id,
        user_id: alice.id,
        scopes: 'openid sdk.social_layer lobbies.write',
      })
    ).body;
    const auth = `Bearer ${token.access_token}`;
    const lobby = (await api.put('/api/v10/lobbies', { secret: 'kill-test' }, auth)).body;
    const acknowledged: string[] = [];
    let stop = false;
    // Four writers in parallel; the kill lands while requests are in flight.
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const content = `w${n}-${i}`;
        try {
          const reply = await api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content }, auth);
          if (reply.status === 201) acknowledged.push(content);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 5));
    killGroup(first.child);
    stop = true;
    await Promise.all(writers);
    await exited(first.child);

    const second = await serve(port, persist);
    const again = sandboxClient(second.url);
    const stored = await again.get(`/api/v10/lobbies/${lobby.id}/messages?limit=200`, auth);
    expect(stored.status).toBe(200);
    const contents = new Set((stored.body as { content: string }[]).map((m) => m.content));
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    // Every acknowledged message is within the 200 the read returns.
    expect(acknowledged.length).toBeLessThan(200);
    expect(acknowledged.filter((c) => !contents.has(c))).toEqual([]);
  });

  it('a session resumed on the restarted server gets what was committed while it was away, from the durable log', async () => {
    const persist = mkdtempSync(join(tmpdir(), 'platformpp-persist-'));
    dirs.push(persist);
    const port = await freePort();
    const first = await serve(port, persist);
    const api = sandboxClient(first.url);
    const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
    const app = (await api.post('/sandbox/applications', { name: 'Game', owner_id: alice.id })).body;
    const guild = (await api.post('/sandbox/guilds', { name: 'Guild', owner_id: alice.id })).body;
    await api.put(`/sandbox/guilds/${guild.guild.id}/members/${app.bot.id}`, {});
    const url = (await api.get('/api/v10/gateway')).body.url;
    const bot = await identifyWire(`${url}?v=10&encoding=json`, app.bot_token, { intents: 1 });
    const created = await bot.waitForDispatch('GUILD_CREATE');
    killGroup(first.child);
    expect((await bot.closed).code).toBe(1006);
    await exited(first.child);

    const second = await serve(port, persist);
    // Committed while no gateway connection was open: only the log holds it for the session.
    await sandboxClient(second.url).post(`/sandbox/guilds/${guild.guild.id}/channels`, { name: 'missed', type: 0 });
    const client = await connectWire(`${bot.ready.resume_gateway_url}?v=10&encoding=json`);
    client.send({ op: 6, d: { token: app.bot_token, session_id: bot.ready.session_id, seq: created.s } });
    const replayed = await client.waitForDispatch('CHANNEL_CREATE');
    expect(replayed.d.name).toBe('missed');
    expect(replayed.s).toBe(created.s + 1);
    await client.waitForDispatch('RESUMED');
    client.socket.close(1000);
  });
});
