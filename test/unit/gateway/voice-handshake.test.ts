// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { VOICE_HEARTBEAT_INTERVAL_MS } from '../../../src/platform/core/limits';
import { createVoiceHarness } from './voice-harness';

const BEFORE_LEGACY_END = '2024-11-17T23:59:59.000Z';
const LEGACY_END = '2024-11-18T00:00:00.000Z';
const BEFORE_E2EE_ONLY = '2026-02-28T23:59:59.000Z';
const E2EE_ONLY = '2026-03-01T00:00:00.000Z';

describe('voice gateway versions (spec: Versioning 4, "Voice gateway requires an explicit version")', () => {
  it('refuses a connection without a version (no default): close 4020 before Hello', async () => {
    const h = await createVoiceHarness();
    const client = h.connectVoice('/voice');
    const closed = await client.waitForClose();
    expect(closed.code).toBe(4020);
    expect(closed.reason).toMatch(/version is required/);
    expect(client.received).toEqual([]);
  });

  it('refuses an unknown version (0, 9, "eight") with 4020', async () => {
    const h = await createVoiceHarness();
    for (const v of ['0', '9', 'eight']) expect((await h.connectVoice(`/voice?v=${v}`).waitForClose()).code).toBe(4020);
  });

  it('accepts versions 4 to 8 with Hello (op 8) carrying the heartbeat interval', async () => {
    const h = await createVoiceHarness();
    for (const v of [4, 5, 6, 7, 8]) {
      const client = h.connectVoice(`/voice?v=${v}`);
      await client.waitForOp(8);
      expect(client.closed).toBeNull();
      expect(client.received).toEqual([{ op: 8, d: { heartbeat_interval: VOICE_HEARTBEAT_INTERVAL_MS } }]);
    }
  });

  it('versions below 4 were discontinued on 2024-11-18: v3 is refused from that date (4020) and accepted before, by the platform clock', async () => {
    const h = await createVoiceHarness();
    await h.setClock(LEGACY_END);
    const refused = h.connectVoice('/voice?v=3');
    expect(await refused.waitForClose()).toEqual({
      code: 4020,
      reason: 'Voice gateway versions below 4 were discontinued on 2024-11-18.',
    });
    await h.setClock(BEFORE_LEGACY_END);
    const accepted = h.connectVoice('/voice?v=3');
    await accepted.waitForOp(8);
    expect(accepted.closed).toBeNull();
    expect(accepted.received[0].op).toBe(8);
  });
});

