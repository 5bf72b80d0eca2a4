// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient, type TestClient } from '../app-harness';
import { PERMISSIONS, eventsOf, guildWorld, setRolePermissions } from './guild-admin-fixtures';

type World = Awaited<ReturnType<typeof guildWorld>>;

/** A message bob posts in the text channel with a token of his own. */
async function bobSays(client: TestClient, w: World, content: string) {
  const token = (
    await client.post('/sandbox/tokens', {
      application_id: w.application.id,
      user_id: w.bob.id,
      scopes: 'messages.write',
    })
  ).body.access_token;
  const res = await client.post(`/api/v10/channels/${w.text.id}/messages`, { content }, `Bearer ${token}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const bans = (w: World) => `/api/v10/guilds/${w.guild.id}/bans`;

describe('PUT /guilds/{guild.id}/bans/{user.id} (public docs: BAN_MEMBERS, the role hierarchy)', () => {
  it('bans a member: 204, the member is removed (GUILD_MEMBER_REMOVE), GUILD_BAN_ADD (GUILD_MODERATION), audit MEMBER_BAN_ADD with the reason', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.BAN_MEMBERS | PERMISSIONS.VIEW_AUDIT_LOG);
    const res = await client.request('PUT', `${bans(w)}/${w.bob.id}`, {
      body: {},
      token: w.botAuth,
      headers: { 'X-Audit-Log-Reason': encodeURIComponent('spam, again') },
    });
    expect(res.status).toBe(204);
    expect(await client.db.get('members', [w.guild.id, w.bob.id])).toBeUndefined();
    const [removed] = await eventsOf(client, 'GUILD_MEMBER_REMOVE');
    expect(removed.data).toMatchObject({ guild_id: w.guild.id, user: { id: w.bob.id } });
    const [added] = await eventsOf(client, 'GUILD_BAN_ADD');
    expect(added.data).toMatchObject({ guild_id: w.guild.id, user: { id: w.bob.id } });
    expect(added.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MODERATION });
    const ban = await client.get(`${bans(w)}/${w.bob.id}`, w.botAuth);
    expect(ban.body).toMatchObject({ reason: 'spam, again', user: { id: w.bob.id, username: 'bob' } });
    const audit = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=22`, w.botAuth)).body;
    expect(audit.audit_log_entries).toMatchObject([{ target_id: w.bob.id, user_id: w.bot.id, reason: 'spam, again' }]);
  });

  it('delete_message_seconds deletes the user’s messages of that many seconds by the sandbox clock (MESSAGE_DELETE each)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.BAN_MEMBERS);
    await client.put('/sandbox/clock', { now: '2026-05-01T10:00:00.000Z' });
    const old = await bobSays(client, w, 'two hours ago');
    await client.put('/sandbox/clock', { now: '2026-05-01T11:30:00.000Z' });
    const recent = await bobSays(client, w, 'half an hour ago');
    const botMessage = (await client.post(`/api/v10/channels/${w.text.id}/messages`, { content: 'bot' }, w.botAuth))
      .body;
    await client.put('/sandbox/clock', { now: '2026-05-01T12:00:00.000Z' });
    expect((await client.put(`${bans(w)}/${w.bob.id}`, { delete_message_seconds: 3600 }, w.botAuth)).status).toBe(204);
    const read = (id: string) => client.get(`/api/v10/channels/${w.text.id}/messages/${id}`, w.botAuth);
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.BAN_MEMBERS | PERMISSIONS.READ_MESSAGE_HISTORY);
    expect((await read(recent.id)).body.code).toBe(10008);
    expect((await read(old.id)).status).toBe(200);
    expect((await read(botMessage.id)).status).toBe(200);
    expect((await eventsOf(client, 'MESSAGE_DELETE')).map((e: any) => e.data.id)).toEqual([recent.id]);
  });

  it('delete_message_seconds is 0 to 604800 (50035 past it); nothing is banned', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.BAN_MEMBERS);
    const res = await client.put(`${bans(w)}/${w.bob.id}`, { delete_message_seconds: 604_801 }, w.botAuth);
    expect([res.status, res.body.code]).toEqual([400, 50035]);
    expect(res.body.errors).toHaveProperty('delete_message_seconds');
    expect(await client.db.count('guild_bans')).toBe(0);
    expect((await client.put(`${bans(w)}/${w.bob.id}`, { delete_message_seconds: 604_800 }, w.botAuth)).status).toBe(
      204,
    );
  });

  it('without BAN_MEMBERS 50013; the owner cannot be banned; a member at or above the bot’s highest role neither (50013); an unknown user 10013', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, 0n);
    expect((await client.put(`${bans(w)}/${w.bob.id}`, {}, w.botAuth)).body.code).toBe(50013);
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.BAN_MEMBERS);
    expect((await client.put(`${bans(w)}/${w.alice.id}`, {}, w.botAuth)).body.code).toBe(50013);
    await client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { roles: [w.highRole.id] });
    expect((await client.put(`${bans(w)}/${w.bob.id}`, {}, w.botAuth)).body.code).toBe(50013);
    expect((await client.put(`${bans(w)}/123`, {}, w.botAuth)).body.code).toBe(10013);
    expect(await client.db.count('guild_bans')).toBe(0);
    expect(await eventsOf(client, 'GUILD_BAN_ADD')).toEqual([]);
    // A user who is not a member can be banned ahead of time.
    expect((await client.put(`${bans(w)}/${w.carol.id}`, {}, w.botAuth)).status).toBe(204);
  });

  it('a banned user cannot join again through an invite (403 40007); once unbanned they can', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.BAN_MEMBERS | PERMISSIONS.CREATE_INSTANT_INVITE);
    const invite = (await client.post(`/api/v10/channels/${w.text.id}/invites`, {}, w.botAuth)).body;
    await client.put(`${bans(w)}/${w.carol.id}`, {}, w.botAuth);
    const refused = await client.post(`/sandbox/invites/${invite.code}/accept`, { user_id: w.carol.id });
    expect([refused.status, refused.body.code]).toEqual([403, 40007]);
    expect(await client.db.get('members', [w.guild.id, w.carol.id])).toBeUndefined();
    expect((await client.db.get('invites', invite.code))!.uses).toBe(0);
    expect((await client.delete(`${bans(w)}/${w.carol.id}`, w.botAuth)).status).toBe(204);
    expect((await client.post(`/sandbox/invites/${invite.code}/accept`, { user_id: w.carol.id })).status).toBeLessThan(
      300,
    );
  });
});

