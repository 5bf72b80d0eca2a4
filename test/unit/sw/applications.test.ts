// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld, type TestClient } from '../app-harness';

const API = '/api/v10';
const ROUTES = ['/applications/@me', '/oauth2/applications/@me'] as const;

/** A world (alice owns the application) whose bot is in one guild, with two users' tokens. */
async function setup(client: TestClient) {
  const world = await createWorld(client);
  const { guild } = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bot.id}`, {});
  return { world, guild };
}

describe('the application object for its own bot (GET /applications/@me, /oauth2/applications/@me: public docs, bot token)', () => {
  it.each(ROUTES)('%s answers the private application: owner, bot, verify_key, counts', async (route) => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const res = await client.get(`${API}${route}`, world.botAuth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: world.application.id,
      name: 'Game',
      description: '',
      icon: null,
      type: null,
      bot_public: expect.any(Boolean),
      bot_require_code_grant: expect.any(Boolean),
      flags: expect.any(Number),
      flags_new: expect.any(String),
      verify_key: expect.stringMatching(/^[0-9a-f]{64}$/),
      owner: { id: world.alice.id, username: 'alice' },
      bot: { id: world.bot.id, bot: true },
      team: null,
      redirect_uris: expect.any(Array),
      interactions_endpoint_url: null,
      role_connections_verification_url: null,
      // The bot is in one guild; alice and bob each hold a token of the application.
      approximate_guild_count: 1,
      approximate_user_authorization_count: 2,
      approximate_user_install_count: expect.any(Number),
      explicit_content_filter: 0,
      eligible_oauth2_scopes: expect.any(Array),
    });
  });

  it('verify_key is the key interactions and event webhooks are signed for (the same on every read)', async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const first = (await client.get(`${API}/applications/@me`, world.botAuth)).body.verify_key;
    const second = (await client.get(`${API}/oauth2/applications/@me`, world.botAuth)).body.verify_key;
    const sandbox = await client.get(`/sandbox/applications/${world.application.id}/interactions-endpoint`);
    expect(second).toBe(first);
    expect(sandbox.body.verify_key).toBe(first);
  });

  it('an application made without an owner shows it as a team pseudo-user (TEAM_PSEUDO_USER, 1 << 10)', async () => {
    const client = await createTestClient();
    const made = (await client.post('/sandbox/applications', { name: 'Ownerless' })).body;
    const res = await client.get(`${API}/applications/@me`, `Bot ${made.bot_token}`);
    expect(res.status).toBe(200);
    expect(res.body.owner).toMatchObject({ id: made.application.id, public_flags: 1 << 10, flags: 1 << 10 });
    expect(res.body.approximate_guild_count).toBe(0);
  });

  it.each(ROUTES)("%s is the bot's: no token is 401, a user's token is 403 20002", async (route) => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const none = await client.get(`${API}${route}`);
    expect([none.status, none.body]).toEqual([401, { message: '401: Unauthorized', code: 0 }]);
    const user = await client.get(`${API}${route}`, world.aliceAuth);
    expect([user.status, user.body.code]).toEqual([403, 20002]);
  });
});

describe('GET /applications/{application.id} (public docs: bot token, its own application)', () => {
  it("answers the bot's own application as /applications/@me does", async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const byId = await client.get(`${API}/applications/${world.application.id}`, world.botAuth);
    const me = await client.get(`${API}/applications/@me`, world.botAuth);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(me.body);
  });

  it("another application's id is 403 50001, an unknown id 404 10002, a malformed id 400 50035 naming application_id", async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body;
    const theirs = await client.get(`${API}/applications/${other.application.id}`, world.botAuth);
    expect([theirs.status, theirs.body.code]).toEqual([403, 50001]);
    const unknown = await client.get(`${API}/applications/123456789012345678`, world.botAuth);
    expect([unknown.status, unknown.body.code]).toEqual([404, 10002]);
    const bad = await client.get(`${API}/applications/not-an-id`, world.botAuth);
    expect([bad.status, bad.body.code]).toEqual([400, 50035]);
    expect(bad.body.errors).toHaveProperty('application_id');
  });

  it("a refused read stores nothing (another application's signing key stays as it was)", async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body;
    // The sandbox makes an application's signing key with it: the read must leave it untouched.
    const before = await client.db.get('event_webhooks', other.application.id);
    await client.get(`${API}/applications/${other.application.id}`, world.botAuth);
    expect(await client.db.get('event_webhooks', other.application.id)).toEqual(before);
  });
});
