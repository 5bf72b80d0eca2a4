// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { deny, eventsOf, expectError, expectInvalidField, messageWorld } from './messages-fixtures';

/** The message world with a bot that may manage channels and read the audit log. */
async function channelWorld(bits: bigint = PERMISSIONS.MANAGE_CHANNELS | PERMISSIONS.VIEW_AUDIT_LOG) {
  const w = await messageWorld();
  await w.grant(w.bot.id, bits);
  const guildChannels = `/api/v10/guilds/${w.guild.id}/channels`;
  const channelPath = (id: string) => `/api/v10/channels/${id}`;
  const audit = async () =>
    (await w.client.get(`/api/v10/guilds/${w.guild.id}/audit-logs`, w.botAuth)).body.audit_log_entries.map((e: any) => [
      e.action_type,
      e.target_id,
    ]);
  return { ...w, guildChannels, channelPath, audit };
}

describe('guild channels over HTTP: POST / PATCH /guilds/{id}/channels, PATCH / DELETE /channels/{id}', () => {
  it('POST /guilds/{id}/channels (MANAGE_CHANNELS) creates a channel, 201, with CHANNEL_CREATE (GUILDS intent) and a CHANNEL_CREATE audit entry', async () => {
    const w = await channelWorld();
    const created = await w.client.post(
      w.guildChannels,
      { name: 'builds', topic: 'CI', rate_limit_per_user: 30, nsfw: true },
      w.botAuth,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      name: 'builds',
      type: 0,
      topic: 'CI',
      rate_limit_per_user: 30,
      nsfw: true,
      guild_id: w.guild.id,
    });
    const voice = (
      await w.client.post(w.guildChannels, { name: 'Talk', type: 2, bitrate: 32000, user_limit: 5 }, w.botAuth)
    ).body;
    expect(voice).toMatchObject({ type: 2, bitrate: 32000, user_limit: 5 });
    const events = await eventsOf(w.client, 'CHANNEL_CREATE');
    expect(events.map((e) => (e.data as any).id)).toEqual([created.body.id, voice.id]);
    expect(events[0].audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILDS });
    expect((await w.audit()).slice(0, 2)).toEqual([
      [10, voice.id],
      [10, created.body.id],
    ]);
  });

  it('limits: name 1-100, topic 1024, slowmode 0-21600, voice settings only on voice channels, 500 channels per guild (30013); nothing stored on a refusal', async () => {
    const w = await channelWorld();
    const before = await w.client.db.count('channels');
    const post = (body: unknown) => w.client.post(w.guildChannels, body, w.botAuth);
    expectInvalidField(await post({ name: '' }), 'name');
    expectInvalidField(await post({ name: 'x'.repeat(101) }), 'name');
    expectInvalidField(await post({ name: 'x', topic: 't'.repeat(1025) }), 'topic');
    expectInvalidField(await post({ name: 'x', rate_limit_per_user: 21601 }), 'rate_limit_per_user');
    expectInvalidField(await post({ name: 'x', bitrate: 64000 }), 'bitrate');
    expectInvalidField(await post({ name: 'x', type: 4, topic: 'no' }), 'topic');
    expectInvalidField(await post({ name: 'x', parent_id: w.general.id }), 'parent_id');
    expect(await w.client.db.count('channels')).toBe(before);
    const model = (await w.client.db.get('channels', w.general.id))!;
    await Promise.all(
      Array.from({ length: 500 - before }, (_, i) =>
        w.client.db.put('channels', { ...model, id: String(BigInt(model.id) + 1000n + BigInt(i)) }),
      ),
    );
    expectError(await post({ name: 'one too many' }), 400, 30013);
  });

  it('MANAGE_CHANNELS is needed (50013), and overwrites also need MANAGE_ROLES; a user token is 20002', async () => {
    const w = await messageWorld();
    const path = `/api/v10/guilds/${w.guild.id}/channels`;
    expectError(await w.client.post(path, { name: 'x' }, w.botAuth), 403, 50013);
    expectError(await w.client.patch(`/api/v10/channels/${w.general.id}`, { name: 'x' }, w.botAuth), 403, 50013);
    expectError(await w.client.delete(`/api/v10/channels/${w.general.id}`, w.botAuth), 403, 50013);
    await w.grant(w.bot.id, PERMISSIONS.MANAGE_CHANNELS);
    const overwrite = [{ id: w.guild.id, type: 0, deny: String(PERMISSIONS.SEND_MESSAGES) }];
    expectError(await w.client.post(path, { name: 'x', permission_overwrites: overwrite }, w.botAuth), 403, 50013);
    expectError(
      await w.client.patch(`/api/v10/channels/${w.general.id}`, { permission_overwrites: overwrite }, w.botAuth),
      403,
      50013,
    );
    expectError(await w.client.post(path, { name: 'x' }, w.aliceAuth), 403, 20002);
    const hidden = await w.channel({ permission_overwrites: [deny(w.guild.id, PERMISSIONS.VIEW_CHANNEL)] });
    expectError(await w.client.patch(`/api/v10/channels/${hidden.id}`, { name: 'x' }, w.botAuth), 403, 50001);
    expect((await w.client.db.get('channels', w.general.id))!.name).toBe('general');
  });

  it('PATCH /channels/{id} changes name, topic, slowmode, nsfw, parent and overwrites; CHANNEL_UPDATE and a CHANNEL_UPDATE audit entry name what changed', async () => {
    const w = await channelWorld(
      PERMISSIONS.MANAGE_CHANNELS | PERMISSIONS.MANAGE_ROLES | PERMISSIONS.VIEW_AUDIT_LOG | PERMISSIONS.SEND_MESSAGES,
    );
    const category = (await w.client.post(w.guildChannels, { name: 'Work', type: 4 }, w.botAuth)).body;
    const patched = await w.client.patch(
      w.channelPath(w.general.id),
      {
        name: 'news',
        type: 5,
        topic: 'Releases',
        rate_limit_per_user: 10,
        nsfw: true,
        parent_id: category.id,
        permission_overwrites: [{ id: w.guild.id, type: 0, deny: String(PERMISSIONS.SEND_MESSAGES) }],
      },
      w.botAuth,
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'news',
      type: 5,
      topic: 'Releases',
      rate_limit_per_user: 10,
      nsfw: true,
      parent_id: category.id,
    });
    const [update] = await eventsOf(w.client, 'CHANNEL_UPDATE');
    expect(update.data).toMatchObject({ id: w.general.id, name: 'news' });
    expect(update.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILDS });
    const log = (await w.client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=11`, w.botAuth)).body;
    expect(log.audit_log_entries[0].changes.map((c: any) => c.key)).toEqual([
      'name',
      'type',
      'topic',
      'nsfw',
      'rate_limit_per_user',
      'parent_id',
      'permission_overwrites',
    ]);
    expectInvalidField(
      await w.client.patch(w.channelPath(w.general.id), { rate_limit_per_user: 21601 }, w.botAuth),
      'rate_limit_per_user',
    );
    expectInvalidField(await w.client.patch(w.channelPath(category.id), { type: 0 }, w.botAuth), 'type');
    expectInvalidField(
      await w.client.patch(w.channelPath(w.general.id), { parent_id: w.general.id }, w.botAuth),
      'parent_id',
    );
    expectError(await w.client.patch(w.channelPath('1'), { name: 'x' }, w.botAuth), 404, 10003);
  });

  it('a bot that gains VIEW_CHANNEL through a PATCH of the overwrites hears the channel unobfuscated (spec: channel visibility)', async () => {
    const w = await channelWorld(PERMISSIONS.MANAGE_CHANNELS | PERMISSIONS.MANAGE_ROLES | PERMISSIONS.VIEW_CHANNEL);
    // The log holds the full channel; the gateway obfuscates per session. A bot that cannot view
    // the channel before the change and can after gets CHANNEL_UPDATE with full data.
    const hidden = await w.channel({ permission_overwrites: [deny(w.reader.id, PERMISSIONS.VIEW_CHANNEL, 1)] });
    await w.client.patch(w.channelPath(hidden.id), { permission_overwrites: [] }, w.botAuth);
    const [update] = await eventsOf(w.client, 'CHANNEL_UPDATE');
    expect(update.data).toMatchObject({ id: hidden.id, name: 'extra', permission_overwrites: [] });
  });

  it('DELETE /channels/{id} answers the channel, logs CHANNEL_DELETE and a CHANNEL_DELETE audit entry, and takes its messages and webhooks with it', async () => {
    const w = await channelWorld(
      PERMISSIONS.MANAGE_CHANNELS | PERMISSIONS.MANAGE_WEBHOOKS | PERMISSIONS.VIEW_AUDIT_LOG,
    );
    const doomed = await w.channel();
    await w.client.post(w.messages(doomed.id), { content: 'bye' }, w.aliceAuth);
    await w.client.post(`/api/v10/channels/${doomed.id}/webhooks`, { name: 'Hook' }, w.botAuth);
    const deleted = await w.client.delete(w.channelPath(doomed.id), w.botAuth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: doomed.id, name: 'extra' });
    expect((await eventsOf(w.client, 'CHANNEL_DELETE')).map((e) => (e.data as any).id)).toEqual([doomed.id]);
    expect((await w.audit())[0]).toEqual([12, doomed.id]);
    expect(await w.client.db.get('channels', doomed.id)).toBeUndefined();
    expect((await w.client.db.getAll('channel_messages')).filter((m) => m.channel_id === doomed.id)).toEqual([]);
    expect(await w.client.db.count('channel_webhooks')).toBe(0);
    expectError(await w.client.get(w.channelPath(doomed.id), w.botAuth), 404, 10003);
  });

  it('deleting a category frees its children (CHANNEL_UPDATE with parent_id null)', async () => {
    const w = await channelWorld();
    const category = (await w.client.post(w.guildChannels, { name: 'Work', type: 4 }, w.botAuth)).body;
    const child = (await w.client.post(w.guildChannels, { name: 'inside', parent_id: category.id }, w.botAuth)).body;
    await w.client.delete(w.channelPath(category.id), w.botAuth);
    expect((await w.client.db.get('channels', child.id))!.parent_id).toBeNull();
    expect(
      (await eventsOf(w.client, 'CHANNEL_UPDATE')).map((e) => [(e.data as any).id, (e.data as any).parent_id]),
    ).toEqual([[child.id, null]]);
  });

  it('PATCH /guilds/{id}/channels moves channels (positions, parents, lock_permissions), 204; an unknown channel is 50035 and nothing moves', async () => {
    const w = await channelWorld();
    const category = (await w.client.post(w.guildChannels, { name: 'Work', type: 4 }, w.botAuth)).body;
    const reply = await w.client.patch(
      w.guildChannels,
      [{ id: w.general.id, position: 7, parent_id: category.id, lock_permissions: true }],
      w.botAuth,
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(204);
    expect(await w.client.db.get('channels', w.general.id)).toMatchObject({ position: 7, parent_id: category.id });
    expect((await eventsOf(w.client, 'CHANNEL_UPDATE')).length).toBe(1);
    expectInvalidField(
      await w.client.patch(
        w.guildChannels,
        [
          { id: w.general.id, position: 1 },
          { id: '1', position: 2 },
        ],
        w.botAuth,
      ),
      '1.id',
    );
    expect((await w.client.db.get('channels', w.general.id))!.position).toBe(7);
    expectError(await w.client.patch(w.guildChannels, [], w.botAuth), 400, 50035);
  });
});
