// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient, createWorld } from '../app-harness';
import { PERMISSIONS, countOf, eventsOf, guildWorld } from './guild-admin-fixtures';

describe('POST /guilds (spec: removed for apps; unavailable from 2025-07-15)', () => {
  it('before 2025-07-15 a bot creates a guild it owns (201, GUILD_CREATE to the bot)', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    await client.put('/sandbox/clock', { now: '2025-07-14T23:59:59.999Z' });
    const res = await client.post('/api/v10/guilds', { name: 'Bot Guild' }, w.botAuth);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Bot Guild',
      owner_id: w.bot.id,
      roles: [{ id: res.body.id, name: '@everyone' }],
    });
    expect(await client.db.get('members', [res.body.id, w.bot.id])).toBeDefined();
    expect((await eventsOf(client, 'GUILD_CREATE')).at(-1)!.audience).toEqual({ user_ids: [w.bot.id] });
  });

  it('from 2025-07-15 every application caller gets 403 (20001) and no guild is made', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    await client.put('/sandbox/clock', { now: '2025-07-15T00:00:00.000Z' });
    const guilds = await client.db.count('guilds');
    for (const auth of [w.botAuth, w.aliceAuth]) {
      const res = await client.post('/api/v10/guilds', { name: 'Bot Guild' }, auth);
      expect([res.status, res.body.code]).toEqual([403, 20001]);
      expect(res.body.message).toMatch(/2025-07-15/);
    }
    expect(await client.db.count('guilds')).toBe(guilds);
  });

  it('before the date an OAuth2 token cannot (20002), and a bad name is 400 (50035)', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    await client.put('/sandbox/clock', { now: '2025-01-01T00:00:00.000Z' });
    expect((await client.post('/api/v10/guilds', { name: 'User Guild' }, w.aliceAuth)).body.code).toBe(20002);
    expect((await client.post('/api/v10/guilds', { name: 'x' }, w.botAuth)).body.code).toBe(50035);
  });
});

