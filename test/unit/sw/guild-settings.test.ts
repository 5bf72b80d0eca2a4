// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient, itInProcess } from '../app-harness';
import { GIF, PERMISSIONS, PNG, eventsOf, guildWorld, otherBot, setRolePermissions } from './guild-admin-fixtures';

describe('PATCH /guilds/{guild.id} (public docs: MANAGE_GUILD, GUILD_UPDATE, audit GUILD_UPDATE)', () => {
  it('renames the guild and sets its icon: the guild object, GUILD_UPDATE (GUILDS) and an audit entry with the changes', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_GUILD | PERMISSIONS.VIEW_AUDIT_LOG);
    const res = await client.request('PATCH', `/api/v10/guilds/${w.guild.id}`, {
      body: { name: '  Raid Night  ', icon: PNG },
      token: w.botAuth,
      headers: { 'X-Audit-Log-Reason': 'season%202' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: w.guild.id, name: 'Raid Night', owner_id: w.alice.id });
    expect(res.body.icon).toMatch(/^[0-9a-f]+$/);
    expect((await client.get(`/api/v10/guilds/${w.guild.id}`, w.botAuth)).body).toMatchObject({
      name: 'Raid Night',
      icon: res.body.icon,
    });
    const [update] = await eventsOf(client, 'GUILD_UPDATE');
    expect(update.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILDS });
    expect(update.data).toMatchObject({ id: w.guild.id, name: 'Raid Night', roles: expect.any(Array) });
    const audit = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=1`, w.botAuth)).body;
    expect(audit.audit_log_entries).toMatchObject([
      {
        target_id: w.guild.id,
        reason: 'season 2',
        changes: [
          { key: 'name', old_value: 'Guild', new_value: 'Raid Night' },
          { key: 'icon', old_value: null, new_value: res.body.icon },
        ],
      },
    ]);
  });

  itInProcess('the CDN answers the uploaded icon at the guild’s icon URL', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_GUILD);
    const { icon } = (await client.patch(`/api/v10/guilds/${w.guild.id}`, { icon: PNG }, w.botAuth)).body;
    const response = await client.app.cdn(new Request(`https://cdn.discordapp.com/icons/${w.guild.id}/${icon}.png`));
    expect(response.headers.get('Content-Type')).toBe('image/png');
    const uploaded = Uint8Array.from(atob(PNG.split(',')[1]), (c) => c.charCodeAt(0));
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([...uploaded]);
  });

  it('a name outside 2-100 characters is 50035; a setting the sandbox does not keep is 50035 naming it; nothing changes', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_GUILD);
    const patch = (body: unknown) => client.patch(`/api/v10/guilds/${w.guild.id}`, body, w.botAuth);
    expect((await patch({ name: 'x' })).body.errors).toHaveProperty('name');
    expect((await patch({ name: 'x'.repeat(101) })).body.errors).toHaveProperty('name');
    const notKept = await patch({ name: 'Fine name', afk_timeout: 60 });
    expect([notKept.status, notKept.body.code]).toEqual([400, 50035]);
    expect(notKept.body.errors).toHaveProperty('afk_timeout');
    expect((await client.db.get('guilds', w.guild.id))!.name).toBe('Guild');
    expect(await eventsOf(client, 'GUILD_UPDATE')).toEqual([]);
  });

  it('without MANAGE_GUILD 50013; a banner needs the BANNER feature; only the owner hands the guild over, to a member', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, 0n);
    const patch = (body: unknown) => client.patch(`/api/v10/guilds/${w.guild.id}`, body, w.botAuth);
    expect((await patch({ name: 'Mine now' })).body.code).toBe(50013);
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.MANAGE_GUILD);
    expect((await patch({ banner: PNG })).body.errors).toHaveProperty('banner');
    expect((await patch({ owner_id: w.bot.id })).body.code).toBe(50013);
    const guild = await client.db.get('guilds', w.guild.id);
    await client.db.put('guilds', { ...guild!, owner_id: w.bot.id, features: ['BANNER'] });
    expect((await patch({ owner_id: w.carol.id })).body.errors).toHaveProperty('owner_id');
    const handed = await patch({ owner_id: w.alice.id, banner: GIF });
    expect(handed.body).toMatchObject({ owner_id: w.alice.id, banner: expect.any(String) });
  });
});

