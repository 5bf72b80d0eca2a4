// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { APPLICATION_EMOJI_MAX, EMOJI_IMAGE_MAX_BYTES, GUILD_EMOJI_MAX } from '../../../src/platform/core/limits';
import { createTestClient, createWorld, type TestClient } from '../app-harness';
import { GIF, PERMISSIONS, countOf, eventsOf, guildWorld, PNG } from './guild-admin-fixtures';

/** `n` application emoji written straight to the store (a fixture: the limit test needs 1999). */
async function seedApplicationEmoji(client: TestClient, applicationId: string, userId: string, n: number) {
  await client.app.ctx.db.write(['emojis'], async (tx) => {
    for (let i = 0; i < n; i += 1) {
      void tx.store('emojis').add({
        id: String(1000 + i),
        application_id: applicationId,
        name: `seed_${i}`,
        roles: [],
        user_id: userId,
        animated: false,
        created_at: i,
      });
    }
  });
}

describe('application emoji management (spec: bot token; up to 2000 per app)', () => {
  it('POST creates an emoji the bot uploaded; GET lists {items}, GET one, PATCH renames, DELETE removes it and its image', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const base = `/api/v10/applications/${w.application.id}/emojis`;
    const created = await client.post(base, { name: 'gg_wp', image: PNG }, w.botAuth);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'gg_wp',
      roles: [],
      user: { id: w.bot.id },
      require_colons: true,
      managed: false,
      animated: false,
      available: true,
    });
    expect((await client.post(base, { name: 'party', image: GIF }, w.botAuth)).body.animated).toBe(true);
    expect((await client.get(base, w.botAuth)).body.items.map((e: any) => e.name)).toEqual(['gg_wp', 'party']);
    expect((await client.get(`${base}/${created.body.id}`, w.botAuth)).body.name).toBe('gg_wp');
    expect((await client.patch(`${base}/${created.body.id}`, { name: 'good_game' }, w.botAuth)).body.name).toBe(
      'good_game',
    );
    expect((await client.delete(`${base}/${created.body.id}`, w.botAuth)).status).toBe(204);
    expect((await client.get(`${base}/${created.body.id}`, w.botAuth)).body.code).toBe(10014);
    expect(await client.app.ctx.db.get('emoji_images', created.body.id)).toBeUndefined();
  });

  it(`the ${APPLICATION_EMOJI_MAX + 1}st emoji is refused with 30008 and not stored`, async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    await seedApplicationEmoji(client, w.application.id, w.bot.id, APPLICATION_EMOJI_MAX - 1);
    const base = `/api/v10/applications/${w.application.id}/emojis`;
    expect((await client.post(base, { name: 'last_one', image: PNG }, w.botAuth)).status).toBe(201);
    const refused = await client.post(base, { name: 'one_more', image: PNG }, w.botAuth);
    expect([refused.status, refused.body.code]).toEqual([400, 30008]);
    expect(await countOf(client, 'emojis')).toBe(APPLICATION_EMOJI_MAX);
  });

  it(`the image is a data URI of at most ${EMOJI_IMAGE_MAX_BYTES / 1024} KiB of an image type (50035)`, async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const base = `/api/v10/applications/${w.application.id}/emojis`;
    const big = `data:image/png;base64,${Buffer.alloc(EMOJI_IMAGE_MAX_BYTES + 1).toString('base64')}`;
    const exact = `data:image/png;base64,${Buffer.alloc(EMOJI_IMAGE_MAX_BYTES).toString('base64')}`;
    expect(
      (await client.post(base, { name: 'too_big', image: big }, w.botAuth)).body.errors.image._errors[0].code,
    ).toBe('BINARY_TYPE_MAX_SIZE');
    expect((await client.post(base, { name: 'just_fits', image: exact }, w.botAuth)).status).toBe(201);
    expect((await client.post(base, { name: 'text', image: 'data:text/plain;base64,aGk=' }, w.botAuth)).body.code).toBe(
      50035,
    );
    expect((await client.post(base, { name: 'url', image: 'https://example.com/a.png' }, w.botAuth)).body.code).toBe(
      50035,
    );
    expect((await client.post(base, { name: 'a', image: PNG }, w.botAuth)).body.errors).toHaveProperty('name');
    expect(await countOf(client, 'emojis')).toBe(1);
  });

  it("names are unique per application (50035); another application's emoji are not the bot's (20012); OAuth2 tokens cannot (20002)", async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const base = `/api/v10/applications/${w.application.id}/emojis`;
    await client.post(base, { name: 'gg', image: PNG }, w.botAuth);
    expect((await client.post(base, { name: 'gg', image: PNG }, w.botAuth)).body.errors.name._errors[0].code).toBe(
      'APPLICATION_EMOJI_NAME_ALREADY_TAKEN',
    );
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body;
    expect((await client.get(base, `Bot ${other.bot_token}`)).body.code).toBe(20012);
    expect(
      (
        await client.post(
          `/api/v10/applications/${other.application.id}/emojis`,
          { name: 'gg', image: PNG },
          `Bot ${other.bot_token}`,
        )
      ).status,
    ).toBe(201);
    expect((await client.get(base, w.aliceAuth)).body.code).toBe(20002);
  });
});