describe('voice Identify (op 0) against the voice token of VOICE_SERVER_UPDATE', () => {
  it('answers Ready (op 2) with ssrc, ip, port and the supported modes', async () => {
    const h = await createVoiceHarness();
    await h.setClock(E2EE_ONLY);
    const client = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    const ready = client.ops(2)[0].d;
    expect(ready).toEqual({
      ssrc: expect.any(Number),
      ip: '127.0.0.1',
      port: 0,
      modes: ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'],
    });
  });

  it('closes with 4004 (authentication failed) for a wrong token, and for the token of another user', async () => {
    const h = await createVoiceHarness();
    const join = await h.joinLobbyCall(h.world.aliceAuth);
    const wrong = h.connectVoice();
    wrong.send({
      op: 0,
      d: {
        server_id: join.serverId,
        user_id: join.userId,
        session_id: join.sessionId,
        token: 'not-the-token',
        max_dave_protocol_version: 1,
      },
    });
    expect((await wrong.waitForClose()).code).toBe(4004);
    const other = h.connectVoice();
    other.send({
      op: 0,
      d: {
        server_id: join.serverId,
        user_id: h.world.bob.id,
        session_id: join.sessionId,
        token: join.token,
        max_dave_protocol_version: 1,
      },
    });
    expect((await other.waitForClose()).code).toBe(4004);
  });

  it('closes with 4006 (session no longer valid) for another gateway session id, and once the user left the call', async () => {
    const h = await createVoiceHarness();
    const join = await h.joinLobbyCall(h.world.aliceAuth);
    const client = h.connectVoice();
    client.send({
      op: 0,
      d: {
        server_id: join.serverId,
        user_id: join.userId,
        session_id: 'f'.repeat(32),
        token: join.token,
        max_dave_protocol_version: 1,
      },
    });
    expect((await client.waitForClose()).code).toBe(4006);
    join.main.send({ op: 4, d: { guild_id: null, channel_id: null, self_mute: false, self_deaf: false } });
    await join.main.waitFor((p) => p.t === 'VOICE_STATE_UPDATE' && p.d.channel_id === null);
    const late = h.connectVoice();
    late.send({
      op: 0,
      d: {
        server_id: join.serverId,
        user_id: join.userId,
        session_id: join.sessionId,
        token: join.token,
        max_dave_protocol_version: 1,
      },
    });
    expect((await late.waitForClose()).code).toBe(4006);
  });

  it('a payload before Identify closes with 4003, a second Identify with 4005, an unknown opcode with 4001', async () => {
    const h = await createVoiceHarness();
    const early = h.connectVoice();
    early.send({ op: 5, d: { speaking: 1, delay: 0, ssrc: 1 } });
    expect((await early.waitForClose()).code).toBe(4003);
    const client = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    client.send({ op: 0, d: { server_id: '1', user_id: '1', session_id: 'x', token: 'y' } });
    expect((await client.waitForClose()).code).toBe(4005);
    const odd = await h.identifyVoice(await h.joinLobbyCall(h.world.bobAuth));
    odd.send({ op: 12, d: {} });
    expect((await odd.waitForClose()).code).toBe(4001);
  });
});

describe('Select Protocol (op 1) and Session Description (op 4): encryption modes (spec: Versioning 4)', () => {
  const select = (mode: string, protocol = 'udp') => ({
    op: 1,
    d: { protocol, data: { address: '127.0.0.1', port: 0, mode } },
  });

  it('answers a supported mode with Session Description: the mode and a 32-byte secret_key', async () => {
    const h = await createVoiceHarness();
    await h.setClock(E2EE_ONLY);
    for (const mode of ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize']) {
      const client = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
      client.send(select(mode));
      const description = (await client.waitForOp(4)).d;
      expect(description.mode).toBe(mode);
      expect(description.secret_key).toHaveLength(32);
      expect(description.secret_key.every((b: number) => Number.isInteger(b) && b >= 0 && b <= 255)).toBe(true);
    }
  });

  it('deprecated modes (xsalsa20_poly1305* and aead_aes256_gcm) were discontinued on 2024-11-18: refused from that date with 4016, accepted before', async () => {
    const h = await createVoiceHarness();
    const deprecated = [
      'xsalsa20_poly1305',
      'xsalsa20_poly1305_suffix',
      'xsalsa20_poly1305_lite',
      'xsalsa20_poly1305_lite_rtpsize',
      'aead_aes256_gcm',
    ];
    await h.setClock(LEGACY_END);
    for (const mode of deprecated) {
      const client = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
      client.send(select(mode));
      expect(await client.waitForClose()).toEqual({
        code: 4016,
        reason: `Encryption mode ${mode} was discontinued on 2024-11-18.`,
      });
    }
    await h.setClock(BEFORE_LEGACY_END);
    const before = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    expect(before.ops(2)[0].d.modes).toEqual(expect.arrayContaining(deprecated));
    before.send(select('xsalsa20_poly1305'));
    expect((await before.waitForOp(4)).d.mode).toBe('xsalsa20_poly1305');
  });

  it('an unknown mode closes with 4016, a protocol other than udp or webrtc with 4012', async () => {
    const h = await createVoiceHarness();
    const client = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    client.send(select('plaintext'));
    expect((await client.waitForClose()).code).toBe(4016);
    const tcp = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    tcp.send(select('aead_aes256_gcm_rtpsize', 'tcp'));
    expect((await tcp.waitForClose()).code).toBe(4012);
  });

  it('webrtc: Session Description names Opus and carries no transport key (the peers negotiate DTLS-SRTP); the mode rules still apply', async () => {
    const h = await createVoiceHarness();
    await h.setClock(E2EE_ONLY);
    const client = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    client.send({ op: 1, d: { protocol: 'webrtc', data: { mode: 'aead_aes256_gcm_rtpsize' } } });
    expect((await client.waitForOp(4)).d).toEqual({
      mode: 'aead_aes256_gcm_rtpsize',
      audio_codec: 'opus',
      dave_protocol_version: 1,
    });
    const legacy = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth));
    legacy.send({ op: 1, d: { protocol: 'webrtc', data: { mode: 'aead_aes256_gcm' } } });
    expect((await legacy.waitForClose()).code).toBe(4016);
  });
});