describe('GET / PATCH / DELETE /guilds/{guild.id}/emojis/{emoji.id}', () => {
  async function withEmoji(bits: bigint) {
    const client = await createTestClient();
    const w = await guildWorld(client, bits);
    await client.put('/sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
    const uploader = await otherBot(client, w.guild.id, PERMISSIONS.CREATE_GUILD_EXPRESSIONS);
    const emoji = (
      await client.post(`/api/v10/guilds/${w.guild.id}/emojis`, { name: 'wave', image: PNG }, uploader.auth)
    ).body;
    return { client, w, uploader, emoji };
  }

  it('GET answers the emoji, with its uploader for a caller with an expressions permission; an unknown one is 10014', async () => {
    const { client, w, uploader, emoji } = await withEmoji(0n);
    const plain = await client.get(`/api/v10/guilds/${w.guild.id}/emojis/${emoji.id}`, w.botAuth);
    expect(plain.body).toMatchObject({ id: emoji.id, name: 'wave', roles: [], animated: false });
    expect(plain.body.user).toBeUndefined();
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.MANAGE_GUILD_EXPRESSIONS);
    const full = await client.get(`/api/v10/guilds/${w.guild.id}/emojis/${emoji.id}`, w.botAuth);
    expect(full.body.user).toMatchObject({ id: uploader.bot.id });
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/emojis/123`, w.botAuth)).body.code).toBe(10014);
  });

  it('the uploader with CREATE_GUILD_EXPRESSIONS may rename its emoji; another member needs MANAGE_GUILD_EXPRESSIONS (50013)', async () => {
    const { client, w, uploader, emoji } = await withEmoji(PERMISSIONS.CREATE_GUILD_EXPRESSIONS);
    const path = `/api/v10/guilds/${w.guild.id}/emojis/${emoji.id}`;
    expect((await client.patch(path, { name: 'not_yours' }, w.botAuth)).body.code).toBe(50013);
    const renamed = await client.patch(path, { name: 'wave_hello', roles: [w.memberRole.id] }, uploader.auth);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'wave_hello', roles: [w.memberRole.id] });
    const update = (await eventsOf(client, 'GUILD_EMOJIS_UPDATE')).at(-1)!;
    expect(update.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_EXPRESSIONS });
    expect((update.data as any).emojis).toMatchObject([{ id: emoji.id, name: 'wave_hello' }]);
    expect((await client.patch(path, { roles: ['123'] }, uploader.auth)).body.errors).toHaveProperty('roles');
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.MANAGE_GUILD_EXPRESSIONS | PERMISSIONS.VIEW_AUDIT_LOG);
    expect((await client.patch(path, { roles: null }, w.botAuth)).body.roles).toEqual([]);
    const audit = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=61`, w.botAuth)).body;
    expect(audit.audit_log_entries).toHaveLength(2);
  });

  it('DELETE removes the emoji and its image (204, GUILD_EMOJIS_UPDATE, audit EMOJI_DELETE); others need MANAGE_GUILD_EXPRESSIONS', async () => {
    const { client, w, emoji } = await withEmoji(PERMISSIONS.CREATE_GUILD_EXPRESSIONS);
    const path = `/api/v10/guilds/${w.guild.id}/emojis/${emoji.id}`;
    expect((await client.delete(path, w.botAuth)).body.code).toBe(50013);
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.MANAGE_GUILD_EXPRESSIONS | PERMISSIONS.VIEW_AUDIT_LOG);
    expect((await client.delete(path, w.botAuth)).status).toBe(204);
    expect(await client.db.get('emojis', emoji.id)).toBeUndefined();
    expect(await client.db.get('emoji_images', emoji.id)).toBeUndefined();
    expect(((await eventsOf(client, 'GUILD_EMOJIS_UPDATE')).at(-1)!.data as any).emojis).toEqual([]);
    const audit = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=62`, w.botAuth)).body;
    expect(audit.audit_log_entries).toMatchObject([{ target_id: emoji.id }]);
    expect((await client.delete(path, w.botAuth)).body.code).toBe(10014);
  });
});

describe('GET /guilds/{guild.id}/members/search', () => {
  it('finds members whose username or nickname starts with the query, at most limit (1 unless given)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    await client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { nick: 'Alpha Bob' });
    const search = (q: string) => client.get(`/api/v10/guilds/${w.guild.id}/members/search?${q}`, w.botAuth);
    const one = await search('query=al');
    expect(one.status).toBe(200);
    expect(one.body).toHaveLength(1);
    const all = await search('query=AL&limit=10');
    expect(all.body.map((m: any) => m.user.id).sort()).toEqual([w.alice.id, w.bob.id].sort());
    expect((await search('query=zz&limit=10')).body).toEqual([]);
    expect((await search('limit=10')).body.code).toBe(50035);
    expect((await search('query=a&limit=1001')).body.code).toBe(50035);
    expect((await search('query=a&limit=0')).body.code).toBe(50035);
  });
});

describe('PUT /guilds/{guild.id}/members/{user.id} (an OAuth2 access token with guilds.join)', () => {
  async function joinWorld(bits: bigint) {
    const client = await createTestClient();
    const w = await guildWorld(client, bits);
    const token = async (scopes: string) =>
      (await client.post('/sandbox/tokens', { application_id: w.application.id, user_id: w.carol.id, scopes })).body
        .access_token as string;
    return { client, w, token };
  }

  it('adds the user: 201 with the member, GUILD_MEMBER_ADD (GUILD_MEMBERS) and GUILD_CREATE to them; 204 when already a member', async () => {
    const { client, w, token } = await joinWorld(
      PERMISSIONS.CREATE_INSTANT_INVITE | PERMISSIONS.MANAGE_NICKNAMES | PERMISSIONS.MANAGE_ROLES,
    );
    const access_token = await token('identify guilds.join');
    const path = `/api/v10/guilds/${w.guild.id}/members/${w.carol.id}`;
    const res = await client.put(path, { access_token, nick: 'Carol', roles: [w.memberRole.id] }, w.botAuth);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user: { id: w.carol.id }, nick: 'Carol', roles: [w.memberRole.id] });
    const [added] = await eventsOf(client, 'GUILD_MEMBER_ADD');
    expect(added.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MEMBERS });
    expect((await eventsOf(client, 'GUILD_CREATE')).at(-1)!.audience).toEqual({ user_ids: [w.carol.id] });
    const again = await client.put(path, { access_token }, w.botAuth);
    expect(again.status).toBe(204);
  });

  it('a token without guilds.join, of another user or another application is 403 (50025); nothing is added', async () => {
    const { client, w, token } = await joinWorld(PERMISSIONS.CREATE_INSTANT_INVITE);
    const path = `/api/v10/guilds/${w.guild.id}/members/${w.carol.id}`;
    expect((await client.put(path, { access_token: await token('identify') }, w.botAuth)).body.code).toBe(50025);
    expect((await client.put(path, { access_token: 'not-a-token' }, w.botAuth)).body.code).toBe(50025);
    const bobs = w.bobTokens.access_token;
    expect((await client.put(path, { access_token: bobs }, w.botAuth)).body.code).toBe(50025);
    expect(await client.db.get('members', [w.guild.id, w.carol.id])).toBeUndefined();
  });

  it('needs CREATE_INSTANT_INVITE, and the permission of each field (nick MANAGE_NICKNAMES, roles MANAGE_ROLES); a banned user is 40007', async () => {
    const { client, w, token } = await joinWorld(0n);
    // @everyone may create invites by default: here it may not.
    await setRolePermissions(client, w.guild.id, 0n);
    const access_token = await token('guilds.join');
    const path = `/api/v10/guilds/${w.guild.id}/members/${w.carol.id}`;
    expect((await client.put(path, { access_token }, w.botAuth)).body.code).toBe(50013);
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.CREATE_INSTANT_INVITE | PERMISSIONS.BAN_MEMBERS);
    expect((await client.put(path, { access_token, nick: 'C' }, w.botAuth)).body.code).toBe(50013);
    expect((await client.put(path, { access_token, roles: [w.memberRole.id] }, w.botAuth)).body.code).toBe(50013);
    await client.put(`/api/v10/guilds/${w.guild.id}/bans/${w.carol.id}`, {}, w.botAuth);
    const banned = await client.put(path, { access_token }, w.botAuth);
    expect([banned.status, banned.body.code]).toEqual([403, 40007]);
    expect(await client.db.get('members', [w.guild.id, w.carol.id])).toBeUndefined();
  });
});

describe('GET /guilds/{guild.id}/invites (MANAGE_GUILD)', () => {
  it('lists the guild’s invites with their metadata; without MANAGE_GUILD 50013', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.CREATE_INSTANT_INVITE);
    const invite = (await client.post(`/api/v10/channels/${w.text.id}/invites`, { max_uses: 5 }, w.botAuth)).body;
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/invites`, w.botAuth)).body.code).toBe(50013);
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.MANAGE_GUILD);
    const res = await client.get(`/api/v10/guilds/${w.guild.id}/invites`, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject([{ code: invite.code, max_uses: 5, uses: 0 }]);
  });
});

