// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createVoiceHarness, type VoiceHarness } from './voice-harness';

const E2EE_ONLY = '2026-03-01T00:00:00.000Z';

/** Alice and bob as friends with a DM channel (their first kept message made it); its id. */
async function dmChannel(h: VoiceHarness): Promise<string> {
  const friends = await h.api.put(`/sandbox/users/${h.world.alice.id}/relationships/${h.world.bob.id}`, { type: 1 });
  expect(friends.status).toBe(200);
  const sent = await h.api.post(
    `/api/v10/users/@me/dms/${h.world.bob.id}/messages`,
    { content: 'call?' },
    h.world.aliceAuth,
  );
  expect(sent.status).toBe(200);
  const channels = (await h.api.get('/api/v10/users/@me/channels', h.world.aliceAuth)).body;
  return channels[0].id;
}

describe('DM calls: the two users of a DM channel call each other (Voice State Update with guild_id null and the DM channel)', () => {
  it('both users join the call: the voice server answers each, the other hears VOICE_STATE_UPDATE naming dm_channel_id, and the voice gateway connects them', async () => {
    const h = await createVoiceHarness();
    const channelId = await dmChannel(h);
    const bobJoin = await h.joinVoice(h.world.bobAuth, { guild_id: null, channel_id: channelId });
    const aliceJoin = await h.joinVoice(h.world.aliceAuth, { guild_id: null, channel_id: channelId });
    const heard = await bobJoin.main.waitFor(
      (p) => p.t === 'VOICE_STATE_UPDATE' && p.d.user_id === h.world.alice.id && p.d.channel_id === channelId,
    );
    expect(heard.d).toMatchObject({ guild_id: null, dm_channel_id: channelId, self_mute: false });
    const bob = await h.identifyVoice(bobJoin);
    const alice = await h.identifyVoice(aliceJoin);
    expect((await alice.waitForOp(11)).d).toEqual({ user_ids: [h.world.bob.id] });
    expect((await bob.waitForOp(11)).d).toEqual({ user_ids: [h.world.alice.id] });
    expect(h.voice.participants(channelId).sort()).toEqual([h.world.alice.id, h.world.bob.id].sort());
  });

  it("someone who is not one of the channel's users is refused: no voice server, no voice state, nothing emitted", async () => {
    const h = await createVoiceHarness();
    const channelId = await dmChannel(h);
    const carol = (await h.api.post('/sandbox/users', { username: 'carol' })).body.user;
    const token = (
      await h.api.post('/sandbox/tokens', {
        application_id: h.world.application.id,
        user_id: carol.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body.access_token;
    const main = await h.identify(`Bearer ${token}`);
    const events = (await h.api.db.getAll('events')).length;
    main.send({ op: 4, d: { guild_id: null, channel_id: channelId, self_mute: false, self_deaf: false } });
    await h.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(main.dispatches('VOICE_SERVER_UPDATE')).toEqual([]);
    expect(await h.api.db.getAll('dm_voice_states')).toEqual([]);
    expect((await h.api.db.getAll('events')).length).toBe(events);
  });

  it('from 2026-03-01 a DM call is end-to-end encrypted only: an Identify without DAVE closes 4017', async () => {
    const h = await createVoiceHarness();
    const channelId = await dmChannel(h);
    await h.setClock(E2EE_ONLY);
    const join = await h.joinVoice(h.world.aliceAuth, { guild_id: null, channel_id: channelId });
    const refused = h.connectVoice();
    refused.send({
      op: 0,
      d: { server_id: channelId, user_id: join.userId, session_id: join.sessionId, token: join.token },
    });
    expect((await refused.waitForClose()).code).toBe(4017);
    const accepted = await h.identifyVoice(join, { max_dave_protocol_version: 1 });
    expect(accepted.closed).toBeNull();
  });

  it('one private call at a time: joining the DM call leaves the lobby call (its voice session ends 4014), and leaving with null ends the DM call', async () => {
    const h = await createVoiceHarness();
    const channelId = await dmChannel(h);
    const lobbyJoin = await h.joinLobbyCall(h.world.aliceAuth);
    const lobbyVoice = await h.identifyVoice(lobbyJoin);
    const from = lobbyJoin.main.received.length;
    lobbyJoin.main.send({ op: 4, d: { guild_id: null, channel_id: channelId, self_mute: false, self_deaf: false } });
    const server = (await lobbyJoin.main.waitForDispatch('VOICE_SERVER_UPDATE', from)).d;
    expect((await lobbyVoice.waitForClose()).code).toBe(4014);
    const left = await lobbyJoin.main.waitFor(
      (p) => p.t === 'VOICE_STATE_UPDATE' && p.d.lobby_id === h.lobby.id && p.d.channel_id === null,
      from,
    );
    expect(left.d.user_id).toBe(h.world.alice.id);

    const dmVoice = await h.identifyVoice({ ...lobbyJoin, serverId: channelId, token: server.token });
    lobbyJoin.main.send({ op: 4, d: { guild_id: null, channel_id: null, self_mute: false, self_deaf: false } });
    expect((await dmVoice.waitForClose()).code).toBe(4014);
    expect(await h.api.db.getAll('dm_voice_states')).toEqual([]);
  });

  it('a DM call ends with the gateway session that joined it', async () => {
    const h = await createVoiceHarness();
    const channelId = await dmChannel(h);
    const join = await h.joinVoice(h.world.aliceAuth, { guild_id: null, channel_id: channelId });
    const voice = await h.identifyVoice(join);
    join.main.disconnect(1000);
    expect((await voice.waitForClose()).code).toBe(4014);
    expect(await h.api.db.getAll('dm_voice_states')).toEqual([]);
  });
});
