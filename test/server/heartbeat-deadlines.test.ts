// @vitest-environment node
/**
 * Heartbeat deadlines without a timer per connection: the server keeps each socket's deadline in
 * its hibernation attachment and wakes on the object's alarm, so the 4009 close after 1.5
 * intervals without a heartbeat comes even when the object was evicted meanwhile. And a close
 * the server starts ends the client's TCP connection at once: `ws` (and discord.js over it)
 * reports the close only when TCP ends, after its 30-second close timeout otherwise. The
 * server asks for a heartbeat every 10 s, so that a silent client's deadline (15 s) passes after
 * workerd evicted the idle object (ten seconds without an event).
 */
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_CLOSE_CODES } from '../../src/gateway/protocol';
import { GATEWAY_HEARTBEAT_TIMEOUT_FACTOR } from '../../src/platform/core/limits';
import { connectWire, identifyWire } from './gateway-client';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

/** Hello's heartbeat interval on this file's server. */
const HEARTBEAT_MS = 10_000;
const DEADLINE_MS = HEARTBEAT_MS * GATEWAY_HEARTBEAT_TIMEOUT_FACTOR;
/** Well under `ws`'s 30-second close timeout, which a TCP connection left open would wait out. */
const PROMPT_MS = 10_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ heartbeatIntervalMs: HEARTBEAT_MS, testHooks: true });
});
afterAll(() => server?.stop());

/** A fresh sandbox with a bot, and the sandbox's incarnation (a new id each start of its object). */
async function botSandbox() {
  const api = sandboxClient(freshSandbox(server.url));
  const owner = (await api.post('/sandbox/users', { username: 'owner' })).body.user;
  const created = (await api.post('/sandbox/applications', { name: 'Bot', owner_id: owner.id })).body;
  const incarnation = async () => (await api.post('/__platformpp-test/incarnation')).body.incarnation as string;
  const gatewayUrl = `${api.base.replace(/^http/, 'ws')}/gateway?v=10&encoding=json`;
  return { api, token: created.bot_token as string, botId: created.bot.id as string, incarnation, gatewayUrl };
}

describe('heartbeat deadlines on the object alarm', () => {
  it(
    'a client silent for 1.5 intervals is closed 4009 when its object was evicted meanwhile, and its TCP connection ends at once',
    async () => {
      const sandbox = await botSandbox();
      const before = await sandbox.incarnation();
      const wire = await identifyWire(sandbox.gatewayUrl, sandbox.token, { intents: 1 });
      // Identify is no heartbeat: the deadline runs from Hello.
      const hello = performance.now();
      const closed = await wire.closed;
      const silentFor = performance.now() - hello;
      expect(closed.code).toBe(GATEWAY_CLOSE_CODES.SESSION_TIMED_OUT);
      expect(silentFor).toBeGreaterThanOrEqual(DEADLINE_MS - 1_000);
      // `closed` is the TCP connection's end: within the margin, not at the close timeout.
      expect(silentFor).toBeLessThan(DEADLINE_MS + PROMPT_MS);
      // The object that closed it is not the one that accepted it.
      expect(await sandbox.incarnation()).not.toBe(before);
    },
    DEADLINE_MS + 30_000,
  );

  it(
    'a socket that never sent a payload is closed 4009 too, and its TCP connection ends before the close timeout',
    async () => {
      const sandbox = await botSandbox();
      const wire = await connectWire(sandbox.gatewayUrl);
      const hello = performance.now();
      const closed = await wire.closed;
      expect(closed.code).toBe(GATEWAY_CLOSE_CODES.SESSION_TIMED_OUT);
      // workerd keeps the TCP connection of a socket that never delivered a payload until it
      // evicts the object again (ten seconds idle): late, but before the client's own 30 s.
      expect(performance.now() - hello).toBeLessThan(DEADLINE_MS + 20_000);
    },
    DEADLINE_MS + 30_000,
  );
});

describe('a close the server starts ends the TCP connection', () => {
  it('a `close` fault: the raw client sees the close event well before its 30-second close timeout', async () => {
    const sandbox = await botSandbox();
    const wire = await identifyWire(sandbox.gatewayUrl, sandbox.token, { intents: 1 });
    const started = performance.now();
    expect((await sandbox.api.post('/sandbox/faults', { type: 'close', code: 4000 })).status).toBe(201);
    expect((await wire.closed).code).toBe(4000);
    expect(performance.now() - started).toBeLessThan(PROMPT_MS);
  });

  it('a `close` fault: discord.js resumes well before its 30-second close timeout', async () => {
    const sandbox = await botSandbox();
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${sandbox.api.base}/api` } });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(sandbox.token);
    await ready;
    try {
      const started = performance.now();
      const resumed = new Promise<number>((resolve) =>
        client.once(Events.ShardResume, () => resolve(performance.now() - started)),
      );
      await sandbox.api.post('/sandbox/faults', { type: 'close', code: 4000, user_id: sandbox.botId });
      const took = await resumed;
      console.log(`figure: discord.js close 4000: ${Math.round(took)} ms`);
      expect(took).toBeLessThan(PROMPT_MS);
    } finally {
      await client.destroy();
    }
  });
});
