// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  GATEWAY_HEARTBEAT_TIMEOUT_FACTOR,
  VOICE_HEARTBEAT_INTERVAL_MS,
  VOICE_RESUME_WINDOW_MS,
} from '../../../src/platform/core/limits';
import { itInProcess } from '../app-harness';
import { createVoiceHarness, type VoiceHarness } from './voice-harness';

/** Alice and bob identified in the lobby's call, each having seen the other connect. */
async function twoInCall(h: VoiceHarness, url = '/voice?v=8') {
  const alice = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth), { url });
  const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth), { url });
  await alice.waitFor((p) => p.op === 11 && p.d.user_ids.includes(h.world.bob.id));
  return { alice, bob };
}

describe('who is in a call: Clients Connect (op 11), Client Disconnect (op 13), Speaking (op 5)', () => {
  itInProcess(
    'two participants see each other connect: the newcomer hears who is there, those there hear of the newcomer',
    async () => {
      const h = await createVoiceHarness();
      const alice = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
      expect(alice.ops(11)).toEqual([]);
      const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth));
      expect((await bob.waitForOp(11)).d).toEqual({ user_ids: [h.world.alice.id] });
      expect((await alice.waitForOp(11)).d).toEqual({ user_ids: [h.world.bob.id] });
      expect(h.voice.participants(h.lobby.id).sort()).toEqual([h.world.alice.id, h.world.bob.id].sort());
    },
  );

  it("relays Speaking to the others with the speaker's user id and ssrc", async () => {
    const h = await createVoiceHarness();
    const { alice, bob } = await twoInCall(h);
    const ssrc = bob.ops(2)[0].d.ssrc;
    bob.send({ op: 5, d: { speaking: 5, delay: 0, ssrc } });
    expect((await alice.waitForOp(5)).d).toEqual({ user_id: h.world.bob.id, ssrc, speaking: 5 });
    expect(bob.ops(5)).toEqual([]);
  });

  itInProcess(
    'a participant who closes (1000) is gone: the others get Client Disconnect with their user id',
    async () => {
      const h = await createVoiceHarness();
      const { alice, bob } = await twoInCall(h);
      bob.disconnect(1000);
      expect((await alice.waitForOp(13)).d).toEqual({ user_id: h.world.bob.id });
      expect(h.voice.participants(h.lobby.id)).toEqual([h.world.alice.id]);
    },
  );

  it('leaving the call on the gateway (op 4, channel_id null) disconnects the voice session (4014) and the others see Client Disconnect', async () => {
    const h = await createVoiceHarness();
    const aliceJoin = await h.joinLobbyCall(h.world.aliceAuth);
    const alice = await h.identifyVoice(aliceJoin);
    const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth));
    await bob.waitForOp(11);
    aliceJoin.main.send({ op: 4, d: { guild_id: null, channel_id: null, self_mute: false, self_deaf: false } });
    expect((await alice.waitForClose()).code).toBe(4014);
    expect((await bob.waitForOp(13)).d).toEqual({ user_id: h.world.alice.id });
  });

  itInProcess(
    'a dropped socket keeps its place for the resume window, then the others get Client Disconnect',
    async () => {
      const h = await createVoiceHarness();
      const { alice, bob } = await twoInCall(h);
      bob.disconnect(4000);
      await h.flush();
      expect(alice.ops(13)).toEqual([]);
      // Keep alice's own connection alive while time passes.
      for (let t = 0; t < VOICE_RESUME_WINDOW_MS; t += VOICE_HEARTBEAT_INTERVAL_MS) {
        alice.send({ op: 3, d: { t, seq_ack: -1 } });
        await alice.waitFor((p) => p.op === 6 && p.d.t === t);
        h.timers.advance(VOICE_HEARTBEAT_INTERVAL_MS);
      }
      expect((await alice.waitForOp(13)).d).toEqual({ user_id: h.world.bob.id });
    },
  );
});

describe('calls end with what they stand on (read from the event log)', () => {
  it("leaving the lobby disconnects the user's voice session (4014); the others see Client Disconnect", async () => {
    const h = await createVoiceHarness();
    const { alice, bob } = await twoInCall(h);
    expect((await h.api.delete(`/api/v10/lobbies/${h.lobby.id}/members/@me`, h.world.bobAuth)).status).toBe(204);
    expect((await bob.waitForClose()).code).toBe(4014);
    expect((await alice.waitForOp(13)).d).toEqual({ user_id: h.world.bob.id });
  });

  it('a sandbox reset ends every call (4022 call terminated)', async () => {
    const h = await createVoiceHarness();
    const { alice, bob } = await twoInCall(h);
    await h.api.post('/sandbox/reset');
    expect((await alice.waitForClose()).code).toBe(4022);
    expect((await bob.waitForClose()).code).toBe(4022);
  });
});

