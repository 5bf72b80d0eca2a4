// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { itInProcess } from '../app-harness';
import {
  GATEWAY_HEARTBEAT_INTERVAL_MS,
  GATEWAY_SEND_LIMIT,
  GATEWAY_SEND_WINDOW_MS,
} from '../../../src/platform/core/limits';
import { INTENTS } from '../../../src/platform/core/intents';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createGatewayHarness } from './gateway-harness';

const IDENTIFY_PROPS = { os: 'linux', browser: 'test', device: 'test' };

describe('gateway session state machine (CONTRACT §4)', () => {
  it('sends Hello with heartbeat_interval first, then READY and a GUILD_CREATE per guild after Identify', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot();
    const client = h.connect();
    expect(await client.waitFor(() => true)).toEqual({
      op: 10,
      d: { heartbeat_interval: GATEWAY_HEARTBEAT_INTERVAL_MS },
      s: null,
      t: null,
    });
    client.send({ op: 2, d: { token: h.world.botAuth, intents: INTENTS.GUILDS, properties: IDENTIFY_PROPS } });
    const ready = await client.waitForDispatch('READY');
    expect(ready.s).toBe(1);
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: h.world.bot.id, bot: true },
      guilds: [{ id: guild.id, unavailable: true }],
      resume_gateway_url: h.resumeGatewayUrl,
      application: { id: h.world.application.id, flags: 0 },
    });
    expect(ready.d.session_id).toMatch(/^[0-9a-f]{32}$/);
    const created = await client.waitForDispatch('GUILD_CREATE');
    expect(created).toMatchObject({ op: 0, s: 2, d: { id: guild.id, unavailable: false } });
    expect(created.d.channels.length).toBe(4);
  });

  it('accepts the bot token raw, with "Bot ", and a user OAuth2 token as "Bearer <access_token>"', async () => {
    const h = await createGatewayHarness();
    const raw = await h.identify(h.world.botAuth.slice('Bot '.length), { intents: 0 });
    expect(raw.ready.user.id).toBe(h.world.bot.id);
    const prefixed = await h.identify(h.world.botAuth, { intents: 0 });
    expect(prefixed.ready.user.id).toBe(h.world.bot.id);
    const user = await h.identify(h.world.aliceAuth);
    expect(user.ready.user.id).toBe(h.world.alice.id);
  });

  it('dispatches committed events in order with increasing s', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot();
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const from = bot.received.length;
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'one', type: 0 });
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'two', type: 0 });
    await bot.waitFor((p) => p.t === 'CHANNEL_CREATE' && p.d.name === 'two', from);
    const creates = bot.dispatches('CHANNEL_CREATE');
    expect(creates.map((p) => p.d.name)).toEqual(['one', 'two']);
    expect(creates[1].s).toBe(creates[0].s! + 1);
  });

  it('answers Heartbeat with Heartbeat ACK (op 11), also before Identify', async () => {
    const h = await createGatewayHarness();
    const client = h.connect();
    client.send({ op: 1, d: null });
    expect(await client.waitFor((p) => p.op === 11)).toEqual({ op: 11, d: null, s: null, t: null });
  });

  itInProcess(
    'closes a zombie connection (no heartbeat for 1.5 intervals) with 4009, and heartbeats keep it alive',
    async () => {
      const h = await createGatewayHarness();
      const client = h.connect();
      h.timers.advance(GATEWAY_HEARTBEAT_INTERVAL_MS);
      client.send({ op: 1, d: null });
      await client.waitFor((p) => p.op === 11);
      h.timers.advance(GATEWAY_HEARTBEAT_INTERVAL_MS * 1.4);
      expect(client.closed).toBeNull();
      h.timers.advance(GATEWAY_HEARTBEAT_INTERVAL_MS * 0.1);
      expect(client.closed?.code).toBe(4009);
    },
  );

  it('closes with 4001 for an unknown opcode', async () => {
    const h = await createGatewayHarness();
    const client = h.connect();
    client.send({ op: 5, d: null });
    expect((await client.waitForClose()).code).toBe(4001);
  });

  it('closes with 4002 for a payload that is not JSON, and for an invalid Identify', async () => {
    const h = await createGatewayHarness();
    const a = h.connect();
    a.sendRaw('{nope');
    expect((await a.waitForClose()).code).toBe(4002);
    const b = h.connect();
    b.send({ op: 2, d: { intents: 0 } });
    const closed = await b.waitForClose();
    expect(closed.code).toBe(4002);
    expect(closed.reason).toContain('token');
  });

  it('closes with 4002 for a payload over 4096 bytes, counted in UTF-8 bytes; 4096 bytes are accepted', async () => {
    const h = await createGatewayHarness();
    const payload = (fill: string) => JSON.stringify({ op: 1, d: null, pad: fill });
    const base = payload('').length;
    const fits = h.connect();
    fits.sendRaw(payload('x'.repeat(4096 - base)));
    await fits.waitFor((p) => p.op === 11);
    expect(fits.closed).toBeNull();
    const over = h.connect();
    // 1366 three-byte characters: 4098 bytes, under 4096 UTF-16 code units.
    over.sendRaw(payload('€'.repeat(Math.ceil((4097 - base) / 3))));
    const closed = await over.waitForClose();
    expect(closed.code).toBe(4002);
    expect(closed.reason).toContain('4096');
  });

  it('Identify properties are a dictionary: an array closes with 4002 naming d.properties', async () => {
    const h = await createGatewayHarness();
    const client = h.connect();
    client.send({ op: 2, d: { token: h.world.botAuth, intents: 0, properties: ['linux', 'pp'] } });
    const closed = await client.waitForClose();
    expect(closed.code).toBe(4002);
    expect(closed.reason).toContain('d.properties');
  });

  it('a close reason names the field, never the value sent, and fits a close frame (123 bytes)', async () => {
    const h = await createGatewayHarness();
    const client = h.connect();
    client.send({ op: 2, d: { token: h.world.botAuth, intents: 0, capabilities: h.world.botAuth } });
    const closed = await client.waitForClose();
    expect(closed.code).toBe(4002);
    expect(closed.reason).toContain('d.capabilities');
    expect(closed.reason).not.toContain(h.world.botAuth.slice(4));
    const long = await h.connect(`/gateway?v=${'9'.repeat(500)}`).waitForClose();
    expect(new TextEncoder().encode(long.reason).byteLength).toBeLessThanOrEqual(123);
  });

  it('closes with 4003 for a request before Identify', async () => {
    const h = await createGatewayHarness();
    const client = h.connect();
    client.send({ op: 8, d: { guild_id: '1', query: '', limit: 0 } });
    expect((await client.waitForClose()).code).toBe(4003);
  });

  it('closes with 4004 for an unknown token, and never echoes the token', async () => {
    const h = await createGatewayHarness();
    const client = h.connect();
    client.send({ op: 2, d: { token: 'Bot not.a.token', intents: 0, properties: IDENTIFY_PROPS } });
    const closed = await client.waitForClose();
    expect(closed.code).toBe(4004);
    expect(closed.reason).not.toContain('not.a.token');
  });

  it('closes with 4005 for a second Identify', async () => {
    const h = await createGatewayHarness();
    const bot = await h.identify(h.world.botAuth, { intents: 0 });
    bot.send({ op: 2, d: { token: h.world.botAuth, intents: 0, properties: IDENTIFY_PROPS } });
    expect((await bot.waitForClose()).code).toBe(4005);
  });

  itInProcess(
    'closes with 4008 when more than 120 payloads arrive within 60 s, and counts anew in the next window',
    async () => {
      const h = await createGatewayHarness();
      const fine = h.connect();
      for (let i = 0; i < GATEWAY_SEND_LIMIT; i++) fine.send({ op: 1, d: null });
      h.timers.advance(GATEWAY_SEND_WINDOW_MS);
      fine.send({ op: 1, d: null });
      expect(fine.closed).toBeNull();
      const flood = h.connect();
      for (let i = 0; i <= GATEWAY_SEND_LIMIT; i++) flood.send({ op: 1, d: null });
      expect(flood.closed?.code).toBe(4008);
    },
  );

  it('closes with 4012 for an API version other than 10 or 9, and 4002 for an encoding other than json', async () => {
    const h = await createGatewayHarness();
    expect((await h.connect('/gateway?v=8&encoding=json').waitForClose()).code).toBe(4012);
    const nine = h.connect('/gateway?v=9&encoding=json');
    await nine.waitFor((p) => p.op === 10);
    expect(nine.closed).toBeNull();
    expect((await h.connect('/gateway?v=10&encoding=etf').waitForClose()).code).toBe(4002);
  });

  it('closes with 4013 for invalid intent bits, and for a bot that sends no intents', async () => {
    const h = await createGatewayHarness();
    for (const intents of [1 << 30, -1, 'x', undefined]) {
      const client = h.connect();
      client.send({ op: 2, d: { token: h.world.botAuth, intents, properties: IDENTIFY_PROPS } });
      expect((await client.waitForClose()).code).toBe(4013);
    }
  });

  it('closes with 4014 for a privileged intent the application was not granted', async () => {
    const h = await createGatewayHarness();
    for (const intents of [INTENTS.GUILD_MEMBERS, INTENTS.GUILD_PRESENCES, INTENTS.MESSAGE_CONTENT]) {
      const client = h.connect();
      client.send({ op: 2, d: { token: h.world.botAuth, intents, properties: IDENTIFY_PROPS } });
      expect((await client.waitForClose()).code).toBe(4014);
    }
    await h.updateApplication({ flags: String(APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED) });
    const granted = await h.identify(h.world.botAuth, { intents: INTENTS.GUILD_MEMBERS });
    expect(granted.ready.session_id).toBeTypeOf('string');
  });

  it('closes with 4010 for an invalid shard', async () => {
    const h = await createGatewayHarness();
    const client = h.connect();
    client.send({ op: 2, d: { token: h.world.botAuth, intents: 0, shard: [2, 2], properties: IDENTIFY_PROPS } });
    expect((await client.waitForClose()).code).toBe(4010);
  });

  it('accepts Presence Update and Voice State Update once identified', async () => {
    const h = await createGatewayHarness();
    const bot = await h.identify(h.world.botAuth, { intents: 0 });
    bot.send({ op: 3, d: { since: null, activities: [], status: 'online', afk: false } });
    bot.send({ op: 4, d: { guild_id: '1', channel_id: null, self_mute: false, self_deaf: false } });
    bot.send({ op: 1, d: bot.ready ? 1 : null });
    await bot.waitFor((p) => p.op === 11);
    expect(bot.closed).toBeNull();
  });

  itInProcess('sends Reconnect (op 7) when asked to, and the session can be resumed', async () => {
    const h = await createGatewayHarness();
    const bot = await h.identify(h.world.botAuth, { intents: 0 });
    h.gateway.reconnectAll();
    expect(bot.received.at(-1)).toEqual({ op: 7, d: null, s: null, t: null });
    expect(bot.closed?.code).toBe(4000);
    const again = h.connect();
    again.send({ op: 6, d: { token: h.world.botAuth, session_id: bot.ready.session_id, seq: 1 } });
    await again.waitForDispatch('RESUMED');
  });
});
