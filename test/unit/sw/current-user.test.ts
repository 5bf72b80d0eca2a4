// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient } from '../app-harness';
import { PNG, eventsOf, guildWorld } from './guild-admin-fixtures';

async function world() {
  const client = await createTestClient();
  const w = await guildWorld(client);
  return { client, w };
}

describe('PATCH /users/@me (a bot’s own user)', () => {
  it('changes the username, avatar and banner, emits USER_UPDATE to the bot only, and the CDN serves the uploaded avatar', async () => {
    const { client, w } = await world();
    const res = await client.patch('/api/v10/users/@me', { username: 'Helper', avatar: PNG, banner: PNG }, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: w.bot.id, username: 'Helper', bot: true });
    expect(res.body.avatar).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.banner).toBe(res.body.avatar);
    expect((await client.get('/api/v10/users/@me', w.botAuth)).body.username).toBe('Helper');
    const [update] = await eventsOf(client, 'USER_UPDATE');
    expect(update.audience).toEqual({ user_ids: [w.bot.id] });
    expect(update.data).toMatchObject({ username: 'Helper', avatar: res.body.avatar });
    const cleared = await client.patch('/api/v10/users/@me', { avatar: null }, w.botAuth);
    expect(cleared.body.avatar).toBeNull();
    expect(await eventsOf(client, 'USER_UPDATE')).toHaveLength(2);
    await client.patch('/api/v10/users/@me', { username: 'Helper' }, w.botAuth);
    expect(await eventsOf(client, 'USER_UPDATE')).toHaveLength(2);
  });

  it('usernames follow the docs: 2-32 characters, no @ # : or ```, not "discord", "everyone" or "here" (50035, nothing stored)', async () => {
    const { client, w } = await world();
    for (const username of ['x', 'a'.repeat(33), 'a@b', 'a#b', 'a:b', 'a```b', 'MyDiscordBot', 'everyone', 'here']) {
      const res = await client.patch('/api/v10/users/@me', { username }, w.botAuth);
      expect([res.status, res.body.code], username).toEqual([400, 50035]);
      expect(res.body.errors, username).toHaveProperty('username');
    }
    expect(
      (await client.patch('/api/v10/users/@me', { avatar: 'not an image' }, w.botAuth)).body.errors,
    ).toHaveProperty('avatar');
    expect((await client.db.get('users', w.bot.id))!.username).toBe(w.bot.username);
    expect(await eventsOf(client, 'USER_UPDATE')).toHaveLength(0);
  });

  it('a user’s OAuth2 token cannot modify the user (the route is a bot’s)', async () => {
    const { client, w } = await world();
    expect((await client.patch('/api/v10/users/@me', { username: 'Alicia' }, w.aliceAuth)).status).toBe(403);
  });
});

describe('DELETE /users/@me/guilds/{guild.id} (leave a guild)', () => {
  it('the bot leaves (204): GUILD_MEMBER_REMOVE to the guild (GUILD_MEMBERS intent), GUILD_DELETE to the bot', async () => {
    const { client, w } = await world();
    expect((await client.delete(`/api/v10/users/@me/guilds/${w.guild.id}`, w.botAuth)).status).toBe(204);
    expect(await client.db.get('members', [w.guild.id, w.bot.id])).toBeUndefined();
    const [removed] = await eventsOf(client, 'GUILD_MEMBER_REMOVE');
    expect(removed.data).toMatchObject({ guild_id: w.guild.id, user: { id: w.bot.id } });
    expect(removed.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MEMBERS });
    const [deleted] = await eventsOf(client, 'GUILD_DELETE');
    expect(deleted).toMatchObject({ data: { id: w.guild.id }, audience: { user_ids: [w.bot.id] } });
    const again = await client.delete(`/api/v10/users/@me/guilds/${w.guild.id}`, w.botAuth);
    expect([again.status, again.body.code]).toEqual([404, 10004]);
  });

  it('the owner cannot leave its guild (400 50055, still a member)', async () => {
    const { client, w } = await world();
    await client.put('/sandbox/clock', { now: '2025-01-01T00:00:00.000Z' });
    const owned = (await client.post('/api/v10/guilds', { name: 'Bot Guild' }, w.botAuth)).body;
    const res = await client.delete(`/api/v10/users/@me/guilds/${owned.id}`, w.botAuth);
    expect([res.status, res.body.code]).toEqual([400, 50055]);
    expect(await client.db.get('members', [owned.id, w.bot.id])).toBeDefined();
  });

  it('leaving drops the leaver’s interest in the guild’s scheduled events (GUILD_SCHEDULED_EVENT_USER_REMOVE)', async () => {
    const { client, w } = await world();
    await client.put('/sandbox/clock', { now: '2026-03-10T12:00:00.000Z' });
    const role = await client.db.get('roles', w.botRole.id);
    await client.db.put('roles', { ...role!, permissions: String(1n << 44n) });
    const event = (
      await client.post(
        `/api/v10/guilds/${w.guild.id}/scheduled-events`,
        { name: 'Raid', entity_type: 2, channel_id: w.voice.id, scheduled_start_time: '2026-03-12T20:00:00Z' },
        w.botAuth,
      )
    ).body;
    await client.put(`/sandbox/guilds/${w.guild.id}/scheduled-events/${event.id}/users/${w.bot.id}`);
    await client.delete(`/api/v10/users/@me/guilds/${w.guild.id}`, w.botAuth);
    expect(await client.db.count('guild_scheduled_event_users')).toBe(0);
    expect((await eventsOf(client, 'GUILD_SCHEDULED_EVENT_USER_REMOVE'))[0].data).toMatchObject({ user_id: w.bot.id });
  });
});

describe('GET /users/@me/guilds/{guild.id}/member (scope guilds.members.read)', () => {
  it('answers the user’s own member object; not a member is 404 (10004); without the scope 403', async () => {
    const { client, w } = await world();
    const token = async (scopes: string) =>
      `Bearer ${(await client.post('/sandbox/tokens', { application_id: w.application.id, user_id: w.bob.id, scopes })).body.access_token}`;
    const bob = await token('identify guilds.members.read');
    const res = await client.get(`/api/v10/users/@me/guilds/${w.guild.id}/member`, bob);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { id: w.bob.id }, roles: [] });
    expect((await client.get(`/api/v10/users/@me/guilds/123/member`, bob)).body.code).toBe(10004);
    expect((await client.get(`/api/v10/users/@me/guilds/${w.guild.id}/member`, await token('identify'))).status).toBe(
      403,
    );
  });
});
