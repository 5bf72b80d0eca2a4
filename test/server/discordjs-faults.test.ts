// @vitest-environment node
/**
 * Faults on demand meet a real bot library: discord.js 14 against the server, each fault
 * injected through `POST /sandbox/faults` while the bot runs. It waits out a 429's `retry_after`
 * and sends the message once, retries a 502, resumes after RECONNECT without missing an event,
 * identifies again after a non-resumable INVALID_SESSION, and notices a zombie connection (no
 * heartbeat ACK) and resumes. Each test prints how long the bot took to be back to normal
 * (docs/faults.md keeps the figures). The server asks for a heartbeat every 5 s
 * (`serve --heartbeat-interval`), so a zombie connection is noticed in seconds.
 */
import { Client, Events, GatewayIntentBits, type Message, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_FLAGS } from '../../src/store/records/core';
import { GATEWAY_CLOSE_CODES } from '../../src/gateway/protocol';
import { GATEWAY_HEARTBEAT_TIMEOUT_FACTOR } from '../../src/platform/core/limits';
import { connectWire } from './gateway-client';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

/** Hello's heartbeat interval on this file's server. */
const HEARTBEAT_MS = 5_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ heartbeatIntervalMs: HEARTBEAT_MS });
});
afterAll(() => server?.stop());

const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent];

describe('serve --heartbeat-interval', () => {
  it("Hello's heartbeat_interval is the server's, and a client that stops heartbeating is closed 4009 after 1.5 intervals", async () => {
    const base = freshSandbox(server.url);
    const wire = await connectWire(`${base.replace(/^http/, 'ws')}/gateway?v=10&encoding=json`);
    expect(wire.received[0]).toMatchObject({ op: 10, d: { heartbeat_interval: HEARTBEAT_MS } });
    // One heartbeat, then silence: the deadline runs from the heartbeat its ACK answered.
    wire.send({ op: 1, d: null });
    await wire.waitFor((p) => p.op === 11);
    const acknowledged = performance.now();
    // `ws` reports the close once the server ended the TCP connection, which it does at once.
    const closed = await wire.closed;
    const silentFor = performance.now() - acknowledged;
    expect(closed.code).toBe(GATEWAY_CLOSE_CODES.SESSION_TIMED_OUT);
    const deadline = HEARTBEAT_MS * GATEWAY_HEARTBEAT_TIMEOUT_FACTOR;
    expect(silentFor).toBeGreaterThanOrEqual(deadline - 250);
    expect(silentFor).toBeLessThan(deadline + 5_000);
  });

  it('refuses an interval out of 1000..600000 ms before it starts anything', async () => {
    for (const heartbeatIntervalMs of [999, 600_001, 1500.5, Number.NaN])
      await expect(startTestServer({ heartbeatIntervalMs })).rejects.toThrow(/heartbeatIntervalMs/);
  });
});

/** A sandbox with alice, her guild, and a logged-in discord.js bot in it. */
async function botWorld() {
  const api = sandboxClient(freshSandbox(server.url));
  const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
  const created = (
    await api.post('/sandbox/applications', {
      name: 'Survivor',
      owner_id: alice.id,
      flags: APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED,
    })
  ).body;
  const guild = (await api.post('/sandbox/guilds', { name: 'Faults', owner_id: alice.id })).body;
  await api.put(`/sandbox/guilds/${guild.guild.id}/members/${created.bot.id}`, {});
  const token = (
    await api.post('/sandbox/tokens', {
      application_id: created.application.id,
      user_id: alice.id,
      scopes: 'openid sdk.social_layer messages.read messages.write',
    })
  ).body;
  const general = guild.channels.find((c: { name: string }) => c.name === 'general');
  const client = new Client({ intents: INTENTS, rest: { api: `${api.base}/api` } });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(created.bot_token);
  await ready;
  const aliceAuth = `Bearer ${token.access_token}`;
  const say = (content: string) =>
    api.post(`/api/v10/channels/${general.id}/messages`, { content }, aliceAuth).then((r) => r.body);
  const read = async () =>
    (await api.get(`/api/v10/channels/${general.id}/messages?limit=50`, aliceAuth)).body as { content: string }[];
  const channel = client.channels.cache.get(general.id) as TextChannel;
  return { api, client, channel, botId: created.bot.id as string, say, read };
}

