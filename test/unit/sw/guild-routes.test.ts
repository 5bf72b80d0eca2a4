// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createTestClient, createWorld, type TestClient } from '../app-harness';

const VIEW = String(PERMISSIONS.VIEW_CHANNEL);

/** A guild owned by alice with the bot in it, an admin bot, and a channel @everyone cannot view. */
async function setup(client: TestClient, botRoles: bigint = 0n) {
  const world = await createWorld(client, 'openid sdk.social_layer guilds');
  const { guild } = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  const botRole = (
    await client.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'bot', permissions: String(botRoles) })
  ).body.role;
  const adminRole = (
    await client.post(`/sandbox/guilds/${guild.id}/roles`, {
      name: 'admin',
      permissions: String(PERMISSIONS.ADMINISTRATOR),
    })
  ).body.role;
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bot.id}`, { roles: [botRole.id] });
  await client.put(`/sandbox/guilds/${guild.id}/members/${world.bob.id}`, {});
  const admin = (await client.post('/sandbox/applications', { name: 'Admin' })).body;
  await client.put(`/sandbox/guilds/${guild.id}/members/${admin.bot.id}`, { roles: [adminRole.id] });
  const hidden = (
    await client.post(`/sandbox/guilds/${guild.id}/channels`, {
      name: 'hidden',
      type: 0,
      permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: VIEW }],
    })
  ).body.channel;
  return { world, guild, botRole, adminRole, hidden, adminAuth: `Bot ${admin.bot_token}` };
}

describe('GET /guilds/{guild.id}/channels (spec: omits channels the bot lacks VIEW_CHANNEL for, from 2026-11-16)', () => {
  it('lists a channel the bot cannot view before 2026-11-16', async () => {
    const client = await createTestClient();
    const { world, guild, hidden } = await setup(client);
    await client.put('/sandbox/clock', { now: '2026-11-15T23:59:59.999Z' });
    const res = await client.get(`/api/v10/guilds/${guild.id}/channels`, world.botAuth);
    expect(res.status).toBe(200);
    expect(res.body.map((c: any) => c.id)).toContain(hidden.id);
    expect(res.body.find((c: any) => c.id === hidden.id).name).toBe('hidden');
  });

  it('omits it from 2026-11-16 (platform clock), keeping the channels the bot can view', async () => {
    const client = await createTestClient();
    const { world, guild, hidden } = await setup(client);
    await client.put('/sandbox/clock', { now: '2026-11-16T00:00:00.000Z' });
    const res = await client.get(`/api/v10/guilds/${guild.id}/channels`, world.botAuth);
    expect(res.body.map((c: any) => c.id)).not.toContain(hidden.id);
    expect(res.body.map((c: any) => c.name)).toContain('general');
  });

  it('answers 403 (50001) to a caller that is not a member, 404 (10004) for an unknown guild', async () => {
    const client = await createTestClient();
    const { guild } = await setup(client);
    const stranger = (await client.post('/sandbox/applications', { name: 'Stranger' })).body;
    const res = await client.get(`/api/v10/guilds/${guild.id}/channels`, `Bot ${stranger.bot_token}`);
    expect([res.status, res.body.code]).toEqual([403, 50001]);
    const unknown = await client.get('/api/v10/guilds/123/channels', `Bot ${stranger.bot_token}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 10004]);
  });
});

describe('GET /users/@me/guilds (spec: each guild includes banner, for OAuth scope guilds)', () => {
  it("answers the user's guilds with banner for a Bearer token with guilds, and for a bot", async () => {
    const client = await createTestClient();
    const { world, guild } = await setup(client);
    const mine = await client.get('/api/v10/users/@me/guilds?with_counts=true', world.bobAuth);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([
      expect.objectContaining({ id: guild.id, name: 'Guild', banner: null, owner: false, approximate_member_count: 4 }),
    ]);
    expect(mine.body[0]).toHaveProperty('banner');
    const bot = await client.get('/api/v10/users/@me/guilds', world.botAuth);
    expect(bot.body.map((g: any) => g.id)).toEqual([guild.id]);
  });

  it('refuses a Bearer token without the guilds scope (403)', async () => {
    const client = await createTestClient();
    const { world } = await setup(client);
    const token = (
      await client.post('/sandbox/tokens', {
        application_id: world.application.id,
        user_id: world.bob.id,
        scopes: 'identify',
      })
    ).body;
    const res = await client.get('/api/v10/users/@me/guilds', `Bearer ${token.access_token}`);
    expect(res.status).toBe(403);
  });
});

