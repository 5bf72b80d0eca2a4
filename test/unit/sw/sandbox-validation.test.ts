// @vitest-environment node
/**
 * The sandbox control API's refusals (CONTRACT §2 and §3): a bad body or an unknown guild or
 * user is a 4xx with the platform's code and stores nothing; the clock takes only instants that
 * exist, within its range; a reset empties every store.
 */
import { describe, expect, it } from 'vitest';
import { loadClockState } from '../../../src/store/meta';
import { createTestClient, createWorld, type TestClient } from '../app-harness';
import { catalogueOf, writeSampleRecords } from '../store/sample-records';
import { expectError, expectInvalidField } from './lobby-fixtures';
import type { PlatformStoreName } from '../../../src/store/schema';

const UNKNOWN = '123456789012345678';

/** Every record count that a refused fixture request must leave as it was. */
async function fixtureCounts(client: TestClient) {
  const db = client.app.ctx.db;
  const stores = ['users', 'applications', 'guilds', 'roles', 'channels', 'members', 'events'] as const;
  return Object.fromEntries(await Promise.all(stores.map(async (s) => [s, await db.count(s)] as const)));
}

async function guildWorld() {
  const client = await createTestClient();
  const world = await createWorld(client);
  const created = (await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id })).body;
  return { client, ...world, guild: created.guild, channels: created.channels as { id: string; type: number }[] };
}

describe('PUT /sandbox/clock: only instants that exist, from 2015-01-01 to 2099-12-31', () => {
  it('refuses a date that does not exist (February 30th, hour 24, minute 60) with 50035 naming now; the clock stays as it was', async () => {
    const client = await createTestClient();
    await client.put('/sandbox/clock', { now: '2026-02-23T12:00:00.000Z' });
    for (const now of [
      '2026-02-30T00:00:00Z',
      '2025-02-29T12:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T12:60:00Z',
      '2026-01-01T12:00:60Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T00:00:00+24:00',
    ]) {
      expectInvalidField(await client.put('/sandbox/clock', { now }), 'now');
    }
    for (const now of ['yesterday', '', '2026-02-23', '2026-02-23T12:00:00', 1_771_848_000_000])
      expectInvalidField(await client.put('/sandbox/clock', { now }), 'now');
    expect((await client.get('/sandbox/clock')).body).toEqual({ now: '2026-02-23T12:00:00.000Z', frozen: true });
    expect(await loadClockState(client.app.ctx.db)).toEqual({ frozenAt: Date.parse('2026-02-23T12:00:00.000Z') });
  });

  it('refuses instants before 2015-01-01 (the platform epoch) or after 2099 (0000-01-01 among them), and takes both ends', async () => {
    const client = await createTestClient();
    for (const now of [
      '0000-01-01T00:00:00Z',
      '1970-01-01T00:00:00Z',
      '2014-12-31T23:59:59.999Z',
      '2100-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '2015-01-01T00:30:00+01:00',
    ]) {
      const reply = await client.put('/sandbox/clock', { now });
      expectInvalidField(reply, 'now');
      expect(reply.body.errors.now._errors[0].message).toMatch(/2015-01-01T00:00:00.000Z to 2099-12-31T23:59:59.999Z/);
    }
    expect((await client.get('/sandbox/clock')).body.frozen).toBe(false);
    expect((await client.put('/sandbox/clock', { now: '2015-01-01T00:00:00Z' })).body).toEqual({
      now: '2015-01-01T00:00:00.000Z',
      frozen: true,
    });
    expect((await client.put('/sandbox/clock', { now: '2099-12-31T23:59:59.999Z' })).body).toEqual({
      now: '2099-12-31T23:59:59.999Z',
      frozen: true,
    });
  });

  it('takes an offset and leap days that exist: the instant is the one named', async () => {
    const client = await createTestClient();
    expect((await client.put('/sandbox/clock', { now: '2028-02-29T23:30:00-01:00' })).body.now).toBe(
      '2028-03-01T00:30:00.000Z',
    );
    expect((await client.put('/sandbox/clock', { now: '2026-07-10T02:00:00.1234+02:00' })).body.now).toBe(
      '2026-07-10T00:00:00.123Z',
    );
  });
});

describe("POST /sandbox/applications: flags like the platform's bit sets", () => {
  it("flags as a number is the spec's 32-bit integer; as a string a 64-bit bit set; anything past either is 50035 naming flags, nothing stored", async () => {
    const client = await createTestClient();
    for (const flags of [
      1e300,
      2 ** 32,
      -1,
      1.5,
      '99999999999999999999',
      '18446744073709551616',
      '-1',
      '1e5',
      '',
      true,
    ]) {
      expectInvalidField(await client.post('/sandbox/applications', { name: 'Game', flags }), 'flags');
    }
    expect(await fixtureCounts(client)).toMatchObject({ users: 0, applications: 0 });
    const widest = await client.post('/sandbox/applications', { name: 'Game', flags: 2 ** 32 - 1 });
    expect(widest.status).toBe(201);
    expect(widest.body.application).toMatchObject({ flags: 2 ** 31 - 1, flags_new: String(2 ** 32 - 1) });
    const full = await client.post('/sandbox/applications', { name: 'Game', flags: '18446744073709551615' });
    expect(full.body.application.flags_new).toBe('18446744073709551615');
    // PATCH /sandbox/applications/{id} takes flags the same way.
    const path = `/sandbox/applications/${widest.body.application.id}`;
    for (const flags of [1e300, 2 ** 32, '99999999999999999999'])
      expectInvalidField(await client.patch(path, { flags }), 'flags');
    expect((await client.app.ctx.db.get('applications', widest.body.application.id))!.flags).toBe(String(2 ** 32 - 1));
    expect((await client.patch(path, { flags: 1 << 17 })).body.application.flags_new).toBe(String(1 << 17));
  });
});

