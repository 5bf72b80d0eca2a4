// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { LOBBY_CHANNEL_INVITE_TTL_MS } from '../../../src/platform/core/limits';
import { createTestClient, type TestClient } from '../app-harness';
import { PERMISSIONS, eventsOf, guildWorld } from './guild-admin-fixtures';

const CAN_LINK_LOBBY = 1 << 0;

/** The guild world plus a lobby of the game with alice (CanLinkLobby) and bob (no flag). */
async function linkWorld(client: TestClient) {
  const w = await guildWorld(client);
  const lobby = (await client.put('/api/v10/lobbies', { secret: 'match-1', idle_timeout_seconds: 60 }, w.aliceAuth))
    .body;
  await client.put('/api/v10/lobbies', { secret: 'match-1' }, w.bobAuth);
  await client.put(`/api/v10/lobbies/${lobby.id}/members/${w.alice.id}`, { flags: CAN_LINK_LOBBY }, w.botAuth);
  return { ...w, lobby };
}

const link = (client: TestClient, lobbyId: string, body: unknown, auth: string) =>
  client.patch(`/api/v10/lobbies/${lobbyId}/channel-linking`, body, auth);

describe('PATCH /lobbies/{lobby.id}/channel-linking (Bearer; member with CanLinkLobby)', () => {
  it('links a guild text channel the user can view and answers the lobby with linked_channel; LOBBY_UPDATE to the members', async () => {
    const client = await createTestClient();
    const w = await linkWorld(client);
    const res = await link(client, w.lobby.id, { channel_id: w.text.id }, w.aliceAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: w.lobby.id,
      linked_channel: { id: w.text.id, guild_id: w.guild.id, type: 0, name: 'general' },
    });
    expect((await client.db.get('lobbies', w.lobby.id))!.linked_channel_id).toBe(w.text.id);
    expect((await client.get(`/api/v10/lobbies/${w.lobby.id}`, w.bobAuth)).body.linked_channel).toMatchObject({
      id: w.text.id,
    });
    const [event] = await eventsOf(client, 'LOBBY_UPDATE');
    expect(event.data).toMatchObject({ id: w.lobby.id, linked_channel: { id: w.text.id } });
    expect((event.audience.user_ids ?? []).sort()).toEqual([w.alice.id, w.bob.id].sort());
  });

  it('without channel_id it unlinks: the lobby is answered without linked_channel', async () => {
    const client = await createTestClient();
    const w = await linkWorld(client);
    await link(client, w.lobby.id, { channel_id: w.text.id }, w.aliceAuth);
    const res = await link(client, w.lobby.id, {}, w.aliceAuth);
    expect(res.body).not.toHaveProperty('linked_channel');
    expect((await client.db.get('lobbies', w.lobby.id))!.linked_channel_id).toBeNull();
  });

  it('a member without CanLinkLobby gets 50013, a non-member 50001, a bot 20001; nothing changes', async () => {
    const client = await createTestClient();
    const w = await linkWorld(client);
    expect((await link(client, w.lobby.id, { channel_id: w.text.id }, w.bobAuth)).body.code).toBe(50013);
    const carolToken = (
      await client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.carol.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body;
    expect(
      (await link(client, w.lobby.id, { channel_id: w.text.id }, `Bearer ${carolToken.access_token}`)).body.code,
    ).toBe(50001);
    expect((await link(client, w.lobby.id, { channel_id: w.text.id }, w.botAuth)).body.code).toBe(20001);
    expect((await client.db.get('lobbies', w.lobby.id))!.linked_channel_id).toBeNull();
  });

  it('the channel must be a guild text channel (50024) the user can view (50001), send to and manage (50013)', async () => {
    const client = await createTestClient();
    const w = await linkWorld(client);
    await client.put(`/api/v10/lobbies/${w.lobby.id}/members/${w.bob.id}`, { flags: CAN_LINK_LOBBY }, w.botAuth);
    expect((await link(client, w.lobby.id, { channel_id: w.voice.id }, w.aliceAuth)).body.code).toBe(50024);
    expect((await link(client, w.lobby.id, { channel_id: w.text.id }, w.bobAuth)).body.code).toBe(50013);
    const hidden = (
      await client.post(`/sandbox/guilds/${w.guild.id}/channels`, {
        name: 'hidden',
        type: 0,
        permission_overwrites: [{ id: w.guild.id, type: 0, allow: '0', deny: String(PERMISSIONS.VIEW_CHANNEL) }],
      })
    ).body.channel;
    const managers = (
      await client.post(`/sandbox/guilds/${w.guild.id}/roles`, {
        name: 'mods',
        permissions: String(PERMISSIONS.MANAGE_CHANNELS),
      })
    ).body.role;
    await client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { roles: [managers.id] });
    expect((await link(client, w.lobby.id, { channel_id: hidden.id }, w.bobAuth)).body.code).toBe(50001);
    expect((await link(client, w.lobby.id, { channel_id: w.text.id }, w.bobAuth)).status).toBe(200);
  });

  it('a channel linked to another lobby cannot be linked again (50035)', async () => {
    const client = await createTestClient();
    const w = await linkWorld(client);
    await link(client, w.lobby.id, { channel_id: w.text.id }, w.aliceAuth);
    const second = (await client.put('/api/v10/lobbies', { secret: 'match-2' }, w.aliceAuth)).body;
    await client.put(`/api/v10/lobbies/${second.id}/members/${w.alice.id}`, { flags: CAN_LINK_LOBBY }, w.botAuth);
    expect((await link(client, second.id, { channel_id: w.text.id }, w.aliceAuth)).body.errors).toHaveProperty(
      'channel_id',
    );
  });

  it('a linked lobby never expires for idleness; unlinking an empty lobby starts its idle timeout', async () => {
    const client = await createTestClient();
    const w = await linkWorld(client);
    await client.put('/sandbox/clock', { now: '2026-06-01T00:00:00.000Z' });
    await link(client, w.lobby.id, { channel_id: w.text.id }, w.aliceAuth);
    await client.delete(`/api/v10/lobbies/${w.lobby.id}/members/${w.bob.id}`, w.botAuth);
    await client.delete(`/api/v10/lobbies/${w.lobby.id}/members/${w.alice.id}`, w.botAuth);
    await client.put('/sandbox/clock', { now: '2026-07-01T00:00:00.000Z' });
    expect((await client.get(`/api/v10/lobbies/${w.lobby.id}`, w.botAuth)).status).toBe(200);
    await client.put(`/api/v10/lobbies/${w.lobby.id}/members/${w.alice.id}`, { flags: CAN_LINK_LOBBY }, w.botAuth);
    await link(client, w.lobby.id, {}, w.aliceAuth);
    await client.delete(`/api/v10/lobbies/${w.lobby.id}/members/${w.alice.id}`, w.botAuth);
    await client.put('/sandbox/clock', { now: '2026-07-01T00:01:00.000Z' });
    expect((await client.get(`/api/v10/lobbies/${w.lobby.id}`, w.botAuth)).body.code).toBe(10031);
  });
});