describe('roles (spec: guild role route, role member counts route)', () => {
  it('GET /guilds/{id}/roles/{role_id} answers one role; an unknown one is 404 (10011)', async () => {
    const client = await createTestClient();
    const { world, guild, botRole } = await setup(client);
    const res = await client.get(`/api/v10/guilds/${guild.id}/roles/${botRole.id}`, world.botAuth);
    expect(res.body).toMatchObject({ id: botRole.id, name: 'bot', colors: { primary_color: 0 } });
    expect((await client.get(`/api/v10/guilds/${guild.id}/roles/1`, world.botAuth)).body.code).toBe(10011);
  });

  it('GET /guilds/{id}/roles/member-counts answers the number of members per role', async () => {
    const client = await createTestClient();
    const { world, guild, botRole, adminRole } = await setup(client);
    const res = await client.get(`/api/v10/guilds/${guild.id}/roles/member-counts`, world.botAuth);
    expect(res.body).toEqual({ [botRole.id]: 1, [adminRole.id]: 1 });
  });
});

describe('PATCH /guilds/{guild.id}/roles/{role.id}', () => {
  it("changes a role and emits GUILD_ROLE_UPDATE; needs MANAGE_ROLES and a role below the bot's (50013)", async () => {
    const client = await createTestClient();
    const { world, guild, botRole, adminRole, adminAuth } = await setup(client, PERMISSIONS.MANAGE_ROLES);
    const low = (await client.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'low', permissions: '0' })).body.role;
    expect(
      (await client.patch(`/api/v10/guilds/${guild.id}/roles/${adminRole.id}`, { name: 'mine' }, world.botAuth)).body
        .code,
    ).toBe(50013);
    const res = await client.patch(
      `/api/v10/guilds/${guild.id}/roles/${low.id}`,
      { name: 'renamed', permissions: VIEW, colors: { primary_color: 0xff0000 } },
      adminAuth,
    );
    expect(res.body).toMatchObject({
      id: low.id,
      name: 'renamed',
      permissions: VIEW,
      color: 0xff0000,
      colors: { primary_color: 0xff0000 },
    });
    const events = await client.db.getAll('events');
    expect(events.at(-1)).toMatchObject({
      type: 'GUILD_ROLE_UPDATE',
      data: { guild_id: guild.id, role: { id: low.id } },
    });
    expect(
      (await client.patch(`/api/v10/guilds/${guild.id}/roles/${low.id}`, { permissions: 'all' }, adminAuth)).body.code,
    ).toBe(50035);
    expect(botRole.position).toBeLessThan(adminRole.position);
  });
});

describe('role colors (spec: Role.colors; `color` deprecated but still returned and honored; ENHANCED_ROLE_COLORS)', () => {
  /** A guild with or without the feature, a role to edit and an administrator bot. */
  async function colorSetup(features: string[]) {
    const client = await createTestClient();
    const world = await createWorld(client, 'guilds');
    const { guild } = (await client.post('/sandbox/guilds', { name: 'Colors', owner_id: world.alice.id, features }))
      .body;
    const adminRole = (
      await client.post(`/sandbox/guilds/${guild.id}/roles`, {
        name: 'admin',
        permissions: String(PERMISSIONS.ADMINISTRATOR),
      })
    ).body.role;
    const admin = (await client.post('/sandbox/applications', { name: 'Admin' })).body;
    await client.put(`/sandbox/guilds/${guild.id}/members/${admin.bot.id}`, { roles: [adminRole.id] });
    const role = (await client.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'painted', permissions: '0' })).body
      .role;
    const patch = (body: unknown) =>
      client.patch(`/api/v10/guilds/${guild.id}/roles/${role.id}`, body, `Bot ${admin.bot_token}`);
    const stored = () => client.db.get('roles', role.id);
    return { client, guild, role, patch, stored, auth: `Bot ${admin.bot_token}` };
  }

  it('the deprecated `color` is honored: it sets colors.primary_color, and both are returned and stored', async () => {
    const { patch, stored } = await colorSetup([]);
    const res = await patch({ color: 1193046 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      color: 1193046,
      colors: { primary_color: 1193046, secondary_color: null, tertiary_color: null },
    });
    expect(await stored()).toMatchObject({ color: 1193046, colors: { primary_color: 1193046 } });
    // `null` is no colour (0), as the public API reads it.
    expect((await patch({ color: null })).body).toMatchObject({ color: 0, colors: { primary_color: 0 } });
  });

  it('`color` is still returned, mirroring colors.primary_color, when only `colors` is sent; `colors` wins over `color`', async () => {
    const { patch } = await colorSetup([]);
    expect((await patch({ colors: { primary_color: 0x00ff00 } })).body).toMatchObject({ color: 0x00ff00 });
    expect((await patch({ color: 0x111111, colors: { primary_color: 0x222222 } })).body).toMatchObject({
      color: 0x222222,
      colors: { primary_color: 0x222222 },
    });
  });

  it('a guild without ENHANCED_ROLE_COLORS cannot set gradient colors: 400 / 50035 naming the field, and nothing is stored', async () => {
    const { client, patch, stored, guild } = await colorSetup([]);
    const before = await stored();
    const eventsBefore = (await client.db.getAll('events')).length;
    const res = await patch({ colors: { primary_color: 0xff0000, secondary_color: 0x0000ff } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
    expect(res.body.errors.colors.secondary_color._errors[0].message).toContain('ENHANCED_ROLE_COLORS');
    expect((await patch({ colors: { tertiary_color: 0x00ff00 } })).body.errors.colors.tertiary_color).toBeDefined();
    expect(await stored()).toEqual(before);
    expect((await client.db.getAll('events')).length).toBe(eventsBefore);
    // Clearing a gradient (null) is not setting one, and the sandbox's own role route follows the same rule.
    expect((await patch({ colors: { secondary_color: null } })).status).toBe(200);
    const sandbox = await client.post(`/sandbox/guilds/${guild.id}/roles`, {
      name: 'gradient',
      permissions: '0',
      colors: { primary_color: 1, secondary_color: 2 },
    });
    expect(sandbox.body.code).toBe(50035);
  });

  it('a guild with ENHANCED_ROLE_COLORS sets a gradient; a tertiary color makes the role holographic with the fixed values', async () => {
    const { patch, stored } = await colorSetup(['ENHANCED_ROLE_COLORS']);
    const gradient = await patch({ colors: { primary_color: 0xff0000, secondary_color: 0x0000ff } });
    expect(gradient.body).toMatchObject({
      color: 0xff0000,
      colors: { primary_color: 0xff0000, secondary_color: 0x0000ff, tertiary_color: null },
    });
    expect((await stored())!.colors.secondary_color).toBe(0x0000ff);
    // Changing only the deprecated `color` keeps the gradient's other stops.
    expect((await patch({ color: 0x00ff00 })).body.colors).toEqual({
      primary_color: 0x00ff00,
      secondary_color: 0x0000ff,
      tertiary_color: null,
    });
    expect((await patch({ colors: { primary_color: 1, secondary_color: 2, tertiary_color: 3 } })).body).toMatchObject({
      color: 11127295,
      colors: { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 },
    });
  });
});

