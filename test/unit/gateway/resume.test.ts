// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { itInProcess } from '../app-harness';
import { GATEWAY_HEARTBEAT_INTERVAL_MS, GATEWAY_RESUME_ANCHOR_EVERY } from '../../../src/platform/core/limits';
import { keyRange } from '../../../src/store/port';
import { INTENTS } from '../../../src/platform/core/intents';
import { createGatewayHarness, type GatewayHarness } from './gateway-harness';
import { findResumePoint } from '../../../src/gateway/resume-marks';

/** A bot session with a guild, READY (s 1) and GUILD_CREATE (s 2) received. */
async function session(h: GatewayHarness) {
  const { guild } = await h.guildWithBot();
  const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
  await bot.waitForDispatch('GUILD_CREATE');
  return { guild, bot, sessionId: bot.ready.session_id as string };
}

describe('Resume (opcode 6) replays from the durable event log', () => {
  it('replays every event the session may see after seq, in order, then RESUMED', async () => {
    const h = await createGatewayHarness();
    const { guild, bot, sessionId } = await session(h);
    bot.disconnect(4000);
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'a', type: 0 });
    await h.api.post(`/sandbox/users`, { username: 'carol' });
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'b', type: 0 });
    await h.flush();
    const again = h.connect();
    again.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 2 } });
    await again.waitForDispatch('RESUMED');
    expect(again.dispatches().map((p) => [p.s, p.t, p.d.name])).toEqual([
      [3, 'CHANNEL_CREATE', 'a'],
      [4, 'CHANNEL_CREATE', 'b'],
      [5, 'RESUMED', undefined],
    ]);
  });

  itInProcess(
    'loses no event when the shared worker restarted in between (the session lives in IndexedDB)',
    async () => {
      const h = await createGatewayHarness();
      const { guild, bot, sessionId } = await session(h);
      await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'live', type: 0 });
      const live = await bot.waitForDispatch('CHANNEL_CREATE');
      bot.disconnect(4000);
      await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'missed', type: 0 });
      const restarted = await h.restartedGateway();
      const again = h.connect(undefined, restarted);
      again.send({ op: 6, d: { token: h.world.botAuth.replace('Bot ', ''), session_id: sessionId, seq: live.s } });
      await again.waitForDispatch('RESUMED');
      expect(again.dispatches().map((p) => [p.s, p.t, p.d.name])).toEqual([
        [live.s! + 1, 'CHANNEL_CREATE', 'missed'],
        [live.s! + 2, 'RESUMED', undefined],
      ]);
      // And it keeps dispatching live on the new gateway.
      await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'after', type: 0 });
      await restarted.announce({ type: 'events', seq: 0 });
      expect((await again.waitFor((p) => p.d?.name === 'after')).s).toBe(live.s! + 3);
    },
  );

  itInProcess(
    `finds, after the shared worker restarted, a point many batches after the session's last index entry (one every ${GATEWAY_RESUME_ANCHOR_EVERY} batches)`,
    async () => {
      const h = await createGatewayHarness();
      const { guild, bot, sessionId } = await session(h);
      const count = GATEWAY_RESUME_ANCHOR_EVERY + 5;
      const sent: number[] = [];
      for (let i = 0; i < count; i++) {
        await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: `c${i}`, type: 0 });
        sent.push((await bot.waitFor((p) => p.d?.name === `c${i}`)).s!);
      }
      // One dispatch per batch: the session's part is keyed in the index every so many of them only.
      const anchors = await h.ctx.db.countFromIndex(
        'gateway_resume_batches',
        'by_session_point',
        keyRange.bound([sessionId, -Infinity], [sessionId, Infinity]),
      );
      expect(anchors).toBeLessThanOrEqual(3);
      bot.disconnect(4000);
      const restarted = await h.restartedGateway();
      const from = GATEWAY_RESUME_ANCHOR_EVERY + 2;
      const again = h.connect(undefined, restarted);
      again.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: sent[from] } });
      await again.waitForDispatch('RESUMED');
      expect(again.dispatches().map((p) => [p.s, p.d.name])).toEqual([
        ...sent.slice(from + 1).map((s, i) => [s, `c${from + 1 + i}`]),
        [sent[count - 1] + 1, undefined],
      ]);
    },
  );

  it('replays again what a client sent a lower seq for (it missed those dispatches)', async () => {
    const h = await createGatewayHarness();
    const { guild, bot, sessionId } = await session(h);
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'a', type: 0 });
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'b', type: 0 });
    await bot.waitFor((p) => p.d?.name === 'b');
    bot.disconnect(4000);
    const again = h.connect();
    again.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 3 } });
    await again.waitForDispatch('RESUMED');
    expect(again.dispatches().map((p) => [p.s, p.d.name])).toEqual([
      [4, 'b'],
      [5, undefined],
    ]);
  });

  itInProcess(
    "keeps one resume point per dispatch from the last heartbeat's seq on; a Resume from before it gets Invalid Session",
    async () => {
      const h = await createGatewayHarness();
      const { guild, bot, sessionId } = await session(h);
      for (const name of ['a', 'b', 'c']) await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name, type: 0 });
      await bot.waitFor((p) => p.d?.name === 'c');
      bot.send({ op: 1, d: 4 });
      await bot.waitFor((p) => p.op === 11);
      await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'd', type: 0 });
      await bot.waitFor((p) => p.d?.name === 'd');
      const usable = [];
      for (let s = 1; s <= 6; s++) if ((await findResumePoint(h.ctx.db, sessionId, s)).mark) usable.push(s);
      expect(usable).toEqual([4, 5, 6]);
      bot.disconnect(4000);

      const early = h.connect();
      early.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 3 } });
      expect((await early.waitFor((p) => p.op === 9)).d).toBe(false);
      const again = h.connect();
      again.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 4 } });
      await again.waitForDispatch('RESUMED');
      expect(again.dispatches().map((p) => [p.s, p.d.name])).toEqual([
        [5, 'c'],
        [6, 'd'],
        [7, undefined],
      ]);
    },
  );

  itInProcess(
    'a Resume from an earlier seq numbers the rest again: the resume points of the old numbering are gone',
    async () => {
      const h = await createGatewayHarness();
      const { guild, bot, sessionId } = await session(h);
      await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'a', type: 0 });
      await bot.waitFor((p) => p.d?.name === 'a');
      // Two answers (s 4, 5) are numbered but never replayed: they are no events of the log.
      for (let i = 0; i < 2; i++) bot.send({ op: 43, d: { guild_id: guild.id, fields: ['status'] } });
      await bot.waitFor((p) => p.t === 'CHANNEL_INFO' && p.s === 5);
      await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'b', type: 0 });
      expect((await bot.waitFor((p) => p.d?.name === 'b')).s).toBe(6);
      bot.disconnect(4000);

      const again = h.connect();
      again.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 3 } });
      await again.waitForDispatch('RESUMED');
      expect(again.dispatches().map((p) => [p.s, p.t, p.d.name])).toEqual([
        [4, 'CHANNEL_CREATE', 'b'],
        [5, 'RESUMED', undefined],
      ]);
      const kept = [];
      for (let s = 1; s <= 6; s++) if ((await findResumePoint(h.ctx.db, sessionId, s)).mark) kept.push(s);
      expect(kept).toEqual([1, 2, 3, 4, 5]);
      again.disconnect(4000);
      // s 6 of the old numbering is no dispatch of the session any more.
      const late = h.connect();
      late.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 6 } });
      expect((await late.waitForClose()).code).toBe(4007);
    },
  );

  it('closes with 4007 for a seq the session never sent', async () => {
    const h = await createGatewayHarness();
    const { bot, sessionId } = await session(h);
    bot.disconnect(4000);
    const again = h.connect();
    again.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 99 } });
    expect((await again.waitForClose()).code).toBe(4007);
  });

  it('answers an unknown session with Invalid Session (op 9, d false) and accepts Identify on the same connection', async () => {
    const h = await createGatewayHarness();
    const client = h.connect();
    client.send({ op: 6, d: { token: h.world.botAuth, session_id: 'f'.repeat(32), seq: 1 } });
    expect(await client.waitFor((p) => p.op === 9)).toEqual({ op: 9, d: false, s: null, t: null });
    client.send({ op: 2, d: { token: h.world.botAuth, intents: 0, properties: {} } });
    await client.waitForDispatch('READY');
  });

  it('a session closed by the client with 1000 cannot be resumed', async () => {
    const h = await createGatewayHarness();
    const { bot, sessionId } = await session(h);
    bot.disconnect(1000);
    await h.flush();
    const again = h.connect();
    again.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 2 } });
    await again.waitFor((p) => p.op === 9);
  });

  it('a session of another user or application cannot be resumed; an unknown token closes with 4004', async () => {
    const h = await createGatewayHarness();
    const { bot, sessionId } = await session(h);
    bot.disconnect(4000);
    const other = h.connect();
    other.send({ op: 6, d: { token: h.world.aliceAuth, session_id: sessionId, seq: 2 } });
    await other.waitFor((p) => p.op === 9);
    const bad = h.connect();
    bad.send({ op: 6, d: { token: 'Bot nope', session_id: sessionId, seq: 2 } });
    expect((await bad.waitForClose()).code).toBe(4004);
  });

  itInProcess('a session that timed out (4009) cannot be resumed', async () => {
    const h = await createGatewayHarness();
    const { bot, sessionId } = await session(h);
    h.timers.advance(GATEWAY_HEARTBEAT_INTERVAL_MS * 2);
    expect(bot.closed?.code).toBe(4009);
    await h.flush();
    const again = h.connect();
    again.send({ op: 6, d: { token: h.world.botAuth, session_id: sessionId, seq: 2 } });
    await again.waitFor((p) => p.op === 9);
  });

  it('a sandbox reset invalidates every session (op 9)', async () => {
    const h = await createGatewayHarness();
    const { bot } = await session(h);
    await h.api.post('/sandbox/reset');
    await bot.waitFor((p) => p.op === 9);
    expect(await h.db.count('gateway_sessions')).toBe(0);
  });

  it('never stores the token with the session', async () => {
    const h = await createGatewayHarness();
    await session(h);
    const stored = JSON.stringify(await h.db.getAll('gateway_sessions'));
    expect(stored).not.toContain(h.world.botAuth.slice(4));
  });
});
