// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { createTestClient, createWorld, type TestClient } from '../app-harness';

const EXPRESSIONS = String(PERMISSIONS.CREATE_GUILD_EXPRESSIONS);

const API = '/api/v10';

/** Alice's guild with the bot, bob and one more role; a second bot outside it. */
async function setup(client: TestClient) {
  const world = await createWorld(client, 'openid sdk.social_layer guilds');
  const { guild } = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  const role = (await client.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'mods', permissions: EXPRESSIONS })).body
    .role;
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bot.id}`, { roles: [role.id] });
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bob.id}`, {});
  const stranger = (await client.post('/sandbox/applications', { name: 'Stranger' })).body;
  return { world, guild, role, strangerAuth: `Bot ${stranger.bot_token}` };
}

describe('Get Guild (GET /guilds/{guild.id}: public docs, a bot that is a member)', () => {
  it('answers the guild object with its roles, emoji and settings', async () => {
    const client = await createTestClient();
    const { world, guild, role } = await setup(client);
    const res = await client.get(`${API}/guilds/${guild.id}`, world.botAuth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: guild.id,
      name: 'Guild',
      owner_id: world.alice.id,
      icon: null,
      features: [],
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      premium_tier: 0,
      preferred_locale: 'en-US',
      emojis: [],
      stickers: [],
    });
    expect(res.body.roles.map((r: { id: string }) => r.id)).toEqual([guild.id, role.id]);
    expect(res.body).not.toHaveProperty('approximate_member_count');
  });

  it('with_counts=true adds approximate_member_count and approximate_presence_count (no one is online here)', async () => {
    const client = await createTestClient();
    const { world, guild } = await setup(client);
    for (const flag of ['true', '1', 'True']) {
      const res = await client.get(`${API}/guilds/${guild.id}?with_counts=${flag}`, world.botAuth);
      expect(res.body).toMatchObject({ approximate_member_count: 3, approximate_presence_count: 0 });
    }
    const off = await client.get(`${API}/guilds/${guild.id}?with_counts=false`, world.botAuth);
    expect(off.body).not.toHaveProperty('approximate_member_count');
  });

  it('lists the guild emoji the bot can read', async () => {
    const client = await createTestClient();
    const { world, guild } = await setup(client);
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const made = await client.post(`${API}/guilds/${guild.id}/emojis`, { name: 'wave', image: png }, world.botAuth);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const res = await client.get(`${API}/guilds/${guild.id}`, world.botAuth);
    expect(res.body.emojis.map((e: { name: string }) => e.name)).toEqual(['wave']);
  });

  it('a bot that is not a member is 403 50001, an unknown guild 404 10004, a bad with_counts 400 50035 naming it', async () => {
    const client = await createTestClient();
    const { world, guild, strangerAuth } = await setup(client);
    const outside = await client.get(`${API}/guilds/${guild.id}`, strangerAuth);
    expect([outside.status, outside.body.code]).toEqual([403, 50001]);
    const unknown = await client.get(`${API}/guilds/123456789012345678`, world.botAuth);
    expect([unknown.status, unknown.body.code]).toEqual([404, 10004]);
    const bad = await client.get(`${API}/guilds/${guild.id}?with_counts=maybe`, world.botAuth);
    expect([bad.status, bad.body.code]).toEqual([400, 50035]);
    expect(bad.body.errors).toHaveProperty('with_counts');
  });

  it("is a bot route: a user's token is 403 20002, no token 401", async () => {
    const client = await createTestClient();
    const { world, guild } = await setup(client);
    expect((await client.get(`${API}/guilds/${guild.id}`, world.bobAuth)).body.code).toBe(20002);
    expect((await client.get(`${API}/guilds/${guild.id}`)).status).toBe(401);
  });
});

describe('Get Guild Roles (GET /guilds/{guild.id}/roles: public docs, a bot that is a member)', () => {
  it('lists every role, @everyone (id = the guild id) first, as GET /roles/{id} shows each', async () => {
    const client = await createTestClient();
    const { world, guild, role } = await setup(client);
    const res = await client.get(`${API}/guilds/${guild.id}/roles`, world.botAuth);
    expect(res.status).toBe(200);
    expect(res.body.map((r: { id: string }) => r.id)).toEqual([guild.id, role.id]);
    const one = await client.get(`${API}/guilds/${guild.id}/roles/${role.id}`, world.botAuth);
    expect(res.body[1]).toEqual(one.body);
    expect(res.body[1]).toMatchObject({ name: 'mods', permissions: EXPRESSIONS, managed: false });
  });

  it('a bot that is not a member is 403 50001, an unknown guild 404 10004, a user token 403 20002', async () => {
    const client = await createTestClient();
    const { world, guild, strangerAuth } = await setup(client);
    expect((await client.get(`${API}/guilds/${guild.id}/roles`, strangerAuth)).body.code).toBe(50001);
    expect((await client.get(`${API}/guilds/1234567890123/roles`, world.botAuth)).body.code).toBe(10004);
    expect((await client.get(`${API}/guilds/${guild.id}/roles`, world.bobAuth)).body.code).toBe(20002);
  });
});
