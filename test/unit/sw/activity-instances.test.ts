// @vitest-environment node
// @ts-expect-error the package's zod build ships no type declarations (its .ts build types the wire only)
import { EmbeddedActivityInstanceSchema } from 'discord-api-spec/zod';
import { describe, expect, it } from 'vitest';
import type { ActivityInstanceRecord } from '../../../src/store/records/activities';
import { createTestClient, createWorld, type TestClient } from '../app-harness';

/** A participant as the activity's RPC shows one. */
function participant(user: { id: string; username: string }) {
  return {
    id: user.id,
    username: user.username,
    global_name: null,
    discriminator: '0',
    avatar: null,
    bot: false,
    flags: 0,
    premium_type: null,
  };
}

/** A running instance of `applicationId` in `channelId` with a frame for each of `users` (a frame per join). */
async function seedInstance(
  client: TestClient,
  applicationId: string,
  guildId: string | null,
  users: { id: string; username: string }[],
): Promise<ActivityInstanceRecord> {
  const record: ActivityInstanceRecord = {
    instance_id: `i-${crypto.randomUUID()}`,
    application_id: applicationId,
    channel_id: '1300000000000000001',
    guild_id: guildId,
    launch_id: '1300000000000000002',
    members: users.map((u, i) => ({ frame_id: `frame-${i}`, holder: 'test', user: participant(u) })),
    created_at: 0,
  };
  await client.db.putAll('activity_instances', [record]);
  return record;
}

describe('GET /applications/{application.id}/activity-instances/{instance_id} (an activity backend checks an instance)', () => {
  it('answers the running instance in the public shape: launch_id, location, the ids of the users connected (each once)', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const record = await seedInstance(client, w.application.id, '1300000000000000003', [w.alice, w.bob, w.alice]);
    const res = await client.get(
      `/api/v10/applications/${w.application.id}/activity-instances/${record.instance_id}`,
      w.botAuth,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      application_id: w.application.id,
      instance_id: record.instance_id,
      launch_id: record.launch_id,
      location: {
        id: `gc-1300000000000000003-${record.channel_id}`,
        kind: 'gc',
        channel_id: record.channel_id,
        guild_id: '1300000000000000003',
      },
      users: [w.alice.id, w.bob.id],
    });
    expect(EmbeddedActivityInstanceSchema.safeParse(res.body).success).toBe(true);
  });

  it('an instance outside a guild is located in a private channel (kind pc, no guild_id)', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const record = await seedInstance(client, w.application.id, null, [w.alice]);
    const res = await client.get(
      `/api/applications/${w.application.id}/activity-instances/${record.instance_id}`,
      w.botAuth,
    );
    expect(res.body.location).toEqual({ id: `c-${record.channel_id}`, kind: 'pc', channel_id: record.channel_id });
    expect(EmbeddedActivityInstanceSchema.safeParse(res.body).success).toBe(true);
  });

  it('an unknown or ended instance is 404, and so is an instance of another application', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const unknown = await client.get(`/api/v10/applications/${w.application.id}/activity-instances/i-nope`, w.botAuth);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Unknown Activity Instance');
    const ended = await seedInstance(client, w.application.id, null, []);
    const gone = await client.get(
      `/api/v10/applications/${w.application.id}/activity-instances/${ended.instance_id}`,
      w.botAuth,
    );
    expect(gone.status).toBe(404);
    const other = (await client.post('/sandbox/applications', { name: 'Other', owner_id: w.alice.id })).body;
    const theirs = await seedInstance(client, other.application.id, null, [w.bob]);
    const crossed = await client.get(
      `/api/v10/applications/${w.application.id}/activity-instances/${theirs.instance_id}`,
      w.botAuth,
    );
    expect(crossed.status).toBe(404);
  });

  it("takes the application's bot token only: no token is 401, a user's token 401 or 403, another application's bot 403", async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const record = await seedInstance(client, w.application.id, null, [w.alice]);
    const path = `/api/v10/applications/${w.application.id}/activity-instances/${record.instance_id}`;
    expect((await client.get(path)).status).toBe(401);
    expect([401, 403]).toContain((await client.get(path, w.aliceAuth)).status);
    const other = (await client.post('/sandbox/applications', { name: 'Other', owner_id: w.alice.id })).body;
    const crossed = await client.get(path, `Bot ${other.bot_token}`);
    expect([crossed.status, crossed.body.code]).toEqual([403, 20012]);
  });

  it('a malformed application id is 400 (50035) naming the field', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const res = await client.get('/api/v10/applications/nope/activity-instances/i-1', w.botAuth);
    expect([res.status, res.body.code]).toEqual([400, 50035]);
    expect(res.body.errors.application_id).toBeDefined();
  });
});
