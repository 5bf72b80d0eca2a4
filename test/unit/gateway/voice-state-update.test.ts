// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { hashSecret } from '../../../src/platform/core/secrets';
import { createVoiceHarness } from './voice-harness';

describe("Voice State Update (gateway opcode 4): the join's write, VOICE_STATE_UPDATE, VOICE_SERVER_UPDATE", () => {
  it('joining a lobby call answers VOICE_STATE_UPDATE (every member hears it) then VOICE_SERVER_UPDATE {token, guild_id: null, endpoint} to the joining session only', async () => {
    const h = await createVoiceHarness();
    const bob = await h.identify(h.world.bobAuth);
    const alice = await h.identify(h.world.aliceAuth);
    alice.send({ op: 4, d: { guild_id: null, channel_id: h.lobby.id, self_mute: true, self_deaf: false } });
    const server = await alice.waitForDispatch('VOICE_SERVER_UPDATE');
    const state = alice.dispatches('VOICE_STATE_UPDATE')[0];
    expect(state.s).toBeLessThan(server.s!);
    expect(state.d).toMatchObject({
      guild_id: null,
      channel_id: h.lobby.id,
      lobby_id: h.lobby.id,
      user_id: h.world.alice.id,
      session_id: alice.ready.session_id,
      self_mute: true,
      self_deaf: false,
    });
    expect(server.d).toEqual({
      token: expect.stringMatching(/^[\w-]{43}$/),
      guild_id: null,
      channel_id: h.lobby.id,
      endpoint: '/voice',
    });
    expect((await bob.waitForDispatch('VOICE_STATE_UPDATE')).d.user_id).toBe(h.world.alice.id);
    expect(bob.dispatches('VOICE_SERVER_UPDATE')).toEqual([]);
  });

  it('stores the voice token only as its hash, and keeps it out of the event log', async () => {
    const h = await createVoiceHarness();
    const join = await h.joinLobbyCall(h.world.aliceAuth);
    const stored = await h.db.get('voice_tokens', [h.lobby.id, h.world.alice.id]);
    expect(stored?.token_hash).toBe(await hashSecret(join.token));
    expect(JSON.stringify(stored)).not.toContain(join.token);
    const events = await h.db.getAll('events');
    expect(events.map((e) => e.type)).toContain('VOICE_STATE_UPDATE');
    expect(JSON.stringify(events)).not.toContain(join.token);
  });

  it('a new join (here: again, from another gateway session) hands out a new token; the old one no longer authenticates (4004)', async () => {
    const h = await createVoiceHarness();
    const first = await h.joinLobbyCall(h.world.aliceAuth);
    const second = await h.joinLobbyCall(h.world.aliceAuth);
    expect(second.token).not.toBe(first.token);
    const client = h.connectVoice();
    client.send({
      op: 0,
      d: {
        server_id: first.serverId,
        user_id: first.userId,
        session_id: first.sessionId,
        token: first.token,
        max_dave_protocol_version: 1,
      },
    });
    expect((await client.waitForClose()).code).toBe(4004);
  });

  it('changing only self_mute in the same call emits VOICE_STATE_UPDATE and no new voice server', async () => {
    const h = await createVoiceHarness();
    const join = await h.joinLobbyCall(h.world.aliceAuth);
    const from = join.main.received.length;
    join.main.send({ op: 4, d: { guild_id: null, channel_id: h.lobby.id, self_mute: true, self_deaf: true } });
    const state = await join.main.waitFor((p) => p.t === 'VOICE_STATE_UPDATE' && p.d.self_deaf === true, from);
    expect(state.d.channel_id).toBe(h.lobby.id);
    await h.flush();
    expect(join.main.received.slice(from).filter((p) => p.t === 'VOICE_SERVER_UPDATE')).toEqual([]);
  });

  it('a user who is not a member of the lobby hears nothing back and nothing is stored', async () => {
    const h = await createVoiceHarness();
    const carol = (await h.api.post('/sandbox/users', { username: 'carol' })).body.user;
    const token = (
      await h.api.post('/sandbox/tokens', {
        application_id: h.world.application.id,
        user_id: carol.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body;
    const main = await h.identify(`Bearer ${token.access_token}`);
    main.send({ op: 4, d: { guild_id: null, channel_id: h.lobby.id, self_mute: false, self_deaf: false } });
    main.send({ op: 1, d: null });
    await main.waitFor((p) => p.op === 11);
    await h.flush();
    expect(main.dispatches().map((p) => p.t)).toEqual(['READY']);
    expect(await h.db.get('lobby_voice_states', [h.world.application.id, carol.id])).toBeUndefined();
  });

  it('joining a guild voice channel: VOICE_SERVER_UPDATE names the guild; CONNECT is needed', async () => {
    const h = await createVoiceHarness();
    const { guild } = await h.guildWithBot();
    const voice = (await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'Voice', type: 2 })).body.channel;
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_VOICE_STATES });
    bot.send({ op: 4, d: { guild_id: guild.id, channel_id: voice.id, self_mute: false, self_deaf: true } });
    const server = await bot.waitForDispatch('VOICE_SERVER_UPDATE');
    expect(server.d).toEqual({ token: expect.any(String), guild_id: guild.id, endpoint: '/voice' });
    expect(bot.dispatches('VOICE_STATE_UPDATE')[0].d).toMatchObject({
      guild_id: guild.id,
      channel_id: voice.id,
      user_id: h.world.bot.id,
      self_deaf: true,
    });
    expect((await h.api.get(`/api/v10/guilds/${guild.id}/voice-states/@me`, h.world.botAuth)).body.channel_id).toBe(
      voice.id,
    );
    const denied = (
      await h.api.post(`/sandbox/guilds/${guild.id}/channels`, {
        name: 'Locked',
        type: 2,
        permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: String(PERMISSIONS.CONNECT) }],
      })
    ).body.channel;
    const from = bot.received.length;
    bot.send({ op: 4, d: { guild_id: guild.id, channel_id: denied.id, self_mute: false, self_deaf: false } });
    bot.send({ op: 1, d: null });
    await bot.waitFor((p) => p.op === 11, from);
    await h.flush();
    expect(bot.received.slice(from).filter((p) => p.t?.startsWith('VOICE_'))).toEqual([]);
  });

  it('a guild voice session is disconnected (4014) when the sandbox takes the user out of the channel (a write of the service worker, read from the log)', async () => {
    const h = await createVoiceHarness();
    const { guild } = await h.guildWithBot();
    const voice = (await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'Voice', type: 2 })).body.channel;
    const join = await h.joinVoice(
      h.world.botAuth,
      { guild_id: guild.id, channel_id: voice.id },
      { intents: INTENTS.GUILDS },
    );
    const client = await h.identifyVoice(join);
    await h.api.put(`/sandbox/guilds/${guild.id}/voice-states/${h.world.bot.id}`, { channel_id: null });
    expect((await client.waitForClose()).code).toBe(4014);
  });
});