describe('guild members for bots', () => {
  it('lists members only with the GUILD_MEMBERS privileged intent granted (50001 otherwise)', async () => {
    const client = await createTestClient();
    const { world, guild } = await setup(client);
    expect((await client.get(`/api/v10/guilds/${guild.id}/members?limit=10`, world.botAuth)).body.code).toBe(50001);
    const app = await client.db.get('applications', world.application.id);
    await client.db.put('applications', {
      ...app!,
      flags: String(APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED),
    });
    const res = await client.get(`/api/v10/guilds/${guild.id}/members?limit=10`, world.botAuth);
    expect(res.body).toHaveLength(4);
    const ids = res.body.map((m: any) => m.user.id);
    expect(ids).toEqual([...ids].sort((a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : 1)));
    const page = await client.get(`/api/v10/guilds/${guild.id}/members?limit=2&after=${ids[1]}`, world.botAuth);
    expect(page.body.map((m: any) => m.user.id)).toEqual(ids.slice(2, 4));
  });

  it('gets one member; a non-member is 404 (10007)', async () => {
    const client = await createTestClient();
    const { world, guild } = await setup(client);
    expect((await client.get(`/api/v10/guilds/${guild.id}/members/${world.bob.id}`, world.botAuth)).body.user.id).toBe(
      world.bob.id,
    );
    expect((await client.get(`/api/v10/guilds/${guild.id}/members/1`, world.botAuth)).body.code).toBe(10007);
  });

  it("member roles need MANAGE_ROLES and a role below the bot's highest (50013); nothing changes on failure", async () => {
    const client = await createTestClient();
    const { world, guild, botRole, adminRole, adminAuth } = await setup(client, PERMISSIONS.MANAGE_ROLES);
    const low = (await client.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'low', permissions: '0' })).body.role;
    const put = (role: string, auth: string) =>
      client.put(`/api/v10/guilds/${guild.id}/members/${world.bob.id}/roles/${role}`, undefined, auth);
    // `low` was created after `bot`, so it sits above it: the bot may not hand it out.
    expect((await put(low.id, world.botAuth)).body.code).toBe(50013);
    expect((await put(adminRole.id, world.botAuth)).body.code).toBe(50013);
    expect((await client.db.get('members', [guild.id, world.bob.id]))!.roles).toEqual([]);
    expect((await put(low.id, adminAuth)).status).toBe(204);
    expect((await client.db.get('members', [guild.id, world.bob.id]))!.roles).toEqual([low.id]);
    expect(
      (await client.delete(`/api/v10/guilds/${guild.id}/members/${world.bob.id}/roles/${low.id}`, adminAuth)).status,
    ).toBe(204);
    expect((await client.db.get('members', [guild.id, world.bob.id]))!.roles).toEqual([]);
    expect((await put(guild.id, adminAuth)).body.code).toBe(10011);
    expect(botRole.position).toBeLessThan(low.position);
  });

  it('kicking needs KICK_MEMBERS and never removes the owner', async () => {
    const client = await createTestClient();
    const { world, guild, adminAuth } = await setup(client);
    expect((await client.delete(`/api/v10/guilds/${guild.id}/members/${world.bob.id}`, world.botAuth)).body.code).toBe(
      50013,
    );
    expect((await client.delete(`/api/v10/guilds/${guild.id}/members/${world.alice.id}`, adminAuth)).body.code).toBe(
      50013,
    );
    expect((await client.delete(`/api/v10/guilds/${guild.id}/members/${world.bob.id}`, adminAuth)).status).toBe(204);
    expect(await client.db.get('members', [guild.id, world.bob.id])).toBeUndefined();
  });
});

