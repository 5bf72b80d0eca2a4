// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient } from '../app-harness';
import { PERMISSIONS, countOf, eventsOf, guildWorld } from './guild-admin-fixtures';

describe('current user voice state and user voice state routes (spec: a voice state without a gateway connection)', () => {
  it('GET /guilds/{id}/voice-states/@me and /{user.id} answer the stored voice state', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bot.id}`, { channel_id: w.voice.id });
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: w.voice.id });
    const mine = await client.get(`/api/v10/guilds/${w.guild.id}/voice-states/@me`, w.botAuth);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      guild_id: w.guild.id,
      channel_id: w.voice.id,
      user_id: w.bot.id,
      mute: false,
      deaf: false,
      self_mute: false,
      suppress: false,
      member: { user: { id: w.bot.id } },
    });
    expect(typeof mine.body.session_id).toBe('string');
    const bobs = await client.get(`/api/v10/guilds/${w.guild.id}/voice-states/${w.bob.id}`, w.botAuth);
    expect(bobs.body).toMatchObject({ user_id: w.bob.id, channel_id: w.voice.id });
    const own = await client.get(`/api/v10/guilds/${w.guild.id}/voice-states/@me`, w.bobAuth);
    expect(own.body.user_id).toBe(w.bob.id);
  });

  it('a user not in voice has no voice state: 404 (10065)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const res = await client.get(`/api/v10/guilds/${w.guild.id}/voice-states/@me`, w.botAuth);
    expect([res.status, res.body.code]).toEqual([404, 10065]);
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: w.voice.id });
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: null });
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/voice-states/${w.bob.id}`, w.botAuth)).body.code).toBe(
      10065,
    );
  });

  it('a caller that is not a member of the guild gets 403 (50001)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const stranger = (await client.post('/sandbox/applications', { name: 'Stranger' })).body;
    const res = await client.get(`/api/v10/guilds/${w.guild.id}/voice-states/${w.bob.id}`, `Bot ${stranger.bot_token}`);
    expect([res.status, res.body.code]).toEqual([403, 50001]);
  });
});

describe('PUT /sandbox/guilds/{id}/voice-states/{user_id} emits VOICE_STATE_UPDATE (GUILD_VOICE_STATES)', () => {
  it("joining, moving and leaving each emit VOICE_STATE_UPDATE to the guild (GUILD_VOICE_STATES) and to the user's own sessions; leaving carries channel_id null", async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const second = (await client.post(`/sandbox/guilds/${w.guild.id}/channels`, { name: 'Second', type: 2 })).body
      .channel;
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: w.voice.id });
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: w.voice.id });
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: second.id });
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: null });
    const events = await eventsOf(client, 'VOICE_STATE_UPDATE');
    expect(events.map((e) => (e.data as any).channel_id)).toEqual([w.voice.id, second.id, null]);
    expect(events[0].audience).toEqual({
      guild_id: w.guild.id,
      intent: INTENTS.GUILD_VOICE_STATES,
      user_ids: [w.bob.id],
    });
  });

  it('refuses a text channel (50024), a channel of another guild (50035) and a non-member (10007), storing nothing', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    expect(
      (await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: w.text.id })).body.code,
    ).toBe(50024);
    const other = (await client.post('/sandbox/guilds', { name: 'Other', owner_id: w.bob.id })).body;
    const otherVoice = other.channels.find((c: any) => c.type === 2);
    expect(
      (await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bob.id}`, { channel_id: otherVoice.id })).body
        .code,
    ).toBe(50035);
    expect(
      (await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.carol.id}`, { channel_id: w.voice.id })).body
        .code,
    ).toBe(10007);
    expect(await countOf(client, 'voice_states')).toBe(0);
  });
});

describe('PUT /channels/{id}/voice-status: MANAGE_CHANNELS only when the bot is not connected to the channel (spec)', () => {
  it('a bot connected to the voice channel needs SET_VOICE_CHANNEL_STATUS only', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.SET_VOICE_CHANNEL_STATUS);
    const before = await client.put(`/api/v10/channels/${w.voice.id}/voice-status`, { status: 'Raid' }, w.botAuth);
    expect([before.status, before.body.code]).toEqual([403, 50013]);
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bot.id}`, { channel_id: w.voice.id });
    expect(
      (await client.put(`/api/v10/channels/${w.voice.id}/voice-status`, { status: 'Raid' }, w.botAuth)).status,
    ).toBe(204);
  });

  it('a bot connected to another voice channel still needs MANAGE_CHANNELS', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.SET_VOICE_CHANNEL_STATUS);
    const second = (await client.post(`/sandbox/guilds/${w.guild.id}/channels`, { name: 'Second', type: 2 })).body
      .channel;
    await client.put(`/sandbox/guilds/${w.guild.id}/voice-states/${w.bot.id}`, { channel_id: second.id });
    expect(
      (await client.put(`/api/v10/channels/${w.voice.id}/voice-status`, { status: 'Raid' }, w.botAuth)).body.code,
    ).toBe(50013);
  });
});

describe('audit log: VOICE_CHANNEL_STATUS_UPDATE (192, options.status) and VOICE_CHANNEL_STATUS_DELETE (193)', () => {
  it('setting a status records 192 with options.status, clearing it records 193; GET /guilds/{id}/audit-logs?action_type filters', async () => {
    const client = await createTestClient();
    const w = await guildWorld(
      client,
      PERMISSIONS.SET_VOICE_CHANNEL_STATUS | PERMISSIONS.MANAGE_CHANNELS | PERMISSIONS.VIEW_AUDIT_LOG,
    );
    await client.put(`/api/v10/channels/${w.voice.id}/voice-status`, { status: 'Raid night' }, w.botAuth);
    await client.put(`/api/v10/channels/${w.voice.id}/voice-status`, { status: 'Raid night' }, w.botAuth);
    await client.put(`/api/v10/channels/${w.voice.id}/voice-status`, { status: null }, w.botAuth);
    const all = await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs`, w.botAuth);
    expect(all.status).toBe(200);
    expect(all.body.audit_log_entries.map((e: any) => e.action_type)).toEqual([193, 192]);
    expect(all.body.audit_log_entries[1]).toMatchObject({
      action_type: 192,
      target_id: w.voice.id,
      user_id: w.bot.id,
      options: { status: 'Raid night' },
    });
    expect(all.body.audit_log_entries[0]).not.toHaveProperty('options');
    expect(all.body.users.map((u: any) => u.id)).toEqual([w.bot.id]);
    const updates = await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=192`, w.botAuth);
    expect(updates.body.audit_log_entries.map((e: any) => e.action_type)).toEqual([192]);
  });

  it('a refused status change records nothing', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client, PERMISSIONS.SET_VOICE_CHANNEL_STATUS);
    await client.put(`/api/v10/channels/${w.voice.id}/voice-status`, { status: 'Raid' }, w.botAuth);
    expect(await countOf(client, 'audit_log_entries')).toBe(0);
  });
});
