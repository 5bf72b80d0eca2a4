// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INVITE_MAX_AGE_DEFAULT_S, INVITE_MAX_AGE_MAX_S, INVITE_MAX_USES_MAX } from '../../../src/platform/core/limits';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient } from '../app-harness';
import { PERMISSIONS, countOf, csvForm, eventsOf, guildWorld, otherBot } from './guild-admin-fixtures';

const INVITE = PERMISSIONS.CREATE_INSTANT_INVITE;

describe('POST /channels/{channel.id}/invites (CREATE_INSTANT_INVITE)', () => {
  it('creates an invite with the platform defaults (24 hours, unlimited uses) and emits INVITE_CREATE to GUILD_INVITES', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    await client.put('/sandbox/clock', { now: '2026-01-01T00:00:00.000Z' });
    const res = await client.post(`/api/v10/channels/${w.text.id}/invites`, {}, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 0,
      guild: { id: w.guild.id },
      channel: { id: w.text.id, type: 0 },
      inviter: { id: w.bot.id },
      max_age: INVITE_MAX_AGE_DEFAULT_S,
      max_uses: 0,
      uses: 0,
      temporary: false,
      roles: [],
      expires_at: '2026-01-02T00:00:00.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
    });
    expect(res.body.code).toMatch(/^[A-Za-z0-9]{10}$/);
    const [event] = await eventsOf(client, 'INVITE_CREATE');
    expect(event).toMatchObject({
      data: { code: res.body.code, channel_id: w.text.id, guild_id: w.guild.id },
      audience: { guild_id: w.guild.id, intent: INTENTS.GUILD_INVITES },
    });
  });

  it('refuses a bot without CREATE_INSTANT_INVITE in the channel (50013) and stores nothing', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    // @everyone has CREATE_INSTANT_INVITE by default: deny it on the channel for this test.
    await client.app.ctx.db.put('channels', {
      ...(await client.app.ctx.db.get('channels', w.text.id))!,
      permission_overwrites: [{ id: w.guild.id, type: 0, allow: '0', deny: String(INVITE) }],
    });
    const res = await client.post(`/api/v10/channels/${w.text.id}/invites`, {}, w.botAuth);
    expect([res.status, res.body.code]).toEqual([403, 50013]);
    expect(await countOf(client, 'invites')).toBe(0);
    expect(await eventsOf(client, 'INVITE_CREATE')).toEqual([]);
  });

  it(`max_age is 0 to ${INVITE_MAX_AGE_MAX_S} and max_uses 0 to ${INVITE_MAX_USES_MAX} (50035 naming each field)`, async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const res = await client.post(
      `/api/v10/channels/${w.text.id}/invites`,
      { max_age: INVITE_MAX_AGE_MAX_S + 1, max_uses: INVITE_MAX_USES_MAX + 1 },
      w.botAuth,
    );
    expect(res.body.code).toBe(50035);
    expect(Object.keys(res.body.errors).sort()).toEqual(['max_age', 'max_uses']);
    const never = await client.post(
      `/api/v10/channels/${w.text.id}/invites`,
      { max_age: 0, max_uses: INVITE_MAX_USES_MAX },
      w.botAuth,
    );
    expect(never.body).toMatchObject({ max_age: 0, expires_at: null, max_uses: INVITE_MAX_USES_MAX });
  });

  it('an invite expires max_age seconds after it was made, by the platform clock', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    await client.put('/sandbox/clock', { now: '2026-03-01T12:00:00.000Z' });
    const { code } = (await client.post(`/api/v10/channels/${w.text.id}/invites`, { max_age: 3600 }, w.botAuth)).body;
    await client.put('/sandbox/clock', { now: '2026-03-01T12:59:59.999Z' });
    expect((await client.get(`/api/v10/invites/${code}`, w.botAuth)).status).toBe(200);
    await client.put('/sandbox/clock', { now: '2026-03-01T13:00:00.000Z' });
    const gone = await client.get(`/api/v10/invites/${code}`, w.botAuth);
    expect([gone.status, gone.body.code]).toEqual([404, 10006]);
    const accept = await client.post(`/sandbox/invites/${code}/accept`, { user_id: w.carol.id });
    expect(accept.body.code).toBe(10006);
    expect(await client.app.ctx.db.get('members', [w.guild.id, w.carol.id])).toBeUndefined();
    expect(
      (
        await client.get(
          `/api/v10/channels/${w.text.id}/invites`,
          (
            await otherBot(client, w.guild.id, PERMISSIONS.MANAGE_CHANNELS)
          ).auth,
        )
      ).body,
    ).toEqual([]);
  });

  it('max_uses: accepting uses the invite up; it is then deleted (INVITE_DELETE) and refused (10006)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const { code } = (await client.post(`/api/v10/channels/${w.text.id}/invites`, { max_uses: 1 }, w.botAuth)).body;
    const first = await client.post(`/sandbox/invites/${code}/accept`, { user_id: w.carol.id });
    expect(first.body).toMatchObject({ joined: true, member: { user: { id: w.carol.id }, roles: [] } });
    expect((await eventsOf(client, 'INVITE_DELETE')).map((e) => e.data)).toEqual([
      { channel_id: w.text.id, guild_id: w.guild.id, code },
    ]);
    const dave = (await client.post('/sandbox/users', { username: 'dave' })).body.user;
    expect((await client.post(`/sandbox/invites/${code}/accept`, { user_id: dave.id })).body.code).toBe(10006);
  });

  it('unique: without it a similar live invite is answered again; with it a new one is made', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const a = (await client.post(`/api/v10/channels/${w.text.id}/invites`, { max_age: 600 }, w.botAuth)).body;
    const b = (await client.post(`/api/v10/channels/${w.text.id}/invites`, { max_age: 600 }, w.botAuth)).body;
    expect(b.code).toBe(a.code);
    const c = (await client.post(`/api/v10/channels/${w.text.id}/invites`, { max_age: 600, unique: true }, w.botAuth))
      .body;
    expect(c.code).not.toBe(a.code);
    const d = (await client.post(`/api/v10/channels/${w.text.id}/invites`, { max_age: 300 }, w.botAuth)).body;
    expect(d.code).not.toBe(a.code);
    expect(await eventsOf(client, 'INVITE_CREATE')).toHaveLength(3);
  });

  it('temporary is stored and answered', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const res = await client.post(`/api/v10/channels/${w.text.id}/invites`, { temporary: true }, w.botAuth);
    expect(res.body.temporary).toBe(true);
  });

  it('accepting adds the member (GUILD_MEMBER_ADD to the guild, GUILD_CREATE to the user) and counts a use; a member already in the guild uses nothing', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const { code } = (await client.post(`/api/v10/channels/${w.text.id}/invites`, { max_uses: 5 }, w.botAuth)).body;
    await client.post(`/sandbox/invites/${code}/accept`, { user_id: w.carol.id });
    const [add] = await eventsOf(client, 'GUILD_MEMBER_ADD').then((e) =>
      e.filter((x) => (x.data as any).user.id === w.carol.id),
    );
    expect(add.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MEMBERS });
    expect((await eventsOf(client, 'GUILD_CREATE')).at(-1)!.audience).toEqual({ user_ids: [w.carol.id] });
    const again = await client.post(`/sandbox/invites/${code}/accept`, { user_id: w.bob.id });
    expect(again.body.joined).toBe(false);
    expect((await client.app.ctx.db.get('invites', code))!.uses).toBe(1);
    expect((await client.post(`/sandbox/invites/${code}/accept`, { user_id: w.bot.id })).status).toBe(403);
  });
});

