// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { ON_SERVER } from '../app-harness';
import { createGatewayHarness, type GatewayHarness } from './gateway-harness';

/** A bot session with its guild, READY and GUILD_CREATE received. */
async function botSession(h: GatewayHarness) {
  const { guild } = await h.guildWithBot();
  const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
  await bot.waitForDispatch('GUILD_CREATE');
  return { guild, bot, sessionId: bot.ready.session_id as string };
}

const heartbeat = (seq: number | null) => ({ op: 1, d: seq });

describe('gateway faults on demand (POST /sandbox/faults)', () => {
  it('reconnect: RECONNECT (op 7) then a resumable close; a Resume replays what was missed', async () => {
    const h = await createGatewayHarness();
    const { guild, bot, sessionId } = await botSession(h);
    expect((await h.api.post('/sandbox/faults', { type: 'reconnect', session_id: sessionId })).status).toBe(201);
    await bot.waitFor((p) => p.op === 7);
    expect((await bot.waitForClose()).code).toBe(4000);
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'missed', type: 0 });
    const again = h.connect();
    again.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 2 } });
    await again.waitForDispatch('RESUMED');
    expect(again.dispatches('CHANNEL_CREATE').map((p) => p.d.name)).toEqual(['missed']);
  });

  it('invalid_session not resumable: op 9 false, the session is gone and a Resume is refused, Identify works', async () => {
    const h = await createGatewayHarness();
    const { bot, sessionId } = await botSession(h);
    await h.api.post('/sandbox/faults', { type: 'invalid_session', user_id: h.world.bot.id });
    expect((await bot.waitFor((p) => p.op === 9)).d).toBe(false);
    const resume = h.connect();
    resume.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 2 } });
    expect((await resume.waitFor((p) => p.op === 9)).d).toBe(false);
    // Invalid Session leaves the connection open for a new Identify.
    bot.send({ op: 2, d: { token: h.world.botAuth, intents: INTENTS.GUILDS, properties: {} } });
    await bot.waitFor((p) => p.t === 'READY' && p.d.session_id !== sessionId);
  });

  it('invalid_session resumable: op 9 true, and the session can be resumed', async () => {
    const h = await createGatewayHarness();
    const { guild, bot, sessionId } = await botSession(h);
    await h.api.post('/sandbox/faults', {
      type: 'invalid_session',
      resumable: true,
      application_id: h.world.application.id,
    });
    expect((await bot.waitFor((p) => p.op === 9)).d).toBe(true);
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'while-away', type: 0 });
    bot.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 2 } });
    await bot.waitForDispatch('RESUMED');
    expect(bot.dispatches('CHANNEL_CREATE').map((p) => p.d.name)).toEqual(['while-away']);
  });

  it('zombie: heartbeats are no longer acknowledged on the connections it reached; a new connection is healthy', async () => {
    const h = await createGatewayHarness();
    const { bot } = await botSession(h);
    bot.send(heartbeat(2));
    await bot.waitFor((p) => p.op === 11);
    await h.api.post('/sandbox/faults', { type: 'zombie' });
    // (On a server the harness's flush waits for heartbeat ACKs, which a zombie never sends.)
    if (!ON_SERVER) await h.flush();
    const before = bot.received.length;
    bot.send(heartbeat(2));
    const other = h.connect();
    other.send(heartbeat(null));
    await other.waitFor((p) => p.op === 11);
    await new Promise((resolve) => setTimeout(resolve, ON_SERVER ? 300 : 20));
    expect(bot.received.slice(before).filter((p) => p.op === 11)).toEqual([]);
    expect(bot.closed).toBeNull();
  });

  it('close: the connection is closed with the chosen code', async () => {
    const h = await createGatewayHarness();
    const { bot } = await botSession(h);
    await h.api.post('/sandbox/faults', { type: 'close', code: 4009 });
    await h.flush();
    expect((await bot.waitForClose()).code).toBe(4009);
  });

  it('a fault for another user leaves the session alone', async () => {
    const h = await createGatewayHarness();
    const { bot } = await botSession(h);
    await h.api.post('/sandbox/faults', { type: 'close', code: 4000, user_id: h.world.alice.id });
    await h.flush();
    bot.send(heartbeat(2));
    await bot.waitFor((p) => p.op === 11);
    expect(bot.closed).toBeNull();
  });

  it('hold_dispatches: dispatches wait for the hold, then arrive in order', async () => {
    const h = await createGatewayHarness();
    const { guild, bot } = await botSession(h);
    await h.api.post('/sandbox/faults', { type: 'hold_dispatches', duration_ms: 400 });
    await h.flush();
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'one', type: 0 });
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'two', type: 0 });
    await h.flush();
    expect(bot.dispatches('CHANNEL_CREATE')).toEqual([]);
    // The hold runs on the gateway's timers: real ones on a server, the test's own in process.
    if (ON_SERVER) await new Promise((resolve) => setTimeout(resolve, 500));
    else h.timers.advance(400);
    const created = await bot.waitFor((p) => p.t === 'CHANNEL_CREATE' && p.d.name === 'two');
    expect(bot.dispatches('CHANNEL_CREATE').map((p) => [p.s, p.d.name])).toEqual([
      [created.s! - 1, 'one'],
      [created.s, 'two'],
    ]);
  });
});