describe('voice heartbeats (op 3 / op 6)', () => {
  it('v8 acknowledges {t} with {t}; below v8 the nonce itself', async () => {
    const h = await createVoiceHarness();
    const v8 = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    v8.send({ op: 3, d: { t: 1501184119561, seq_ack: -1 } });
    expect(await v8.waitForOp(6)).toEqual({ op: 6, d: { t: 1501184119561 } });
    const v7 = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth), { url: '/voice?v=7' });
    v7.send({ op: 3, d: 1501184119561 });
    expect(await v7.waitForOp(6)).toEqual({ op: 6, d: 1501184119561 });
  });

  itInProcess('a connection without heartbeats for 1.5 intervals is closed with 4009 (session timeout)', async () => {
    const h = await createVoiceHarness();
    const client = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    h.timers.advance(VOICE_HEARTBEAT_INTERVAL_MS * GATEWAY_HEARTBEAT_TIMEOUT_FACTOR);
    expect(client.closed?.code).toBe(4009);
  });
});

describe('voice Resume (op 7): v8 buffered resume (spec: "version 8 supports buffered resume")', () => {
  it('v8 numbers messages with seq and a Resume with seq_ack replays every unacknowledged one, after Resumed (op 9)', async () => {
    const h = await createVoiceHarness();
    const aliceJoin = await h.joinLobbyCall(h.world.aliceAuth);
    const alice = await h.identifyVoice(aliceJoin);
    const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth));
    const connected = await alice.waitForOp(11);
    expect(connected.seq).toBe(1);
    alice.send({ op: 3, d: { t: 1, seq_ack: 1 } });
    await alice.waitForOp(6);
    bob.send({ op: 5, d: { speaking: 1, delay: 0, ssrc: bob.ops(2)[0].d.ssrc } });
    expect((await alice.waitForOp(5)).seq).toBe(2);
    // Received but never acknowledged: the socket drops before the next heartbeat.
    alice.disconnect(4000);
    bob.disconnect(1000);
    await h.flush();
    const again = h.connectVoice();
    again.send({
      op: 7,
      d: { server_id: aliceJoin.serverId, session_id: aliceJoin.sessionId, token: aliceJoin.token, seq_ack: 1 },
    });
    await again.waitForOp(13);
    expect(again.received.slice(1)).toEqual([
      { op: 9, d: null },
      { op: 5, d: { user_id: h.world.bob.id, ssrc: expect.any(Number), speaking: 1 }, seq: 2 },
      { op: 13, d: { user_id: h.world.bob.id }, seq: 3 },
    ]);
  });

  it('a Resume from a seq_ack no longer buffered (already let go) closes with 4006', async () => {
    const h = await createVoiceHarness();
    const aliceJoin = await h.joinLobbyCall(h.world.aliceAuth);
    const alice = await h.identifyVoice(aliceJoin);
    const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth));
    await alice.waitForOp(11);
    bob.send({ op: 5, d: { speaking: 1, delay: 0, ssrc: 1 } });
    await alice.waitForOp(5);
    alice.send({ op: 3, d: { t: 1, seq_ack: 2 } });
    await alice.waitForOp(6);
    alice.disconnect(4000);
    const again = h.connectVoice();
    again.send({
      op: 7,
      d: { server_id: aliceJoin.serverId, session_id: aliceJoin.sessionId, token: aliceJoin.token, seq_ack: 1 },
    });
    expect((await again.waitForClose()).code).toBe(4006);
  });

  it('below v8 (v7) nothing is numbered or buffered: a Resume gets Resumed and none of what it missed', async () => {
    const h = await createVoiceHarness();
    const aliceJoin = await h.joinLobbyCall(h.world.aliceAuth);
    const alice = await h.identifyVoice(aliceJoin, { url: '/voice?v=7' });
    const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth), { url: '/voice?v=7' });
    const connected = await alice.waitForOp(11);
    expect(connected).toEqual({ op: 11, d: { user_ids: [h.world.bob.id] } });
    alice.disconnect(4000);
    bob.disconnect(1000);
    await h.flush();
    const again = h.connectVoice('/voice?v=7');
    again.send({
      op: 7,
      d: { server_id: aliceJoin.serverId, session_id: aliceJoin.sessionId, token: aliceJoin.token },
    });
    await again.waitForOp(9);
    await h.flush();
    expect(again.received).toEqual([
      { op: 8, d: expect.any(Object) },
      { op: 9, d: null },
    ]);
  });

  it('Resume with a wrong token closes with 4004; an unknown session with 4006', async () => {
    const h = await createVoiceHarness();
    const join = await h.joinLobbyCall(h.world.aliceAuth);
    const alice = await h.identifyVoice(join);
    alice.disconnect(4000);
    const wrong = h.connectVoice();
    wrong.send({ op: 7, d: { server_id: join.serverId, session_id: join.sessionId, token: 'nope' } });
    expect((await wrong.waitForClose()).code).toBe(4004);
    const unknown = h.connectVoice();
    unknown.send({ op: 7, d: { server_id: join.serverId, session_id: 'nope', token: join.token } });
    expect((await unknown.waitForClose()).code).toBe(4006);
    // The wrong token did not end the session: the right one still resumes.
    const right = h.connectVoice();
    right.send({ op: 7, d: { server_id: join.serverId, session_id: join.sessionId, token: join.token, seq_ack: -1 } });
    await right.waitForOp(9);
  });
});