describe('POST /guilds/{guild.id}/scheduled-events (spec: bots need CREATE_EVENTS from 2026-02-23)', () => {
  const external = (start: string, end: string) => ({
    name: 'Tournament',
    entity_type: 3,
    entity_metadata: { location: 'Arena' },
    scheduled_start_time: start,
    scheduled_end_time: end,
  });

  it('before 2026-02-23 MANAGE_EVENTS suffices; the event is stored, listed and emits GUILD_SCHEDULED_EVENT_CREATE', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_EVENTS);
    await client.put('/sandbox/clock', { now: '2026-02-22T23:59:59.999Z' });
    const res = await client.post(
      `/api/v10/guilds/${w.guild.id}/scheduled-events`,
      external('2026-03-01T20:00:00.000Z', '2026-03-01T22:00:00.000Z'),
      w.botAuth,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      guild_id: w.guild.id,
      name: 'Tournament',
      entity_type: 3,
      status: 1,
      privacy_level: 2,
      creator_id: w.bot.id,
      entity_metadata: { location: 'Arena' },
      scheduled_start_time: '2026-03-01T20:00:00.000Z',
    });
    expect(
      (await client.get(`/api/v10/guilds/${w.guild.id}/scheduled-events`, w.botAuth)).body.map((e: any) => e.id),
    ).toEqual([res.body.id]);
    const [event] = await eventsOf(client, 'GUILD_SCHEDULED_EVENT_CREATE');
    expect(event.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_SCHEDULED_EVENTS });
  });

  it('from 2026-02-23 MANAGE_EVENTS alone is refused (50013, nothing stored) and CREATE_EVENTS is needed', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.MANAGE_EVENTS);
    await client.put('/sandbox/clock', { now: '2026-02-23T00:00:00.000Z' });
    const refused = await client.post(
      `/api/v10/guilds/${w.guild.id}/scheduled-events`,
      external('2026-03-01T20:00:00.000Z', '2026-03-01T22:00:00.000Z'),
      w.botAuth,
    );
    expect([refused.status, refused.body.code]).toEqual([403, 50013]);
    expect(await countOf(client, 'guild_scheduled_events')).toBe(0);
    const role = await client.db.get('roles', w.botRole.id);
    await client.db.put('roles', { ...role!, permissions: String(PERMISSIONS.CREATE_EVENTS) });
    expect(
      (
        await client.post(
          `/api/v10/guilds/${w.guild.id}/scheduled-events`,
          external('2026-03-01T20:00:00.000Z', '2026-03-01T22:00:00.000Z'),
          w.botAuth,
        )
      ).status,
    ).toBe(200);
  });

  it('a voice event needs a voice channel, where the bits are read; an external one a location and an end; the start is in the future', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.CREATE_EVENTS);
    await client.put('/sandbox/clock', { now: '2026-04-01T00:00:00.000Z' });
    const post = (body: unknown) => client.post(`/api/v10/guilds/${w.guild.id}/scheduled-events`, body, w.botAuth);
    const voice = await post({
      name: 'Raid',
      entity_type: 2,
      channel_id: w.voice.id,
      scheduled_start_time: '2026-04-02T00:00:00.000Z',
    });
    expect(voice.body).toMatchObject({ channel_id: w.voice.id, entity_type: 2, entity_metadata: null });
    expect(
      (
        await post({
          name: 'Raid',
          entity_type: 2,
          channel_id: w.text.id,
          scheduled_start_time: '2026-04-02T00:00:00.000Z',
        })
      ).body.errors,
    ).toHaveProperty('channel_id');
    expect(
      (
        await post({
          name: 'Raid',
          entity_type: 3,
          scheduled_start_time: '2026-04-02T00:00:00.000Z',
          scheduled_end_time: '2026-04-03T00:00:00.000Z',
        })
      ).body.errors,
    ).toHaveProperty('entity_metadata');
    expect(
      (
        await post({
          name: 'Raid',
          entity_type: 2,
          channel_id: w.voice.id,
          scheduled_start_time: '2026-03-31T00:00:00.000Z',
        })
      ).body.errors,
    ).toHaveProperty('scheduled_start_time');
    await client.db.put('channels', {
      ...(await client.db.get('channels', w.voice.id))!,
      permission_overwrites: [{ id: w.botRole.id, type: 0, allow: '0', deny: String(PERMISSIONS.CREATE_EVENTS) }],
    });
    expect(
      (
        await post({
          name: 'Raid',
          entity_type: 2,
          channel_id: w.voice.id,
          scheduled_start_time: '2026-04-02T00:00:00.000Z',
        })
      ).body.code,
    ).toBe(50013);
  });
});