describe('E2EE calls only from 2026-03-01 (spec: Limits "Calls")', () => {
  it('refuses an Identify with max_dave_protocol_version 0 or absent from 2026-03-01 (4017 E2EE/DAVE protocol required)', async () => {
    const h = await createVoiceHarness();
    await h.setClock(E2EE_ONLY);
    for (const dave of [0, null]) {
      const client = h.connectVoice();
      const join = await h.joinLobbyCall(h.world.aliceAuth);
      client.send({
        op: 0,
        d: {
          server_id: join.serverId,
          user_id: join.userId,
          session_id: join.sessionId,
          token: join.token,
          ...(dave === null ? {} : { max_dave_protocol_version: dave }),
        },
      });
      expect(await client.waitForClose()).toEqual({ code: 4017, reason: 'E2EE/DAVE protocol required.' });
    }
  });

  it('accepts a client without DAVE before 2026-03-01 (Session Description dave_protocol_version 0)', async () => {
    const h = await createVoiceHarness();
    await h.setClock(BEFORE_E2EE_ONLY);
    const client = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth), { max_dave_protocol_version: 0 });
    client.send({
      op: 1,
      d: { protocol: 'udp', data: { address: '127.0.0.1', port: 0, mode: 'aead_aes256_gcm_rtpsize' } },
    });
    expect((await client.waitForOp(4)).d.dave_protocol_version).toBe(0);
  });

  it('the rule names voice channels, not stages: from 2026-03-01 a guild voice channel needs DAVE (4017), a stage channel does not', async () => {
    const h = await createVoiceHarness();
    await h.setClock(E2EE_ONLY);
    const { guild } = await h.guildWithBot();
    const voiceChannel = (await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'Voice', type: 2 })).body
      .channel;
    const stage = (await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'Stage', type: 13 })).body.channel;
    const inVoice = h.connectVoice();
    const voiceJoin = await h.joinVoice(
      h.world.botAuth,
      { guild_id: guild.id, channel_id: voiceChannel.id },
      { intents: 1 },
    );
    inVoice.send({
      op: 0,
      d: {
        server_id: guild.id,
        user_id: h.world.bot.id,
        session_id: voiceJoin.sessionId,
        token: voiceJoin.token,
        max_dave_protocol_version: 0,
      },
    });
    expect((await inVoice.waitForClose()).code).toBe(4017);
    const stageJoin = await h.joinVoice(h.world.botAuth, { guild_id: guild.id, channel_id: stage.id }, { intents: 1 });
    const onStage = await h.identifyVoice(stageJoin, { max_dave_protocol_version: 0 });
    expect(onStage.closed).toBeNull();
  });

  it('from 2026-03-01 Session Description carries a dave_protocol_version above 0', async () => {
    const h = await createVoiceHarness();
    await h.setClock(E2EE_ONLY);
    const client = await h.identifyVoice(await h.joinLobbyCall(h.world.aliceAuth), { max_dave_protocol_version: 3 });
    client.send({
      op: 1,
      d: { protocol: 'udp', data: { address: '127.0.0.1', port: 0, mode: 'aead_xchacha20_poly1305_rtpsize' } },
    });
    expect((await client.waitForOp(4)).d.dave_protocol_version).toBe(1);
  });
});