describe('GET /guilds/{guild.id}/bans and DELETE .../bans/{user.id}', () => {
  it('lists bans by user id with before / after / limit; an unknown ban is 404 (10026)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.BAN_MEMBERS);
    const users = [w.bob, w.carol, (await client.post('/sandbox/users', { username: 'dave' })).body.user];
    for (const u of users) await client.put(`${bans(w)}/${u.id}`, {}, w.botAuth);
    const ids = users.map((u) => u.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const list = await client.get(bans(w), w.botAuth);
    expect(list.body.map((b: any) => b.user.id)).toEqual(ids);
    expect(list.body[0]).toEqual({ reason: null, user: expect.objectContaining({ id: ids[0] }) });
    expect((await client.get(`${bans(w)}?after=${ids[0]}&limit=1`, w.botAuth)).body.map((b: any) => b.user.id)).toEqual(
      [ids[1]],
    );
    expect(
      (await client.get(`${bans(w)}?before=${ids[2]}&limit=1`, w.botAuth)).body.map((b: any) => b.user.id),
    ).toEqual([ids[1]]);
    expect((await client.get(`${bans(w)}?limit=1001`, w.botAuth)).body.code).toBe(50035);
    expect((await client.get(`${bans(w)}/${w.alice.id}`, w.botAuth)).body.code).toBe(10026);
    expect((await client.delete(`${bans(w)}/${w.alice.id}`, w.botAuth)).body.code).toBe(10026);
  });

  it('unbanning emits GUILD_BAN_REMOVE (GUILD_MODERATION) and audit MEMBER_BAN_REMOVE; reading bans needs BAN_MEMBERS', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.BAN_MEMBERS | PERMISSIONS.VIEW_AUDIT_LOG);
    await client.put(`${bans(w)}/${w.carol.id}`, {}, w.botAuth);
    expect((await client.delete(`${bans(w)}/${w.carol.id}`, w.botAuth)).status).toBe(204);
    const [removed] = await eventsOf(client, 'GUILD_BAN_REMOVE');
    expect(removed.data).toMatchObject({ guild_id: w.guild.id, user: { id: w.carol.id } });
    expect(removed.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MODERATION });
    const audit = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=23`, w.botAuth)).body;
    expect(audit.audit_log_entries).toMatchObject([{ target_id: w.carol.id }]);
    await setRolePermissions(client, w.botRole.id, 0n);
    expect((await client.get(bans(w), w.botAuth)).body.code).toBe(50013);
    expect((await client.get(`${bans(w)}/${w.carol.id}`, w.botAuth)).body.code).toBe(50013);
  });
});

describe('POST /guilds/{guild.id}/bulk-ban (BAN_MEMBERS and MANAGE_GUILD, up to 200 users)', () => {
  it('bans those it can and names the others in failed_users', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.BAN_MEMBERS | PERMISSIONS.MANAGE_GUILD);
    const res = await client.post(
      `/api/v10/guilds/${w.guild.id}/bulk-ban`,
      { user_ids: [w.bob.id, w.carol.id, w.alice.id, '123'] },
      w.botAuth,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ banned_users: [w.bob.id, w.carol.id], failed_users: [w.alice.id, '123'] });
    expect((await eventsOf(client, 'GUILD_BAN_ADD')).map((e: any) => e.data.user.id)).toEqual([w.bob.id, w.carol.id]);
    expect(await client.db.get('members', [w.guild.id, w.bob.id])).toBeUndefined();
  });

  it('when none can be banned it is 400 (500000) and nothing changes; more than 200 users is 50035; MANAGE_GUILD is needed', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.BAN_MEMBERS | PERMISSIONS.MANAGE_GUILD);
    const path = `/api/v10/guilds/${w.guild.id}/bulk-ban`;
    const none = await client.post(path, { user_ids: [w.alice.id] }, w.botAuth);
    expect([none.status, none.body.code]).toEqual([400, 500000]);
    const many = Array.from({ length: 201 }, (_, i) => String(1000n + BigInt(i)));
    expect((await client.post(path, { user_ids: many }, w.botAuth)).body.code).toBe(50035);
    expect((await client.post(path, { user_ids: [] }, w.botAuth)).body.code).toBe(50035);
    expect(await client.db.count('guild_bans')).toBe(0);
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.BAN_MEMBERS);
    expect((await client.post(path, { user_ids: [w.bob.id] }, w.botAuth)).body.code).toBe(50013);
  });
});