describe('invite role_ids (roles granted on accept; the bot must be able to manage them)', () => {
  it('grants the roles on accept', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE | PERMISSIONS.MANAGE_ROLES);
    const res = await client.post(`/api/v10/channels/${w.text.id}/invites`, { role_ids: [w.memberRole.id] }, w.botAuth);
    expect(res.status).toBe(200);
    const accepted = await client.post(`/sandbox/invites/${res.body.code}/accept`, { user_id: w.carol.id });
    expect(accepted.body.member.roles).toEqual([w.memberRole.id]);
    expect((await client.app.ctx.db.get('members', [w.guild.id, w.carol.id]))!.roles).toEqual([w.memberRole.id]);
  });

  it("needs MANAGE_ROLES (50013), a role below the bot's highest (50013), no permission the bot lacks (50013), and a role of the guild (50035); nothing is stored", async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const post = (body: unknown) => client.post(`/api/v10/channels/${w.text.id}/invites`, body, w.botAuth);
    expect((await post({ role_ids: [w.memberRole.id] })).body.code).toBe(50013);
    const role = await client.app.ctx.db.get('roles', w.botRole.id);
    await client.app.ctx.db.put('roles', { ...role!, permissions: String(INVITE | PERMISSIONS.MANAGE_ROLES) });
    expect((await post({ role_ids: [w.highRole.id] })).body.code).toBe(50013);
    const member = await client.app.ctx.db.get('roles', w.memberRole.id);
    await client.app.ctx.db.put('roles', { ...member!, permissions: String(PERMISSIONS.BAN_MEMBERS) });
    expect((await post({ role_ids: [w.memberRole.id] })).body.code).toBe(50013);
    const unknown = await post({ role_ids: ['1', w.guild.id] });
    expect(unknown.body.code).toBe(50035);
    expect(Object.keys(unknown.body.errors.role_ids).sort()).toEqual(['0', '1']);
    expect(await countOf(client, 'invites')).toBe(0);
  });
});

