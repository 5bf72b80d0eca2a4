// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PRESENCE_RESTART_GRACE_MS, VOICE_STATE_SESSION_GRACE_MS } from '../../../src/platform/core/limits';
import type { FakeClient } from './gateway-harness';
import { createVoiceHarness, type VoiceHarness } from './voice-harness';

/** Lets `ms` pass on the manual clock while `alive` keep heartbeating (others time out as they would). */
async function pass(h: VoiceHarness, ms: number, alive: FakeClient[]): Promise<void> {
  for (let left = ms; left > 0; left -= 20_000) {
    for (const client of alive) {
      const from = client.received.length;
      client.send({ op: 1, d: null });
      await client.waitFor((p) => p.op === 11, from);
    }
    h.timers.advance(Math.min(20_000, left));
  }
  await h.flush();
}

/** Who is in the lobby's call, as stored. */
const inCall = async (h: VoiceHarness) => (await h.db.getAll('lobby_voice_states')).map((s) => s.user_id).sort();

describe('a voice state stands on the gateway session that joined (the platform removes it with the session)', () => {
  it('a session closed for good (1000) leaves its lobby call at once: the other members hear VOICE_STATE_UPDATE with channel_id null', async () => {
    const h = await createVoiceHarness();
    const bob = await h.joinLobbyCall(h.world.bobAuth);
    const alice = await h.joinLobbyCall(h.world.aliceAuth);
    const from = bob.main.received.length;
    alice.main.disconnect(1000);
    const left = await bob.main.waitFor((p) => p.t === 'VOICE_STATE_UPDATE' && p.d.user_id === h.world.alice.id, from);
    expect(left.d).toMatchObject({
      guild_id: null,
      lobby_id: h.lobby.id,
      channel_id: null,
      session_id: alice.sessionId,
    });
    expect(await inCall(h)).toEqual([h.world.bob.id]);
  });

  it('a session closed for good leaves its guild voice channel, and the voice server disconnects its voice session (4014)', async () => {
    const h = await createVoiceHarness();
    const { guild } = await h.guildWithBot({ bob: true });
    const channel = (await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'Voice', type: 2 })).body.channel;
    const watcher = await h.identify(h.world.aliceAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_VOICE_STATES });
    const join = await h.joinVoice(
      h.world.botAuth,
      { guild_id: guild.id, channel_id: channel.id },
      { intents: INTENTS.GUILDS | INTENTS.GUILD_VOICE_STATES },
    );
    const voice = h.connectVoice();
    voice.send({
      op: 0,
      d: {
        server_id: join.serverId,
        user_id: join.userId,
        session_id: join.sessionId,
        token: join.token,
        max_dave_protocol_version: 1,
      },
    });
    await voice.waitForOp(2);
    join.main.disconnect(1000);
    expect((await voice.waitForClose()).code).toBe(4014);
    expect(await h.db.get('voice_states', [guild.id, h.world.bot.id])).toBeUndefined();
    // The leave reaches other sessions through the event log, a moment after the voice socket closed.
    await watcher.waitFor((p) => p.t === 'VOICE_STATE_UPDATE' && p.d.user_id === h.world.bot.id && !p.d.channel_id);
    expect(watcher.dispatches('VOICE_STATE_UPDATE').at(-1)?.d).toMatchObject({
      user_id: h.world.bot.id,
      channel_id: null,
    });
  });

  it('a dropped session keeps its call while it may resume, and loses it once it stayed away for the grace (VOICE_STATE_SESSION_GRACE_MS)', async () => {
    const h = await createVoiceHarness();
    const bob = await h.joinLobbyCall(h.world.bobAuth);
    const alice = await h.joinLobbyCall(h.world.aliceAuth);
    alice.main.disconnect(4000);
    await pass(h, VOICE_STATE_SESSION_GRACE_MS - 20_000, [bob.main]);
    expect(await inCall(h)).toEqual([h.world.alice.id, h.world.bob.id].sort());
    await pass(h, 20_000, [bob.main]);
    expect(await inCall(h)).toEqual([h.world.bob.id]);
  });

  it('a dropped session that resumes within the grace keeps its call', async () => {
    const h = await createVoiceHarness();
    const alice = await h.joinLobbyCall(h.world.aliceAuth);
    alice.main.disconnect(4000);
    const again = h.connect();
    again.send({
      op: 6,
      d: { token: h.world.aliceAuth, session_id: alice.sessionId, seq: alice.main.dispatches().at(-1)!.s },
    });
    await again.waitForDispatch('RESUMED');
    await pass(h, VOICE_STATE_SESSION_GRACE_MS + 20_000, [again]);
    expect(await inCall(h)).toEqual([h.world.alice.id]);
  });

  it('after the shared worker restarted, the calls of sessions that were not resumed end once the restart grace is over', async () => {
    const h = await createVoiceHarness();
    const bob = await h.joinLobbyCall(h.world.bobAuth);
    const alice = await h.joinLobbyCall(h.world.aliceAuth);
    // The first start's own sweep after its start is over (in the hub, that start is the one that dies).
    await pass(h, PRESENCE_RESTART_GRACE_MS, [alice.main, bob.main]);
    expect(await inCall(h)).toEqual([h.world.alice.id, h.world.bob.id].sort());
    // The hub stops: alice's page notices (her socket drops) and resumes on the new start.
    alice.main.disconnect(4000);
    const restarted = await h.restartedGateway();
    const again = h.connect(undefined, restarted);
    again.send({
      op: 6,
      d: { token: h.world.aliceAuth, session_id: alice.sessionId, seq: alice.main.dispatches().at(-1)!.s },
    });
    await again.waitForDispatch('RESUMED');
    // Bob's page never came back to the new start: his session lives only on the old one, gone.
    await pass(h, PRESENCE_RESTART_GRACE_MS, [again, bob.main]);
    const left = await again.waitFor((p) => p.t === 'VOICE_STATE_UPDATE' && p.d.user_id === h.world.bob.id);
    expect(left.d).toMatchObject({ lobby_id: h.lobby.id, channel_id: null });
    expect(await inCall(h)).toEqual([h.world.alice.id]);
  });
});
