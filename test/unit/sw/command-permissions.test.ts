// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient } from '../app-harness';
import { PERMISSIONS, eventsOf, guildWorld } from './guild-admin-fixtures';

const SCOPE = 'identify applications.commands.permissions.update';

async function world() {
  const client = await createTestClient();
  const w = await guildWorld(client);
  const token = async (userId: string, scopes = SCOPE) =>
    `Bearer ${(await client.post('/sandbox/tokens', { application_id: w.application.id, user_id: userId, scopes })).body.access_token}`;
  const command = (
    await client.post(
      `/api/v10/applications/${w.application.id}/guilds/${w.guild.id}/commands`,
      { name: 'duel', description: 'Duel', type: 1 },
      w.botAuth,
    )
  ).body;
  const base = `/api/v10/applications/${w.application.id}/guilds/${w.guild.id}/commands`;
  return { client, w, token, command, base, url: `${base}/${command.id}/permissions` };
}

describe('application command permissions', () => {
  it('the guild owner’s Bearer token (applications.commands.permissions.update) sets them; the bot reads them; APPLICATION_COMMAND_PERMISSIONS_UPDATE reaches the bot', async () => {
    const { client, w, token, command, base, url } = await world();
    const permissions = [
      { id: w.memberRole.id, type: 1, permission: true },
      { id: w.bob.id, type: 2, permission: false },
      { id: (BigInt(w.guild.id) - 1n).toString(), type: 3, permission: true },
    ];
    const res = await client.put(url, { permissions }, await token(w.alice.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: command.id, application_id: w.application.id, guild_id: w.guild.id, permissions });
    expect((await client.get(url, w.botAuth)).body).toEqual(res.body);
    expect((await client.get(`${base}/permissions`, w.botAuth)).body).toEqual([res.body]);
    const [event] = await eventsOf(client, 'APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    expect(event.audience).toEqual({ user_ids: [w.bot.id] });
    expect(event.data).toEqual(res.body);
    // The application's id stands for all its commands.
    const all = await client.put(
      `${base}/${w.application.id}/permissions`,
      { permissions: [{ id: w.guild.id, type: 1, permission: false }] },
      await token(w.alice.id),
    );
    expect(all.body.id).toBe(w.application.id);
    expect((await client.get(`${base}/permissions`, w.botAuth)).body).toHaveLength(2);
  });

  it('a command without permissions is 404 (10066); an unknown command 404 (10063)', async () => {
    const { client, w, token, base, url } = await world();
    expect((await client.get(url, w.botAuth)).body.code).toBe(10066);
    expect((await client.put(`${base}/123/permissions`, { permissions: [] }, await token(w.alice.id))).body.code).toBe(
      10063,
    );
  });

  it('PUT needs the scope (403), a user’s token not a bot’s, and MANAGE_GUILD with MANAGE_ROLES (50013); nothing stored', async () => {
    const { client, w, token, url } = await world();
    const body = { permissions: [{ id: w.memberRole.id, type: 1, permission: true }] };
    expect((await client.put(url, body, w.botAuth)).status).toBe(403);
    expect((await client.put(url, body, await token(w.alice.id, 'identify'))).status).toBe(403);
    expect((await client.put(url, body, await token(w.bob.id))).body.code).toBe(50013);
    const role = await client.db.get('roles', w.memberRole.id);
    await client.db.put('roles', {
      ...role!,
      permissions: String(PERMISSIONS.MANAGE_GUILD | PERMISSIONS.MANAGE_ROLES),
    });
    await client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { roles: [w.memberRole.id] });
    expect(await client.db.count('application_command_permissions')).toBe(0);
    expect((await client.put(url, body, await token(w.bob.id))).status).toBe(200);
  });

  it('at most 100 entries, each a role, user or channel of the guild (50035, nothing stored)', async () => {
    const { client, w, token, url } = await world();
    const alice = await token(w.alice.id);
    const many = Array.from({ length: 101 }, () => ({ id: w.bob.id, type: 2, permission: true }));
    expect((await client.put(url, { permissions: many }, alice)).body.errors).toHaveProperty('permissions');
    const unknownRole = await client.put(url, { permissions: [{ id: w.bob.id, type: 1, permission: true }] }, alice);
    expect(unknownRole.body.code).toBe(50035);
    expect(await client.db.count('application_command_permissions')).toBe(0);
    expect(await eventsOf(client, 'APPLICATION_COMMAND_PERMISSIONS_UPDATE')).toHaveLength(0);
  });
});