describe('sandbox guild fixtures: refusals store nothing', () => {
  it('POST /sandbox/guilds/{id}/roles: an unknown guild is 404 10004; a permissions value that is not a 64-bit decimal string is 50035 naming permissions', async () => {
    const w = await guildWorld();
    const before = await fixtureCounts(w.client);
    expectError(
      await w.client.post(`/sandbox/guilds/${UNKNOWN}/roles`, { name: 'Mods', permissions: '8' }),
      404,
      10004,
    );
    for (const permissions of ['abc', '18446744073709551616', '-8', '1.5', 8, null]) {
      expectInvalidField(
        await w.client.post(`/sandbox/guilds/${w.guild.id}/roles`, { name: 'Mods', permissions }),
        'permissions',
      );
    }
    expectInvalidField(await w.client.post(`/sandbox/guilds/${w.guild.id}/roles`, { name: 'Mods' }), 'permissions');
    expectInvalidField(
      await w.client.post(`/sandbox/guilds/not-an-id/roles`, { name: 'Mods', permissions: '8' }),
      'guild_id',
    );
    expect(await fixtureCounts(w.client)).toEqual(before);
  });

  it('POST /sandbox/guilds/{id}/channels: an unknown guild is 404 10004; a bad type, parent or overwrite bit set is 50035 naming the field', async () => {
    const w = await guildWorld();
    const before = await fixtureCounts(w.client);
    expectError(await w.client.post(`/sandbox/guilds/${UNKNOWN}/channels`, { name: 'chat', type: 0 }), 404, 10004);
    expectInvalidField(
      await w.client.post(`/sandbox/guilds/${w.guild.id}/channels`, { name: 'chat', type: 1 }),
      'type',
    );
    const text = w.channels.find((c) => c.type === 0)!;
    expectInvalidField(
      await w.client.post(`/sandbox/guilds/${w.guild.id}/channels`, { name: 'chat', type: 0, parent_id: text.id }),
      'parent_id',
    );
    expectInvalidField(
      await w.client.post(`/sandbox/guilds/${w.guild.id}/channels`, { name: 'chat', type: 0, parent_id: UNKNOWN }),
      'parent_id',
    );
    const overwrite = { id: w.guild.id, type: 0, allow: '1024', deny: '0' };
    expectInvalidField(
      await w.client.post(`/sandbox/guilds/${w.guild.id}/channels`, {
        name: 'chat',
        type: 0,
        permission_overwrites: [{ ...overwrite, allow: 'all' }],
      }),
      'permission_overwrites.0.allow',
    );
    expectInvalidField(
      await w.client.post(`/sandbox/guilds/${w.guild.id}/channels`, {
        name: 'chat',
        type: 0,
        permission_overwrites: [{ ...overwrite, deny: '18446744073709551616' }],
      }),
      'permission_overwrites.0.deny',
    );
    expect(await fixtureCounts(w.client)).toEqual(before);
  });

  it('PUT /sandbox/guilds/{id}/members/{user_id}: an unknown guild is 404 10004, an unknown user 404 10013, an unknown role 50035 naming roles', async () => {
    const w = await guildWorld();
    const before = await fixtureCounts(w.client);
    expectError(await w.client.put(`/sandbox/guilds/${UNKNOWN}/members/${w.bob.id}`, {}), 404, 10004);
    expectError(await w.client.put(`/sandbox/guilds/${w.guild.id}/members/${UNKNOWN}`, {}), 404, 10013);
    expectInvalidField(
      await w.client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { roles: [UNKNOWN] }),
      'roles',
    );
    // The @everyone role is every member's already: it is not given.
    expectInvalidField(
      await w.client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { roles: [w.guild.id] }),
      'roles',
    );
    expectInvalidField(
      await w.client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { roles: ['x'] }),
      'roles.0',
    );
    expectInvalidField(
      await w.client.put(`/sandbox/guilds/${w.guild.id}/members/${w.bob.id}`, { nick: 'n'.repeat(33) }),
      'nick',
    );
    expect(await fixtureCounts(w.client)).toEqual(before);
  });
});

describe('POST /sandbox/reset (CONTRACT §3: every store emptied, clock back to real time)', () => {
  it('empties every store of the database, whatever it holds, keeping only the snowflake reservation; the clock is real time again', async () => {
    const w = await guildWorld();
    const db = w.client.app.ctx.db;
    await w.client.put('/api/v10/lobbies', { secret: 'reset-me' }, w.aliceAuth);
    await w.client.put('/sandbox/clock', { now: '2031-01-01T00:00:00Z' });
    // One record in every store the database has, including any a later version adds.
    const stores = Object.keys(catalogueOf(db)) as PlatformStoreName[];
    await writeSampleRecords(db, { clock: { frozenAt: Date.parse('2031-01-01T00:00:00Z') } });
    for (const name of stores) expect(await db.count(name), `${name} holds something before`).toBeGreaterThan(0);

    const reply = await w.client.post('/sandbox/reset');
    expect(reply.status).toBe(204);
    for (const name of stores) {
      if (name === 'meta') expect(await db.getAllKeys('meta')).toEqual(['snowflake']);
      else expect(await db.count(name), `${name} after the reset`).toBe(0);
    }
    expect((await w.client.get('/sandbox/clock')).body.frozen).toBe(false);
    expect(await loadClockState(db)).toEqual({ frozenAt: null });
    expectError(await w.client.get('/api/v10/users/@me', w.aliceAuth), 401, 0);
  });
});