describe('Create Lobby Channel Invite for Self and for User (spec: single use, valid one hour)', () => {
  it('POST /lobbies/{id}/members/@me/invites answers {code}: a one-hour, single-use invite to the linked channel only the caller can accept', async () => {
    const client = await createTestClient();
    const w = await linkWorld(client);
    await client.put('/sandbox/clock', { now: '2026-06-01T00:00:00.000Z' });
    await link(client, w.lobby.id, { channel_id: w.text.id }, w.aliceAuth);
    const carolToken = (
      await client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.carol.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body;
    const carolAuth = `Bearer ${carolToken.access_token}`;
    await client.put('/api/v10/lobbies', { secret: 'match-1' }, carolAuth);
    const res = await client.post(`/api/v10/lobbies/${w.lobby.id}/members/@me/invites`, {}, carolAuth);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['code']);
    const stored = await client.db.get('invites', res.body.code);
    expect(stored).toMatchObject({
      channel_id: w.text.id,
      max_uses: 1,
      max_age: LOBBY_CHANNEL_INVITE_TTL_MS / 1000,
      target_user_ids: [w.carol.id],
      lobby_id: w.lobby.id,
    });
    expect((await client.post(`/sandbox/invites/${res.body.code}/accept`, { user_id: w.bob.id })).body.code).toBe(
      10006,
    );
    expect((await client.post(`/sandbox/invites/${res.body.code}/accept`, { user_id: w.carol.id })).body.joined).toBe(
      true,
    );
    expect(await client.db.get('invites', res.body.code)).toBeUndefined();
  });

  it('the invite works until one hour after it was made, by the platform clock, and not after', async () => {
    const client = await createTestClient();
    const w = await linkWorld(client);
    await client.put('/sandbox/clock', { now: '2026-06-01T00:00:00.000Z' });
    await link(client, w.lobby.id, { channel_id: w.text.id }, w.aliceAuth);
    const carolToken = (
      await client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.carol.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body;
    await client.put('/api/v10/lobbies', { secret: 'match-1' }, `Bearer ${carolToken.access_token}`);
    const early = (await client.post(`/api/v10/lobbies/${w.lobby.id}/members/${w.carol.id}/invites`, {}, w.botAuth))
      .body.code;
    const late = (await client.post(`/api/v10/lobbies/${w.lobby.id}/members/${w.carol.id}/invites`, {}, w.botAuth)).body
      .code;
    expect(early).not.toBe(late);
    await client.put('/sandbox/clock', { now: '2026-06-01T00:59:59.999Z' });
    expect((await client.get(`/api/v10/invites/${early}`, w.botAuth)).status).toBe(200);
    expect((await client.post(`/sandbox/invites/${early}/accept`, { user_id: w.carol.id })).body.joined).toBe(true);
    await client.put('/sandbox/clock', { now: '2026-06-01T01:00:00.000Z' });
    expect((await client.get(`/api/v10/invites/${late}`, w.botAuth)).body.code).toBe(10006);
  });

  it("for User is the bot's (a user token gets 20002); the user must be a lobby member (50001); the lobby must have a linked channel (10003)", async () => {
    const client = await createTestClient();
    const w = await linkWorld(client);
    expect(
      (await client.post(`/api/v10/lobbies/${w.lobby.id}/members/${w.bob.id}/invites`, {}, w.botAuth)).body.code,
    ).toBe(10003);
    await link(client, w.lobby.id, { channel_id: w.text.id }, w.aliceAuth);
    expect(
      (await client.post(`/api/v10/lobbies/${w.lobby.id}/members/${w.bob.id}/invites`, {}, w.aliceAuth)).body.code,
    ).toBe(20002);
    expect(
      (await client.post(`/api/v10/lobbies/${w.lobby.id}/members/${w.carol.id}/invites`, {}, w.botAuth)).body.code,
    ).toBe(50001);
    expect(
      (await client.post(`/api/v10/lobbies/${w.lobby.id}/members/${w.bob.id}/invites`, {}, w.botAuth)).status,
    ).toBe(200);
    expect((await client.post(`/api/v10/lobbies/${w.lobby.id}/members/@me/invites`, {}, w.botAuth)).body.code).toBe(
      20001,
    );
  });
});
