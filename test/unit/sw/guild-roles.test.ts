// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient } from '../app-harness';
import { PERMISSIONS, countOf, eventsOf, guildWorld, setRolePermissions } from './guild-admin-fixtures';

const rolesOf = async (client: Awaited<ReturnType<typeof createTestClient>>, guildId: string, auth: string) =>
  (await client.get(`/api/v10/guilds/${guildId}/roles`, auth)).body as { id: string; name: string; position: number }[];

describe('POST /guilds/{guild.id}/roles (public docs: MANAGE_ROLES, GUILD_ROLE_CREATE, audit ROLE_CREATE)', () => {
  it('creates a role at position 1 with the defaults, moves the others up, emits GUILD_ROLE_CREATE (GUILDS) and ROLE_CREATE', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_ROLES);
    const res = await client.post(`/api/v10/guilds/${w.guild.id}/roles`, {}, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'new role', position: 1, hoist: false, mentionable: false, color: 0 });
    const everyone = (await rolesOf(client, w.guild.id, w.botAuth)).find((r) => r.id === w.guild.id)!;
    expect(res.body.permissions).toBe((everyone as any).permissions);
    const roles = await rolesOf(client, w.guild.id, w.botAuth);
    expect(roles.map((r) => [r.name, r.position])).toEqual([
      ['@everyone', 0],
      ['new role', 1],
      ['member', 2],
      ['bot', 3],
      ['high', 4],
    ]);
    const [created] = await eventsOf(client, 'GUILD_ROLE_CREATE').then((e) => e.slice(-1));
    expect(created.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILDS });
    expect(created.data).toMatchObject({ guild_id: w.guild.id, role: { id: res.body.id } });
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.MANAGE_ROLES | PERMISSIONS.VIEW_AUDIT_LOG);
    const entries = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=30`, w.botAuth)).body;
    expect(entries.audit_log_entries).toMatchObject([{ action_type: 30, user_id: w.bot.id, target_id: res.body.id }]);
  });

  it('takes name, permissions, color, hoist and mentionable', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_ROLES | PERMISSIONS.KICK_MEMBERS);
    const res = await client.post(
      `/api/v10/guilds/${w.guild.id}/roles`,
      {
        name: 'Raiders',
        permissions: String(PERMISSIONS.KICK_MEMBERS),
        color: 0x3498db,
        hoist: true,
        mentionable: true,
      },
      w.botAuth,
    );
    expect(res.body).toMatchObject({
      name: 'Raiders',
      permissions: String(PERMISSIONS.KICK_MEMBERS),
      color: 0x3498db,
      colors: { primary_color: 0x3498db },
      hoist: true,
      mentionable: true,
    });
  });

  it('without MANAGE_ROLES is 403 (50013), granting a permission the bot lacks is 50013; nothing stored', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, 0n);
    const before = await client.db.count('roles');
    expect((await client.post(`/api/v10/guilds/${w.guild.id}/roles`, {}, w.botAuth)).body.code).toBe(50013);
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.MANAGE_ROLES);
    const refused = await client.post(
      `/api/v10/guilds/${w.guild.id}/roles`,
      { permissions: String(PERMISSIONS.BAN_MEMBERS) },
      w.botAuth,
    );
    expect([refused.status, refused.body.code]).toEqual([403, 50013]);
    expect(await client.db.count('roles')).toBe(before);
    expect(await eventsOf(client, 'GUILD_ROLE_CREATE')).toHaveLength(3);
  });

  it('a guild holds at most 250 roles: the 251st is 400 (30005)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_ROLES);
    const roles = Array.from({ length: 250 - 4 }, (_, i) => ({
      id: String(BigInt(w.guild.id) + 1000n + BigInt(i)),
      guild_id: w.guild.id,
      name: `filler ${i}`,
      permissions: '0',
      position: 0,
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      managed: false,
      mentionable: false,
      icon: null,
      unicode_emoji: null,
    }));
    await client.db.putAll('roles', roles);
    const res = await client.post(`/api/v10/guilds/${w.guild.id}/roles`, { name: 'one too many' }, w.botAuth);
    expect([res.status, res.body.code]).toEqual([400, 30005]);
  });
});

describe('PATCH /guilds/{guild.id}/roles (positions, with the role hierarchy)', () => {
  it('moves a role, renumbers the others around it, answers every role and emits GUILD_ROLE_UPDATE for each moved role', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_ROLES);
    const low = (await client.post(`/api/v10/guilds/${w.guild.id}/roles`, { name: 'low' }, w.botAuth)).body;
    // low 1, member 2, bot 3, high 4: the bot moves low above member.
    const before = (await eventsOf(client, 'GUILD_ROLE_UPDATE')).length;
    const res = await client.patch(`/api/v10/guilds/${w.guild.id}/roles`, [{ id: low.id, position: 2 }], w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => [r.name, r.position])).toEqual([
      ['@everyone', 0],
      ['member', 1],
      ['low', 2],
      ['bot', 3],
      ['high', 4],
    ]);
    const updates = (await eventsOf(client, 'GUILD_ROLE_UPDATE')).slice(before);
    expect(updates.map((e: any) => e.data.role.name).sort()).toEqual(['low', 'member']);
  });

  it('a role at or above the bot’s highest, or a place at or above it, is 403 (50013); the owner may move any; @everyone cannot move', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_ROLES);
    const path = `/api/v10/guilds/${w.guild.id}/roles`;
    expect((await client.patch(path, [{ id: w.highRole.id, position: 1 }], w.botAuth)).body.code).toBe(50013);
    expect((await client.patch(path, [{ id: w.memberRole.id, position: 3 }], w.botAuth)).body.code).toBe(50013);
    expect((await client.patch(path, [{ id: w.guild.id, position: 2 }], w.botAuth)).body.code).toBe(50035);
    // Every role listed at its place, as libraries send it, with one that moves below the bot's.
    const all = await client.patch(
      path,
      [
        { id: w.guild.id, position: 0 },
        { id: w.memberRole.id, position: 1 },
        { id: w.botRole.id, position: 2 },
        { id: w.highRole.id, position: 3 },
      ],
      w.botAuth,
    );
    expect(all.status).toBe(200);
    expect((await client.patch(path, [{ id: '1', position: 2 }], w.botAuth)).body.code).toBe(50035);
    expect(
      (await rolesOf(client, w.guild.id, w.botAuth)).map((r) => r.name),
      'nothing moved',
    ).toEqual(['@everyone', 'member', 'bot', 'high']);
    // The owner's own bot: make the bot the owner.
    const guild = await client.db.get('guilds', w.guild.id);
    await client.db.put('guilds', { ...guild!, owner_id: w.bot.id });
    const res = await client.patch(path, [{ id: w.highRole.id, position: 1 }], w.botAuth);
    expect(res.body.map((r: any) => r.name)).toEqual(['@everyone', 'high', 'member', 'bot']);
  });
});

describe('DELETE /guilds/{guild.id}/roles/{role.id}', () => {
  it('deletes a role below the bot’s: 204, members lose it, GUILD_ROLE_DELETE (GUILDS) and audit ROLE_DELETE', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_ROLES | PERMISSIONS.VIEW_AUDIT_LOG);
    await client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { roles: [w.memberRole.id] });
    const text = await client.db.get('channels', w.text.id);
    await client.db.put('channels', {
      ...text!,
      permission_overwrites: [{ id: w.memberRole.id, type: 0, allow: '1024', deny: '0' }],
    });
    const res = await client.delete(`/api/v10/guilds/${w.guild.id}/roles/${w.memberRole.id}`, w.botAuth);
    expect(res.status).toBe(204);
    expect(await client.db.get('roles', w.memberRole.id)).toBeUndefined();
    expect((await client.db.get('members', [w.guild.id, w.bob.id]))!.roles).toEqual([]);
    const [deleted] = await eventsOf(client, 'GUILD_ROLE_DELETE');
    expect(deleted.data).toEqual({ guild_id: w.guild.id, role_id: w.memberRole.id });
    expect(deleted.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILDS });
    const audit = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=32`, w.botAuth)).body;
    expect(audit.audit_log_entries).toMatchObject([{ action_type: 32, target_id: w.memberRole.id }]);
    expect((await client.db.get('channels', w.text.id))!.permission_overwrites).toEqual([]);
    const [channelUpdate] = await eventsOf(client, 'CHANNEL_UPDATE');
    expect(channelUpdate.data).toMatchObject({ id: w.text.id, permission_overwrites: [] });
  });

  it('@everyone cannot be deleted (400 50028), an unknown role is 404 (10011), a role at or above the bot’s is 50013; nothing changes', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_ROLES);
    const del = (id: string) => client.delete(`/api/v10/guilds/${w.guild.id}/roles/${id}`, w.botAuth);
    expect([(await del(w.guild.id)).status, (await del(w.guild.id)).body.code]).toEqual([400, 50028]);
    expect((await del('123')).body.code).toBe(10011);
    expect((await del(w.highRole.id)).body.code).toBe(50013);
    expect((await del(w.botRole.id)).body.code).toBe(50013);
    expect(await client.db.count('roles')).toBe(4);
    expect(await countOf(client, 'audit_log_entries')).toBe(0);
    await setRolePermissions(client, w.botRole.id, 0n);
    expect((await del(w.memberRole.id)).body.code).toBe(50013);
  });
});

describe('PATCH /guilds/{guild.id}/roles/{role.id} writes ROLE_UPDATE', () => {
  it('a changed name is an audit ROLE_UPDATE entry with the old and new value', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_ROLES | PERMISSIONS.VIEW_AUDIT_LOG);
    await client.patch(`/api/v10/guilds/${w.guild.id}/roles/${w.memberRole.id}`, { name: 'members' }, w.botAuth);
    const audit = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=31`, w.botAuth)).body;
    expect(audit.audit_log_entries).toMatchObject([
      { target_id: w.memberRole.id, changes: [{ key: 'name', old_value: 'member', new_value: 'members' }] },
    ]);
  });
});
