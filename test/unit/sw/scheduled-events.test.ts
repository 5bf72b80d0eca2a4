// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient, type TestClient } from '../app-harness';
import { PERMISSIONS, countOf, eventsOf, guildWorld, otherBot, setRolePermissions } from './guild-admin-fixtures';

type World = Awaited<ReturnType<typeof guildWorld>> & { client: TestClient };

const NOW = '2026-03-10T12:00:00.000Z';

/** A guild whose bot may manage events, a voice event it created, and the clock at {@link NOW}. */
async function eventWorld(bits: bigint = PERMISSIONS.MANAGE_EVENTS | PERMISSIONS.CREATE_EVENTS) {
  const client = await createTestClient();
  const w = await guildWorld(client, bits | PERMISSIONS.CREATE_EVENTS);
  await client.put('/sandbox/clock', { now: NOW });
  const created = await client.post(
    `/api/v10/guilds/${w.guild.id}/scheduled-events`,
    { name: 'Raid', entity_type: 2, channel_id: w.voice.id, scheduled_start_time: '2026-03-12T20:00:00Z' },
    w.botAuth,
  );
  expect(created.status).toBe(200);
  await setRolePermissions(client, w.botRole.id, bits);
  const world: World = { ...w, client };
  const url = `/api/v10/guilds/${w.guild.id}/scheduled-events/${created.body.id}`;
  const interest = (userId: string, on = true) =>
    on
      ? client.put(`/sandbox/guilds/${w.guild.id}/scheduled-events/${created.body.id}/users/${userId}`)
      : client.delete(`/sandbox/guilds/${w.guild.id}/scheduled-events/${created.body.id}/users/${userId}`);
  return { w: world, client, event: created.body, url, interest };
}

describe('GET /guilds/{guild.id}/scheduled-events/{id}', () => {
  it('answers the event with its creator; with_user_count counts interested users; an unknown event is 404 10070', async () => {
    const { w, client, event, url, interest } = await eventWorld();
    await interest(w.bob.id);
    const res = await client.get(url, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: event.id, name: 'Raid', creator: { id: w.bot.id }, status: 1 });
    expect(res.body).not.toHaveProperty('user_count');
    expect((await client.get(`${url}?with_user_count=true`, w.botAuth)).body.user_count).toBe(1);
    const list = await client.get(`/api/v10/guilds/${w.guild.id}/scheduled-events?with_user_count=true`, w.botAuth);
    expect(list.body.map((e: any) => e.user_count)).toEqual([1]);
    const unknown = await client.get(`/api/v10/guilds/${w.guild.id}/scheduled-events/123`, w.botAuth);
    expect([unknown.status, unknown.body.code]).toEqual([404, 10070]);
  });

  it('a bot that is not a member of the guild gets 403 (50001)', async () => {
    const { client, url } = await eventWorld();
    const app = (await client.post('/sandbox/applications', { name: 'Outsider' })).body;
    expect((await client.get(url, `Bot ${app.bot_token}`)).body.code).toBe(50001);
  });
});

