// @vitest-environment node
/**
 * An idle sandbox hibernates: its clients stay connected but silent, no timer is pending (the
 * heartbeat deadlines wait behind the object's alarm), and workerd evicts its Durable Object
 * after ten seconds without an event. Observed through the test hooks: the sandbox's
 * incarnation (a random id each start of the object) changes, and the sockets the evicted
 * object held are told to resume (op 7, then 4000) as soon as the sandbox is used again.
 * Every client, raw WebSocket clients and discord.js, resumes and gets each message once, in
 * order. The server asks for a heartbeat every 40 s, so that the bot's heartbeats leave the
 * object quiet windows longer than workerd's ten seconds.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_FLAGS } from '../../src/store/records/core';
import { WEBHOOK_RETRY_BASE_MS } from '../../src/platform/core/limits';
import { GATEWAY_CLOSE_CODES } from '../../src/gateway/protocol';
import { nodeVerify } from '../unit/sw/webhook-fixtures';
import { connectWire, identifyWire, type WireClient } from './gateway-client';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

/** Hello's heartbeat interval on this file's server. */
const HEARTBEAT_MS = 40_000;
/** workerd evicts an object after ten seconds without an event; a little more, to be sure. */
const QUIET_MS = 12_000;
/** GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT. */
const INTENTS = (1 << 0) | (1 << 9) | (1 << 15);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ heartbeatIntervalMs: HEARTBEAT_MS, testHooks: true });
});
afterAll(() => server?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sandbox with a guild, three bots in it, and a way to post in its channel. */
async function guildWorld() {
  const api = sandboxClient(freshSandbox(server.url));
  const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
  const guild = (await api.post('/sandbox/guilds', { name: 'Idle', owner_id: alice.id })).body;
  const bots: string[] = [];
  for (const name of ['First', 'Second', 'Third']) {
    const created = (
      await api.post('/sandbox/applications', {
        name,
        owner_id: alice.id,
        flags: APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED,
      })
    ).body;
    await api.put(`/sandbox/guilds/${guild.guild.id}/members/${created.bot.id}`, {});
    bots.push(created.bot_token);
  }
  const channel = guild.channels.find((c: { name: string }) => c.name === 'general').id as string;
  const say = async (content: string) => {
    const sent = await api.post(`/api/v10/channels/${channel}/messages`, { content }, `Bot ${bots[0]}`);
    expect(sent.status).toBe(200);
  };
  const incarnation = async () => (await api.post('/__platformpp-test/incarnation')).body.incarnation as string;
  return { api, bots, channel, say, incarnation };
}

/**
 * A raw gateway client that resumes on its own: on op 7 and the close that follows, it opens
 * READY's `resume_gateway_url` and sends Resume with the last sequence number it saw. It keeps
 * every dispatch of every connection, in arrival order.
 */
async function resumingWire(gatewayUrl: string, token: string) {
  const first = await identifyWire(gatewayUrl, token, { intents: INTENTS });
  const dispatches: { s: number; t: string; d: any }[] = [];
  const told: number[] = [];
  let wire: WireClient = first;
  let lastActivity = performance.now();
  const follow = (client: WireClient) => {
    client.socket.on('message', (data) => {
      lastActivity = performance.now();
      const payload = JSON.parse(String(data));
      if (payload.op === 0) dispatches.push(payload);
      if (payload.op === 7) told.push(7);
    });
  };
  // READY arrived before `follow`: it is the first dispatch.
  dispatches.push(...first.received.filter((p) => p.op === 0));
  follow(first);
  const resumed = (async () => {
    const closed = await first.closed;
    const lastSeq = dispatches.at(-1)!.s;
    const next = await connectWire(`${first.ready.resume_gateway_url}?v=10&encoding=json`);
    follow(next);
    next.send({ op: 6, d: { token, session_id: first.ready.session_id, seq: lastSeq } });
    await next.waitForDispatch('RESUMED');
    wire = next;
    return closed;
  })();
  return {
    dispatches,
    told,
    resumed,
    get lastActivity() {
      return lastActivity;
    },
    /** The MESSAGE_CREATE contents, in arrival order. */
    messages: () => dispatches.filter((p) => p.t === 'MESSAGE_CREATE').map((p) => p.d.content as string),
    close: () => wire.socket.terminate(),
  };
}

describe('an idle sandbox hibernates', () => {
  it(
    'an idle sandbox whose clients are connected but silent lets its object be evicted, and every client resumes with no event lost or doubled',
    async () => {
      const w = await guildWorld();
      const gatewayUrl = `${w.api.base.replace(/^http/, 'ws')}/gateway?v=10&encoding=json`;
      const raw = [await resumingWire(gatewayUrl, w.bots[1]), await resumingWire(gatewayUrl, w.bots[2])];
      const bot = new Client({
        intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
        rest: { api: `${w.api.base}/api` },
      });
      const heard: string[] = [];
      let botActivity = performance.now();
      let botResumed = 0;
      bot.on(Events.MessageCreate, (message) => heard.push(message.content));
      bot.on(Events.Debug, () => (botActivity = performance.now()));
      bot.on(Events.Raw, () => (botActivity = performance.now()));
      bot.on(Events.ShardResume, () => (botResumed += 1));
      const ready = new Promise<void>((resolve) => bot.once(Events.ClientReady, () => resolve()));
      await bot.login(w.bots[0]);
      await ready;
      try {
        await w.say('before');
        while (heard.length < 1 || raw.some((c) => c.messages().length < 1)) await sleep(20);
        const before = await w.incarnation();

        // Silence: no request, no payload from any client, for longer than workerd waits. The
        // bot heartbeats on its own time (a random first wait, then every 40 s): the quiet
        // window is measured from the last thing any client sent or received.
        const lastActivity = () => Math.max(botActivity, ...raw.map((c) => c.lastActivity));
        for (let quiet = 0; quiet < QUIET_MS; quiet = performance.now() - lastActivity()) await sleep(QUIET_MS - quiet);

        // Used again: the message is written by the object's next start, which tells every
        // socket of the evicted one to resume; the clients get it by their Resume's replay.
        await w.say('during');
        const raws = await Promise.all(raw.map((c) => c.resumed));
        for (const closed of raws) expect(closed.code).toBe(GATEWAY_CLOSE_CODES.UNKNOWN_ERROR);
        for (const client of raw) expect(client.told).toEqual([7]);
        const after = await w.incarnation();
        expect(after).not.toBe(before);
        while (botResumed < 1) await sleep(20);

        await w.say('after');
        const expected = ['before', 'during', 'after'];
        while (heard.length < 3 || raw.some((c) => c.messages().length < 3)) await sleep(20);
        await sleep(200);
        expect(heard).toEqual(expected);
        for (const client of raw) {
          expect(client.messages()).toEqual(expected);
          // Sequence numbers go on across the resume: none twice, none skipped.
          const seqs = client.dispatches.map((p) => p.s);
          expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
        }
        expect(botResumed).toBe(1);
      } finally {
        await bot.destroy();
        for (const client of raw) client.close();
      }
    },
    HEARTBEAT_MS * 2,
  );
});

describe('the object alarm after an eviction', () => {
  it(
    'a webhook retry that falls due while the object is evicted is sent by the alarm, which opens the sandbox again',
    async () => {
      // The endpoint: a PING is answered, the first event fails, the retry is taken.
      const events: { at: number; body: string }[] = [];
      let verifyKey = '';
      const endpoint = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => (body += chunk));
        request.on('end', () => {
          const signature = request.headers['x-signature-ed25519'] as string | undefined;
          const timestamp = request.headers['x-signature-timestamp'] as string | undefined;
          if (!nodeVerify(verifyKey, signature ?? null, timestamp ?? null, body)) return response.writeHead(401).end();
          const payload = JSON.parse(body);
          if (payload.type === 1) events.push({ at: performance.now(), body });
          response.writeHead(payload.type === 1 && events.length === 1 ? 500 : 204).end();
        });
      });
      await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
      try {
        const api = sandboxClient(freshSandbox(server.url));
        const owner = (await api.post('/sandbox/users', { username: 'owner' })).body.user;
        const app = (await api.post('/sandbox/applications', { name: 'Hooked', owner_id: owner.id })).body.application;
        verifyKey = (await api.get(`/sandbox/applications/${app.id}/event-webhooks`)).body.verify_key;
        const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hook`;
        const enabled = await api.put(`/sandbox/applications/${app.id}/event-webhooks`, {
          url,
          types: ['APPLICATION_AUTHORIZED'],
          enabled: true,
        });
        expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
        const carol = (await api.post('/sandbox/users', { username: 'carol' })).body.user;
        const query = new URLSearchParams({
          response_type: 'code',
          client_id: app.id,
          scope: 'identify',
          integration_type: '1',
        });
        expect((await api.post(`/oauth2/authorize?${query}`, { authorize: true, user_id: carol.id })).status).toBe(200);
        while (events.length < 1) await sleep(20);
        const before = (await api.post('/__platformpp-test/incarnation')).body.incarnation;
        // Nothing else reaches the sandbox: it is evicted before the retry falls due.
        while (events.length < 2) await sleep(100);
        expect(events[1].body).toBe(events[0].body);
        expect(events[1].at - events[0].at).toBeGreaterThanOrEqual(WEBHOOK_RETRY_BASE_MS - 1_000);
        expect((await api.post('/__platformpp-test/incarnation')).body.incarnation).not.toBe(before);
      } finally {
        endpoint.close();
      }
    },
    WEBHOOK_RETRY_BASE_MS * 3,
  );
});