describe('GET /guilds/{guild.id}/audit-logs (VIEW_AUDIT_LOG)', () => {
  it('needs VIEW_AUDIT_LOG (50013); pages newest first with limit and before', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.SET_VOICE_CHANNEL_STATUS | PERMISSIONS.MANAGE_CHANNELS);
    for (const status of ['a', 'b', 'c'])
      await client.put(`/api/v10/channels/${w.voice.id}/voice-status`, { status }, w.botAuth);
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs`, w.botAuth)).body.code).toBe(50013);
    const role = await client.db.get('roles', w.botRole.id);
    await client.db.put('roles', { ...role!, permissions: String(PERMISSIONS.VIEW_AUDIT_LOG) });
    const first = await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?limit=2`, w.botAuth);
    expect(first.body.audit_log_entries.map((e: any) => e.options.status)).toEqual(['c', 'b']);
    const next = await client.get(
      `/api/v10/guilds/${w.guild.id}/audit-logs?before=${first.body.audit_log_entries[1].id}`,
      w.botAuth,
    );
    expect(next.body.audit_log_entries.map((e: any) => e.options.status)).toEqual(['a']);
    expect(
      (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?user_id=${w.bob.id}`, w.botAuth)).body
        .audit_log_entries,
    ).toEqual([]);
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?limit=101`, w.botAuth)).body.code).toBe(50035);
  });

  it('before at or below after is an empty page, not an error; before above after keeps the entries between', async () => {
    const client = await createTestClient();
    const w = await guildWorld(
      client,
      PERMISSIONS.SET_VOICE_CHANNEL_STATUS | PERMISSIONS.MANAGE_CHANNELS | PERMISSIONS.VIEW_AUDIT_LOG,
    );
    for (const status of ['a', 'b', 'c'])
      await client.put(`/api/v10/channels/${w.voice.id}/voice-status`, { status }, w.botAuth);
    const all = await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs`, w.botAuth);
    const [c, b, a] = all.body.audit_log_entries.map((e: { id: string }) => e.id);
    expect(all.body.audit_log_entries).toHaveLength(3);
    for (const [before, after] of [
      [a, c],
      [b, b],
    ]) {
      for (const type of ['', '&action_type=192']) {
        const page = await client.get(
          `/api/v10/guilds/${w.guild.id}/audit-logs?before=${before}&after=${after}${type}`,
          w.botAuth,
        );
        expect(page.status).toBe(200);
        expect(page.body.audit_log_entries).toEqual([]);
      }
    }
    const between = await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?before=${c}&after=${a}`, w.botAuth);
    expect(between.body.audit_log_entries.map((e: { id: string }) => e.id)).toEqual([b]);
  });
});

describe('user primary_guild (spec: guild tag of 1 to 4 characters)', () => {
  it('PUT /sandbox/users/{id}/primary-guild sets the tag; the user object carries it; USER_UPDATE reaches the user', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const res = await client.put(`/sandbox/users/${w.bob.id}/primary-guild`, { guild_id: w.guild.id, tag: 'PPWB' });
    expect(res.body.user.primary_guild).toEqual({
      identity_guild_id: w.guild.id,
      identity_enabled: true,
      tag: 'PPWB',
      badge: null,
    });
    const me = await client.get('/api/v10/users/@me', w.bobAuth);
    expect(me.body.primary_guild).toMatchObject({ tag: 'PPWB', identity_guild_id: w.guild.id });
    const member = await client.get(`/api/v10/guilds/${w.guild.id}/members/${w.bob.id}`, w.botAuth);
    expect(member.body.user.primary_guild.tag).toBe('PPWB');
    expect((await eventsOf(client, 'USER_UPDATE')).at(-1)).toMatchObject({
      audience: { user_ids: [w.bob.id] },
      data: { primary_guild: { tag: 'PPWB' } },
    });
    expect((await client.delete(`/sandbox/users/${w.bob.id}/primary-guild`)).body.user.primary_guild).toBeNull();
  });

  it('a tag is 1 to 4 characters (an emoji counts as one); 0 or 5 is 400 (50035) and nothing changes', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    expect(
      (await client.put(`/sandbox/users/${w.bob.id}/primary-guild`, { guild_id: w.guild.id, tag: 'A' })).status,
    ).toBe(200);
    expect(
      (await client.put(`/sandbox/users/${w.bob.id}/primary-guild`, { guild_id: w.guild.id, tag: '🎮🎮🎮🎮' })).status,
    ).toBe(200);
    for (const tag of ['', 'ABCDE']) {
      const res = await client.put(`/sandbox/users/${w.bob.id}/primary-guild`, { guild_id: w.guild.id, tag });
      expect([res.status, res.body.code, Object.keys(res.body.errors)]).toEqual([400, 50035, ['tag']]);
    }
    expect((await client.db.get('users', w.bob.id))!.primary_guild!.tag).toBe('🎮🎮🎮🎮');
  });

  it('the user must be a member of the guild (50035)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const res = await client.put(`/sandbox/users/${w.carol.id}/primary-guild`, { guild_id: w.guild.id, tag: 'PP' });
    expect(res.body.errors).toHaveProperty('guild_id');
  });
});