describe('PATCH /guilds/{guild.id}/scheduled-events/{id}', () => {
  it('changes the fields given, emits GUILD_SCHEDULED_EVENT_UPDATE (GUILD_SCHEDULED_EVENTS intent) and writes audit entry 101', async () => {
    const { w, client, event, url } = await eventWorld();
    const res = await client.patch(url, { name: 'Raid night', description: 'Bring potions' }, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: event.id,
      name: 'Raid night',
      description: 'Bring potions',
      channel_id: w.voice.id,
    });
    const [update] = await eventsOf(client, 'GUILD_SCHEDULED_EVENT_UPDATE');
    expect(update.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_SCHEDULED_EVENTS });
    expect(update.data).toMatchObject({ id: event.id, name: 'Raid night' });
    await setRolePermissions(client, w.botRole.id, PERMISSIONS.MANAGE_EVENTS | PERMISSIONS.VIEW_AUDIT_LOG);
    const entries = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=101`, w.botAuth)).body
      .audit_log_entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ target_id: event.id, user_id: w.bot.id });
    expect(entries[0].changes).toContainEqual({ key: 'name', old_value: 'Raid', new_value: 'Raid night' });
  });

  it('creating writes audit entry 100 (GUILD_SCHEDULED_EVENT_CREATE)', async () => {
    const { w, client, event } = await eventWorld(PERMISSIONS.MANAGE_EVENTS | PERMISSIONS.VIEW_AUDIT_LOG);
    const entries = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=100`, w.botAuth)).body
      .audit_log_entries;
    expect(entries.map((e: any) => e.target_id)).toEqual([event.id]);
  });

  it('status moves SCHEDULED → ACTIVE → COMPLETED; other moves are 400 (50035); a completed event cannot change (180000)', async () => {
    const { w, client, url } = await eventWorld();
    expect((await client.patch(url, { status: 3 }, w.botAuth)).body.errors).toHaveProperty('status');
    expect((await client.patch(url, { status: 2 }, w.botAuth)).body.status).toBe(2);
    expect((await client.patch(url, { status: 1 }, w.botAuth)).body.errors).toHaveProperty('status');
    expect((await client.patch(url, { status: 4 }, w.botAuth)).body.errors).toHaveProperty('status');
    expect((await client.patch(url, { status: 3 }, w.botAuth)).body.status).toBe(3);
    const finished = await client.patch(url, { name: 'Again' }, w.botAuth);
    expect([finished.status, finished.body.code]).toEqual([400, 180000]);
    expect((await client.get(url, w.botAuth)).body).toMatchObject({ name: 'Raid', status: 3 });
  });

  it('SCHEDULED → CANCELED; a canceled event cannot change (180000)', async () => {
    const { w, client, url } = await eventWorld();
    expect((await client.patch(url, { status: 4 }, w.botAuth)).body.status).toBe(4);
    expect((await client.patch(url, { status: 2 }, w.botAuth)).body.code).toBe(180000);
  });

  it('turning it external needs a location and an end time and clears the channel; a start in the past is refused', async () => {
    const { w, client, url } = await eventWorld();
    expect((await client.patch(url, { entity_type: 3 }, w.botAuth)).body.errors).toHaveProperty('entity_metadata');
    expect(
      (await client.patch(url, { entity_type: 3, entity_metadata: { location: 'Park' } }, w.botAuth)).body.errors,
    ).toHaveProperty('scheduled_end_time');
    const external = await client.patch(
      url,
      {
        entity_type: 3,
        channel_id: null,
        entity_metadata: { location: 'Park' },
        scheduled_end_time: '2026-03-12T22:00:00Z',
      },
      w.botAuth,
    );
    expect(external.body).toMatchObject({ entity_type: 3, channel_id: null, entity_metadata: { location: 'Park' } });
    expect(
      (await client.patch(url, { scheduled_start_time: '2026-03-01T00:00:00Z' }, w.botAuth)).body.errors,
    ).toHaveProperty('scheduled_start_time');
    expect(
      (await client.patch(url, { scheduled_end_time: '2026-03-12T19:00:00Z' }, w.botAuth)).body.errors,
    ).toHaveProperty('scheduled_end_time');
  });

  it('moving it to a channel that is not of its type is 400 naming channel_id; nothing is stored on a refusal', async () => {
    const { w, client, url } = await eventWorld();
    const before = await client.db.getAll('guild_scheduled_events');
    expect((await client.patch(url, { channel_id: w.text.id }, w.botAuth)).body.errors).toHaveProperty('channel_id');
    expect(await client.db.getAll('guild_scheduled_events')).toEqual(before);
    expect(await eventsOf(client, 'GUILD_SCHEDULED_EVENT_UPDATE')).toHaveLength(0);
  });

  it('MANAGE_EVENTS edits any event; CREATE_EVENTS only the caller’s own (50013 otherwise), read in the event’s channel', async () => {
    const { w, client, url } = await eventWorld(PERMISSIONS.CREATE_EVENTS);
    expect((await client.patch(url, { name: 'Mine' }, w.botAuth)).status).toBe(200);
    const other = await otherBot(client, w.guild.id, PERMISSIONS.CREATE_EVENTS);
    expect((await client.patch(url, { name: 'Theirs' }, other.auth)).body.code).toBe(50013);
    expect((await client.delete(url, other.auth)).body.code).toBe(50013);
    await setRolePermissions(client, other.role.id, PERMISSIONS.MANAGE_EVENTS);
    expect((await client.patch(url, { name: 'Managed' }, other.auth)).status).toBe(200);
    await client.db.put('channels', {
      ...(await client.db.get('channels', w.voice.id))!,
      permission_overwrites: [{ id: other.role.id, type: 0, allow: '0', deny: String(PERMISSIONS.MANAGE_EVENTS) }],
    });
    expect((await client.patch(url, { name: 'Denied' }, other.auth)).body.code).toBe(50013);
  });
});