describe('PATCH /guilds/{guild.id}/voice-states/@me and /{user.id} (stage channels)', () => {
  async function stageWorld(bits: bigint) {
    const client = await createTestClient();
    const w = await guildWorld(client, bits);
    const stage = (await client.post(`/sandbox/guilds/${w.guild.id}/channels`, { name: 'Stage', type: 13 })).body
      .channel;
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bot.id}`, { channel_id: stage.id });
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: stage.id });
    return { client, w, stage };
  }

  it('a bot suppresses itself, asks to speak with REQUEST_TO_SPEAK, and unsuppresses another with MUTE_MEMBERS (204, VOICE_STATE_UPDATE)', async () => {
    const { client, w, stage } = await stageWorld(PERMISSIONS.REQUEST_TO_SPEAK | PERMISSIONS.MUTE_MEMBERS);
    await client.put('/sandbox/clock', { now: '2026-06-01T12:00:00.000Z' });
    const me = `/api/v10/guilds/${w.guild.id}/voice-states/@me`;
    expect((await client.patch(me, { channel_id: stage.id, suppress: true }, w.botAuth)).status).toBe(204);
    expect(
      (
        await client.patch(
          me,
          { channel_id: stage.id, request_to_speak_timestamp: '2026-06-01T12:00:00.000Z' },
          w.botAuth,
        )
      ).status,
    ).toBe(204);
    const mine = (await client.get(me, w.botAuth)).body;
    expect(mine).toMatchObject({ suppress: true, request_to_speak_timestamp: '2026-06-01T12:00:00.000Z' });
    const bob = `/api/v10/guilds/${w.guild.id}/voice-states/${w.bob.id}`;
    expect((await client.patch(bob, { channel_id: stage.id, suppress: true }, w.botAuth)).status).toBe(204);
    expect((await client.get(bob, w.botAuth)).body.suppress).toBe(true);
    const update = (await eventsOf(client, 'VOICE_STATE_UPDATE')).at(-1)!;
    expect(update.data).toMatchObject({ user_id: w.bob.id, suppress: true });
  });

  it('a voice channel that is not a stage is 400 (50024); a past request to speak 50035; without MUTE_MEMBERS another user is 50013', async () => {
    const { client, w, stage } = await stageWorld(PERMISSIONS.REQUEST_TO_SPEAK);
    await client.put('/sandbox/clock', { now: '2026-06-01T12:00:00.000Z' });
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.alice.id}`, { channel_id: w.voice.id });
    const alice = `/api/v10/guilds/${w.guild.id}/voice-states/${w.alice.id}`;
    const notStage = await client.patch(alice, { channel_id: w.voice.id, suppress: true }, w.botAuth);
    expect([notStage.status, notStage.body.code]).toEqual([400, 50024]);
    const me = `/api/v10/guilds/${w.guild.id}/voice-states/@me`;
    expect(
      (await client.patch(me, { request_to_speak_timestamp: '2026-06-01T11:00:00.000Z' }, w.botAuth)).body.code,
    ).toBe(50035);
    expect((await client.patch(me, { suppress: false }, w.botAuth)).body.code).toBe(50013);
    const bob = `/api/v10/guilds/${w.guild.id}/voice-states/${w.bob.id}`;
    expect((await client.patch(bob, { channel_id: stage.id, suppress: true }, w.botAuth)).body.code).toBe(50013);
    expect(
      (
        await client.patch(
          `/api/v10/guilds/${w.guild.id}/voice-states/${w.carol.id}`,
          { channel_id: stage.id },
          w.botAuth,
        )
      ).body.code,
    ).toBe(10065);
  });
});