describe('GET /channels/{channel.id}/invites (MANAGE_CHANNELS)', () => {
  it("each invite's roles are partial objects with only id, name, position, color, colors, icon, unicode_emoji", async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE | PERMISSIONS.MANAGE_ROLES | PERMISSIONS.MANAGE_CHANNELS);
    await client.post(`/api/v10/channels/${w.text.id}/invites`, { role_ids: [w.memberRole.id] }, w.botAuth);
    const res = await client.get(`/api/v10/channels/${w.text.id}/invites`, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(Object.keys(res.body[0].roles[0]).sort()).toEqual([
      'color',
      'colors',
      'icon',
      'id',
      'name',
      'position',
      'unicode_emoji',
    ]);
    expect(res.body[0].roles[0]).toMatchObject({
      id: w.memberRole.id,
      name: 'member',
      position: w.memberRole.position,
    });
    expect(res.body[0]).toMatchObject({ uses: 0, max_uses: 0, max_age: INVITE_MAX_AGE_DEFAULT_S, temporary: false });
  });

  it('refuses a bot without MANAGE_CHANNELS (50013)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const res = await client.get(`/api/v10/channels/${w.text.id}/invites`, w.botAuth);
    expect([res.status, res.body.code]).toEqual([403, 50013]);
  });
});

describe('GET and DELETE /invites/{code}', () => {
  it('GET answers the invite, with approximate counts when with_counts=true; an unknown code is 404 (10006)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const { code } = (await client.post(`/api/v10/channels/${w.text.id}/invites`, {}, w.botAuth)).body;
    const res = await client.get(`/api/v10/invites/${code}?with_counts=true`, w.bobAuth);
    expect(res.body).toMatchObject({ code, guild: { id: w.guild.id }, approximate_member_count: 3 });
    expect(res.body).not.toHaveProperty('uses');
    expect((await client.get('/api/v10/invites/nope', w.botAuth)).body.code).toBe(10006);
  });

  it('DELETE needs MANAGE_CHANNELS or MANAGE_GUILD, answers the invite and emits INVITE_DELETE', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const { code } = (await client.post(`/api/v10/channels/${w.text.id}/invites`, {}, w.botAuth)).body;
    expect((await client.delete(`/api/v10/invites/${code}`, w.botAuth)).body.code).toBe(50013);
    expect(await client.app.ctx.db.get('invites', code)).toBeDefined();
    const manager = await otherBot(client, w.guild.id, PERMISSIONS.MANAGE_GUILD);
    const res = await client.delete(`/api/v10/invites/${code}`, manager.auth);
    expect(res.body).toMatchObject({ code, channel: { id: w.text.id } });
    expect((await eventsOf(client, 'INVITE_DELETE')).map((e) => e.data)).toEqual([
      { channel_id: w.text.id, guild_id: w.guild.id, code },
    ]);
    expect((await client.get(`/api/v10/invites/${code}`, w.botAuth)).body.code).toBe(10006);
  });

  it('a multipart create takes its other fields as form fields or payload_json', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, INVITE);
    const res = await client.request('POST', `/api/v10/channels/${w.text.id}/invites`, {
      raw: csvForm(`${w.carol.id}\n`, { payload_json: JSON.stringify({ max_age: 120 }), max_uses: '3' }),
      token: w.botAuth,
    });
    expect(res.body).toMatchObject({ max_age: 120, max_uses: 3 });
  });
});