describe('channel permission overwrites', () => {
  it('PUT needs MANAGE_ROLES (50013), stores the overwrite and emits CHANNEL_UPDATE', async () => {
    const client = await createTestClient();
    const { world, guild, hidden, adminAuth } = await setup(client);
    const general = (await client.get(`/api/v10/guilds/${guild.id}/channels`, world.botAuth)).body.find(
      (c: any) => c.name === 'general',
    );
    const denied = await client.put(
      `/api/v10/channels/${general.id}/permissions/${world.bob.id}`,
      { type: 1, allow: VIEW },
      world.botAuth,
    );
    expect(denied.body.code).toBe(50013);
    const res = await client.put(
      `/api/v10/channels/${hidden.id}/permissions/${world.bob.id}`,
      { type: 1, allow: VIEW },
      adminAuth,
    );
    expect(res.status).toBe(204);
    const channel = await client.db.get('channels', hidden.id);
    expect(channel!.permission_overwrites).toContainEqual({ id: world.bob.id, type: 1, allow: VIEW, deny: '0' });
    const events = await client.db.getAll('events');
    expect(events.at(-1)).toMatchObject({
      type: 'CHANNEL_UPDATE',
      data: { id: hidden.id },
      audience: { guild_id: guild.id },
    });
  });

  it('a bot that cannot view the channel gets 403 (50001); a bot may not grant bits it lacks (50013)', async () => {
    const client = await createTestClient();
    const { world, guild, hidden } = await setup(client, PERMISSIONS.MANAGE_ROLES | PERMISSIONS.VIEW_CHANNEL);
    expect(
      (
        await client.put(
          `/api/v10/channels/${hidden.id}/permissions/${world.bob.id}`,
          { type: 1, allow: VIEW },
          world.botAuth,
        )
      ).body.code,
    ).toBe(50001);
    const general = (await client.get(`/api/v10/guilds/${guild.id}/channels`, world.botAuth)).body.find(
      (c: any) => c.name === 'general',
    );
    const res = await client.put(
      `/api/v10/channels/${general.id}/permissions/${world.bob.id}`,
      { type: 1, allow: String(PERMISSIONS.BAN_MEMBERS) },
      world.botAuth,
    );
    expect(res.body.code).toBe(50013);
    expect(
      (
        await client.put(
          `/api/v10/channels/${general.id}/permissions/${world.bob.id}`,
          { type: 1, deny: VIEW },
          world.botAuth,
        )
      ).status,
    ).toBe(204);
  });

  it('DELETE removes the overwrite; an overwrite that is not there is 404 (10009)', async () => {
    const client = await createTestClient();
    const { world, guild, hidden, adminAuth } = await setup(client);
    expect((await client.delete(`/api/v10/channels/${hidden.id}/permissions/${guild.id}`, adminAuth)).status).toBe(204);
    expect((await client.db.get('channels', hidden.id))!.permission_overwrites).toEqual([]);
    expect(
      (await client.delete(`/api/v10/channels/${hidden.id}/permissions/${world.bob.id}`, adminAuth)).body.code,
    ).toBe(10009);
  });

  it('a body that is not an overwrite is 400 (50035) naming the field', async () => {
    const client = await createTestClient();
    const { world, hidden, adminAuth } = await setup(client);
    const res = await client.put(
      `/api/v10/channels/${hidden.id}/permissions/${world.bob.id}`,
      { type: 3, allow: 'lots' },
      adminAuth,
    );
    expect(res.body.code).toBe(50035);
    expect(Object.keys(res.body.errors).sort()).toEqual(['allow', 'type']);
  });
});
