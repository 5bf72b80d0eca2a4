// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld } from '../app-harness';

const record = (key: string, type = 2) => ({ type, key, name: key, description: `The ${key}` });

async function world() {
  const client = await createTestClient();
  const w = await createWorld(client, 'identify role_connections.write');
  const metadata = `/api/v10/applications/${w.application.id}/role-connections/metadata`;
  const connection = `/api/v10/users/@me/applications/${w.application.id}/role-connection`;
  return { client, w, metadata, connection };
}

describe('role connection metadata (GET/PUT /applications/{id}/role-connections/metadata)', () => {
  it('the bot replaces and reads its records', async () => {
    const { client, w, metadata } = await world();
    expect((await client.get(metadata, w.botAuth)).body).toEqual([]);
    const records = [record('level'), record('since', 6), record('verified', 7)];
    expect((await client.put(metadata, records, w.botAuth)).body).toEqual(records);
    expect((await client.get(metadata, w.botAuth)).body).toEqual(records);
  });

  it('at most 5 records; keys a-z 0-9 _ of 1-50 characters and unique; name 100, description 200 (50035, nothing stored)', async () => {
    const { client, w, metadata } = await world();
    for (const body of [
      ['a', 'b', 'c', 'd', 'e', 'f'].map((k) => record(k)),
      [record('Level')],
      [record('k'.repeat(51))],
      [record('level'), record('level')],
      [{ ...record('level'), name: 'n'.repeat(101) }],
      [{ ...record('level'), description: 'd'.repeat(201) }],
      [{ ...record('level'), type: 9 }],
    ]) {
      const res = await client.put(metadata, body, w.botAuth);
      expect([res.status, res.body.code], JSON.stringify(body).slice(0, 80)).toEqual([400, 50035]);
    }
    expect((await client.get(metadata, w.botAuth)).body).toEqual([]);
    expect(
      (
        await client.put(
          metadata,
          ['a', 'b', 'c', 'd', 'e'].map((k) => record(k)),
          w.botAuth,
        )
      ).status,
    ).toBe(200);
  });
});

describe('a user’s role connection (GET/PUT/DELETE /users/@me/applications/{id}/role-connection)', () => {
  it('with role_connections.write the user sets, reads and deletes it; values are checked against the record types', async () => {
    const { client, w, metadata, connection } = await world();
    await client.put(metadata, [record('level'), record('since', 6), record('verified', 7)], w.botAuth);
    expect((await client.get(connection, w.aliceAuth)).body).toEqual({ platform_username: null, metadata: {} });
    const body = {
      platform_name: 'Game',
      platform_username: 'alice#1',
      metadata: { level: '12', since: '2026-01-01T00:00:00Z', verified: '1' },
    };
    expect((await client.put(connection, body, w.aliceAuth)).body).toEqual(body);
    expect((await client.get(connection, w.aliceAuth)).body).toEqual(body);
    for (const [key, value] of [
      ['level', 'twelve'],
      ['since', 'yesterday'],
      ['verified', 'yes'],
      ['unknown', '1'],
    ]) {
      const res = await client.put(connection, { metadata: { [key]: value } }, w.aliceAuth);
      expect([res.status, res.body.code], key).toEqual([400, 50035]);
    }
    expect((await client.get(connection, w.aliceAuth)).body).toEqual(body);
    expect((await client.delete(connection, w.aliceAuth)).status).toBe(204);
    expect((await client.get(connection, w.aliceAuth)).body.metadata).toEqual({});
  });

  it('needs the scope (403), a user’s token (the bot gets 403) and the token’s own application (50001)', async () => {
    const { client, w, connection } = await world();
    const identify = (
      await client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.alice.id,
        scopes: 'identify',
      })
    ).body.access_token;
    expect((await client.get(connection, `Bearer ${identify}`)).status).toBe(403);
    expect((await client.get(connection, w.botAuth)).status).toBe(403);
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body.application;
    const res = await client.get(`/api/v10/users/@me/applications/${other.id}/role-connection`, w.aliceAuth);
    expect(res.body.code).toBe(50001);
  });
});