describe('DELETE /guilds/{guild.id}/scheduled-events/{id}', () => {
  it('deletes the event and its users (204), emits GUILD_SCHEDULED_EVENT_DELETE and writes audit entry 102', async () => {
    const { w, client, event, url, interest } = await eventWorld(
      PERMISSIONS.MANAGE_EVENTS | PERMISSIONS.VIEW_AUDIT_LOG,
    );
    await interest(w.bob.id);
    expect((await client.delete(url, w.botAuth)).status).toBe(204);
    expect(await countOf(client, 'guild_scheduled_events')).toBe(0);
    expect(await client.db.count('guild_scheduled_event_users')).toBe(0);
    const [deleted] = await eventsOf(client, 'GUILD_SCHEDULED_EVENT_DELETE');
    expect(deleted.data).toMatchObject({ id: event.id });
    expect(deleted.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_SCHEDULED_EVENTS });
    const entries = (await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=102`, w.botAuth)).body
      .audit_log_entries;
    expect(entries.map((e: any) => e.target_id)).toEqual([event.id]);
    expect((await client.delete(url, w.botAuth)).body.code).toBe(10070);
  });
});

describe('interested users: GET .../users, GET .../users/counts and the sandbox control', () => {
  it('marking interest emits GUILD_SCHEDULED_EVENT_USER_ADD, unmarking USER_REMOVE (GUILD_SCHEDULED_EVENTS intent); repeats emit nothing', async () => {
    const { w, client, event, interest } = await eventWorld();
    expect((await interest(w.bob.id)).status).toBe(204);
    expect((await interest(w.bob.id)).status).toBe(204);
    const adds = await eventsOf(client, 'GUILD_SCHEDULED_EVENT_USER_ADD');
    expect(adds).toHaveLength(1);
    expect(adds[0].data).toEqual({ guild_scheduled_event_id: event.id, user_id: w.bob.id, guild_id: w.guild.id });
    expect(adds[0].audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_SCHEDULED_EVENTS });
    expect((await interest(w.bob.id, false)).status).toBe(204);
    expect((await interest(w.bob.id, false)).status).toBe(204);
    expect(await eventsOf(client, 'GUILD_SCHEDULED_EVENT_USER_REMOVE')).toHaveLength(1);
  });

  it('a user who is not a member cannot mark interest (10007); nor anyone in a finished event (180000)', async () => {
    const { w, client, url, interest } = await eventWorld();
    expect((await interest(w.carol.id)).body.code).toBe(10007);
    await client.patch(url, { status: 4 }, w.botAuth);
    expect((await interest(w.bob.id)).body.code).toBe(180000);
    expect(await client.db.count('guild_scheduled_event_users')).toBe(0);
  });

  it('lists users in id order with response 1, pages by before/after and limit (1-100), and adds members with with_member', async () => {
    const { w, client, event, url, interest } = await eventWorld();
    const ids = [w.alice.id, w.bob.id, w.bot.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    for (const id of ids) await interest(id);
    const all = (await client.get(`${url}/users`, w.botAuth)).body;
    expect(all.map((u: any) => u.user_id)).toEqual(ids);
    expect(all[0]).toMatchObject({ guild_scheduled_event_id: event.id, response: 1, user: { id: ids[0] } });
    expect(all[0]).not.toHaveProperty('member');
    expect((await client.get(`${url}/users?with_member=true`, w.botAuth)).body[0].member.user.id).toBe(ids[0]);
    expect(
      (await client.get(`${url}/users?limit=1&after=${ids[0]}`, w.botAuth)).body.map((u: any) => u.user_id),
    ).toEqual([ids[1]]);
    expect(
      (await client.get(`${url}/users?limit=2&before=${ids[2]}`, w.botAuth)).body.map((u: any) => u.user_id),
    ).toEqual(ids.slice(0, 2));
    expect((await client.get(`${url}/users?limit=101`, w.botAuth)).body.code).toBe(50035);
    expect((await client.get(`${url}/users/counts`, w.botAuth)).body).toEqual({
      guild_scheduled_event_count: 3,
      guild_scheduled_event_exception_counts: {},
    });
  });
});