describe('POST /guilds/{guild.id}/emojis (spec: bots need CREATE_GUILD_EXPRESSIONS from 2026-02-23)', () => {
  it("before 2026-02-23 MANAGE_GUILD_EXPRESSIONS suffices; the emoji is listed and GUILD_EMOJIS_UPDATE carries the guild's emoji", async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_GUILD_EXPRESSIONS);
    await client.put('/sandbox/clock', { now: '2026-02-22T23:59:59.999Z' });
    const res = await client.post(
      `/api/v10/guilds/${w.guild.id}/emojis`,
      { name: 'cheer', image: PNG, roles: [w.memberRole.id] },
      w.botAuth,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'cheer', roles: [w.memberRole.id], user: { id: w.bot.id } });
    const [event] = await eventsOf(client, 'GUILD_EMOJIS_UPDATE');
    expect(event).toMatchObject({
      data: { guild_id: w.guild.id, emojis: [{ id: res.body.id, name: 'cheer' }] },
      audience: { guild_id: w.guild.id, intent: INTENTS.GUILD_EXPRESSIONS },
    });
    const list = await client.get(`/api/v10/guilds/${w.guild.id}/emojis`, w.botAuth);
    expect(list.body).toEqual([
      expect.objectContaining({ id: res.body.id, user: expect.objectContaining({ id: w.bot.id }) }),
    ]);
    // List Guild Emojis is a bot route (a user's `guilds` scope covers GET /users/@me/guilds only).
    const asUser = await client.get(`/api/v10/guilds/${w.guild.id}/emojis`, w.bobAuth);
    expect([asUser.status, asUser.body.code]).toEqual([403, 20002]);
  });

  it('from 2026-02-23 MANAGE_GUILD_EXPRESSIONS alone is refused (50013, nothing stored); CREATE_GUILD_EXPRESSIONS creates', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_GUILD_EXPRESSIONS);
    await client.put('/sandbox/clock', { now: '2026-02-23T00:00:00.000Z' });
    const refused = await client.post(`/api/v10/guilds/${w.guild.id}/emojis`, { name: 'cheer', image: PNG }, w.botAuth);
    expect([refused.status, refused.body.code]).toEqual([403, 50013]);
    expect(await countOf(client, 'emojis')).toBe(0);
    expect(await eventsOf(client, 'GUILD_EMOJIS_UPDATE')).toEqual([]);
    const role = await client.app.ctx.db.get('roles', w.botRole.id);
    await client.app.ctx.db.put('roles', { ...role!, permissions: String(PERMISSIONS.CREATE_GUILD_EXPRESSIONS) });
    expect(
      (await client.post(`/api/v10/guilds/${w.guild.id}/emojis`, { name: 'cheer', image: PNG }, w.botAuth)).status,
    ).toBe(201);
  });

  it(`a guild holds ${GUILD_EMOJI_MAX} static emoji (30008) and ${GUILD_EMOJI_MAX} animated ones (30018)`, async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.CREATE_GUILD_EXPRESSIONS);
    await client.app.ctx.db.write(['emojis'], async (tx) => {
      for (let i = 0; i < GUILD_EMOJI_MAX; i += 1)
        void tx.store('emojis').add({
          id: String(5000 + i),
          guild_id: w.guild.id,
          name: `s_${i}`,
          roles: [],
          user_id: w.bot.id,
          animated: false,
          created_at: i,
        });
    });
    expect(
      (await client.post(`/api/v10/guilds/${w.guild.id}/emojis`, { name: 'one_more', image: PNG }, w.botAuth)).body
        .code,
    ).toBe(30008);
    expect(
      (await client.post(`/api/v10/guilds/${w.guild.id}/emojis`, { name: 'moving', image: GIF }, w.botAuth)).status,
    ).toBe(201);
  });
});