/** The next message the client sees with this content. */
function heard(client: Client, content: string): Promise<Message> {
  return new Promise((resolve) => {
    const listener = (message: Message) => {
      if (message.content !== content) return;
      client.off(Events.MessageCreate, listener);
      resolve(message);
    };
    client.on(Events.MessageCreate, listener);
  });
}

/** Resolves with the time from `since` when `event` fires on the client. */
function after(client: Client, event: Events.ShardResume | Events.ShardReady, since: number): Promise<number> {
  return new Promise((resolve) => client.once(event, () => resolve(performance.now() - since)));
}

/** Prints a figure for the docs. */
const figure = (fault: string, ms: number) => console.log(`figure: discord.js ${fault}: ${Math.round(ms)} ms`);

describe('discord.js 14 survives faults on demand', () => {
  it('a 429 on a message send: it waits retry_after and the message is sent once', async () => {
    const w = await botWorld();
    try {
      const fault = { type: 'http_error', method: 'POST', path: '/api/v10/channels/*/messages', status: 429 };
      expect((await w.api.post('/sandbox/faults', { ...fault, retry_after: 0.5 })).status).toBe(201);
      const started = performance.now();
      await w.channel.send('after a 429');
      const took = performance.now() - started;
      figure('429 on send', took);
      expect(took).toBeGreaterThanOrEqual(500);
      expect((await w.read()).filter((m) => m.content === 'after a 429')).toHaveLength(1);
      expect((await w.api.get('/sandbox/faults')).body.pending).toEqual([]);
    } finally {
      await w.client.destroy();
    }
  });

  it('a 502 on a REST call: it retries and the message is sent once', async () => {
    const w = await botWorld();
    try {
      await w.api.post('/sandbox/faults', { type: 'http_error', path: '/api/v10/channels/*/messages', status: 502 });
      const started = performance.now();
      await w.channel.send('after a 502');
      figure('502 on send', performance.now() - started);
      expect((await w.read()).filter((m) => m.content === 'after a 502')).toHaveLength(1);
    } finally {
      await w.client.destroy();
    }
  });

  it('RECONNECT (op 7): it resumes and misses no event sent meanwhile', async () => {
    const w = await botWorld();
    try {
      const started = performance.now();
      const resumed = after(w.client, Events.ShardResume, started);
      const missed = heard(w.client, 'sent while reconnecting');
      await w.api.post('/sandbox/faults', { type: 'reconnect', user_id: w.botId });
      await w.say('sent while reconnecting');
      figure('RECONNECT', await resumed);
      expect((await missed).content).toBe('sent while reconnecting');
    } finally {
      await w.client.destroy();
    }
  });

  it('INVALID_SESSION not resumable (op 9 false): it identifies again and hears what follows', async () => {
    const w = await botWorld();
    try {
      const started = performance.now();
      const ready = after(w.client, Events.ShardReady, started);
      await w.api.post('/sandbox/faults', { type: 'invalid_session', resumable: false });
      figure('INVALID_SESSION (not resumable)', await ready);
      const next = heard(w.client, 'after the new session');
      await w.say('after the new session');
      expect((await next).content).toBe('after the new session');
    } finally {
      await w.client.destroy();
    }
  });

  it(
    'a zombie connection (no heartbeat ACK): it notices at its next heartbeat, reconnects and resumes',
    async () => {
      const w = await botWorld();
      try {
        const started = performance.now();
        const resumed = after(w.client, Events.ShardResume, started);
        await w.api.post('/sandbox/faults', { type: 'zombie' });
        const missed = heard(w.client, 'sent to a zombie');
        await w.say('sent to a zombie');
        figure('zombie connection', await resumed);
        expect((await missed).content).toBe('sent to a zombie');
      } finally {
        await w.client.destroy();
      }
    },
    HEARTBEAT_MS * 6,
  );
});
