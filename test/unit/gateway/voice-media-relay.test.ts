// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { VOICE_RELAY_MESSAGE_MAX } from '../../../src/platform/core/limits';
import { createVoiceHarness, type VoiceHarness } from './voice-harness';

/** Alice and bob identified in the lobby's call, each having seen the other connect. */
async function twoInCall(h: VoiceHarness) {
  const alice = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
  const bob = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth));
  await alice.waitFor((p) => p.op === 11 && p.d.user_ids.includes(h.world.bob.id));
  return { alice, bob };
}

const offer = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n', e2ee: true };

describe('the voice gateway relays what the pages of a call need for media, without reading it', () => {
  it('PEER_SIGNAL (op 40) goes to the participant named, with the sender as user_id, numbered for resume', async () => {
    const h = await createVoiceHarness();
    const { alice, bob } = await twoInCall(h);
    alice.send({ op: 40, d: { user_id: h.world.bob.id, signal: offer } });
    const got = await bob.waitForOp(40);
    expect(got.d).toEqual({ user_id: h.world.alice.id, signal: offer });
    expect(typeof got.seq).toBe('number');
    expect(alice.ops(40)).toEqual([]);
  });

  it('an ICE candidate is relayed as sent', async () => {
    const h = await createVoiceHarness();
    const { alice, bob } = await twoInCall(h);
    const candidate = {
      type: 'candidate',
      candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
      sdp_mid: '0',
      sdp_m_line_index: 0,
    };
    bob.send({ op: 40, d: { user_id: h.world.alice.id, signal: candidate } });
    expect((await alice.waitForOp(40)).d).toEqual({ user_id: h.world.bob.id, signal: candidate });
  });

  it('E2EE_MESSAGE (op 41) without user_id goes to everyone else in the call; with user_id to that participant only', async () => {
    const h = await createVoiceHarness();
    const { alice, bob } = await twoInCall(h);
    alice.send({ op: 41, d: { data: 'hello-to-all' } });
    expect((await bob.waitForOp(41)).d).toEqual({ user_id: h.world.alice.id, data: 'hello-to-all' });
    bob.send({ op: 41, d: { user_id: h.world.alice.id, data: 'sealed-key' } });
    expect((await alice.waitForOp(41)).d).toEqual({ user_id: h.world.bob.id, data: 'sealed-key' });
    expect(alice.ops(41)).toHaveLength(1);
    expect(bob.ops(41)).toHaveLength(1);
  });

  it('a message for someone not in the call is dropped (they may have just left); the sender stays connected', async () => {
    const h = await createVoiceHarness();
    const { alice, bob } = await twoInCall(h);
    alice.send({ op: 41, d: { user_id: '1234567890', data: 'nobody' } });
    alice.send({ op: 41, d: { user_id: h.world.bob.id, data: 'after' } });
    expect((await bob.waitForOp(41)).d.data).toBe('after');
    expect(alice.closed).toBeNull();
  });

  it('relayed messages stay inside their call: another call hears nothing', async () => {
    const h = await createVoiceHarness();
    const alice = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    const otherLobby = (await h.api.put('/api/v10/lobbies', { secret: 'elsewhere' }, h.world.bobAuth)).body;
    const bob = await h.identifyVoice(
      await h.joinVoice(h.world.bobAuth, { guild_id: null, channel_id: otherLobby.id }),
    );
    alice.send({ op: 41, d: { data: 'in my call only' } });
    alice.send({ op: 40, d: { user_id: h.world.bob.id, signal: offer } });
    await h.flush();
    expect([bob.ops(40), bob.ops(41)]).toEqual([[], []]);
  });

  it(`a relayed text over ${VOICE_RELAY_MESSAGE_MAX} characters, or a malformed signal, closes with 4002 naming the field`, async () => {
    const h = await createVoiceHarness();
    const { alice, bob } = await twoInCall(h);
    alice.send({ op: 41, d: { data: 'x'.repeat(VOICE_RELAY_MESSAGE_MAX + 1) } });
    expect(await alice.waitForClose()).toEqual({ code: 4002, reason: expect.stringContaining('d.data') });
    bob.send({ op: 40, d: { user_id: h.world.alice.id, signal: { type: 'offer', sdp: 'v=0' } } });
    expect(await bob.waitForClose()).toEqual({ code: 4002, reason: expect.stringContaining('d.signal') });
  });

  it('the relay opcodes may carry more than the 4096 bytes other voice payloads may: a 6 KB offer is relayed', async () => {
    const h = await createVoiceHarness();
    const { alice, bob } = await twoInCall(h);
    const large = { ...offer, sdp: offer.sdp + 'a=x\r\n'.repeat(1200) };
    expect(JSON.stringify({ op: 40, d: { user_id: h.world.bob.id, signal: large } }).length).toBeGreaterThan(4096);
    alice.send({ op: 40, d: { user_id: h.world.bob.id, signal: large } });
    expect((await bob.waitForOp(40)).d.signal.sdp).toBe(large.sdp);
    expect(alice.closed).toBeNull();
  });

  it('relaying needs an identified session (4003 before Identify)', async () => {
    const h = await createVoiceHarness();
    const client = h.connectVoice();
    client.send({ op: 41, d: { data: 'too early' } });
    expect((await client.waitForClose()).code).toBe(4003);
  });
});
