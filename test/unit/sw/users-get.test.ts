// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld } from '../app-harness';

const API = '/api/v10';

describe('Get User (GET /users/{user.id}: public docs, any user by id)', () => {
  it('answers the user object to a bot, with no guild in common', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const res = await client.get(`${API}/users/${world.bob.id}`, world.botAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: world.bob.id,
      username: 'bob',
      global_name: null,
      discriminator: '0',
      avatar: null,
      primary_guild: null,
    });
    expect(res.body).not.toHaveProperty('email');
  });

  it("answers a user's OAuth2 token too, and a bot user with bot: true", async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const res = await client.get(`${API}/users/${world.bot.id}`, world.aliceAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: world.bot.id, bot: true });
  });

  it('keeps premium_type 0 for another user (spec: only with identify.premium, for the user who granted it)', async () => {
    const client = await createTestClient();
    const nitro = (await client.post('/sandbox/users', { username: 'nitro', premium_type: 2 })).body.user;
    const world = await createWorld(client);
    expect((await client.get(`${API}/users/${nitro.id}`, world.botAuth)).body.premium_type).toBe(0);
  });

  it('an unknown user is 404 10013, a malformed id 400 50035 naming user_id, no token 401', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const unknown = await client.get(`${API}/users/123456789012345678`, world.botAuth);
    expect([unknown.status, unknown.body.code]).toEqual([404, 10013]);
    const bad = await client.get(`${API}/users/alice`, world.botAuth);
    expect([bad.status, bad.body.code]).toEqual([400, 50035]);
    expect(bad.body.errors).toHaveProperty('user_id');
    expect((await client.get(`${API}/users/${world.bob.id}`)).status).toBe(401);
  });

  it('GET /users/@me still answers the caller (the id route does not take @me)', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const me = await client.get(`${API}/users/@me`, world.botAuth);
    expect([me.status, me.body.id]).toEqual([200, world.bot.id]);
  });
});
