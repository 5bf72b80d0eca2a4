// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient, type TestClient } from '../app-harness';
import { PERMISSIONS, countOf, eventsOf, guildWorld } from './guild-admin-fixtures';

const PRUNE = PERMISSIONS.MANAGE_GUILD | PERMISSIONS.KICK_MEMBERS;

/** The guild world with its members joined on 2026-01-01, then the clock moved to `now`. */
async function pruneWorld(client: TestClient, bits: bigint, now = '2026-01-09T00:00:00.000Z') {
  await client.put('/sandbox/clock', { now: '2026-01-01T00:00:00.000Z' });
  const w = await guildWorld(client, bits);
  await client.put(`/sandbox/guilds/${w.guild.id}/members/${w.carol.id}`, { roles: [w.memberRole.id] });
  await client.put('/sandbox/clock', { now });
  return w;
}

describe('guild prune count and begin prune routes (spec: now require MANAGE_GUILD in addition to KICK_MEMBERS)', () => {
  for (const [name, bits] of [
    ['KICK_MEMBERS without MANAGE_GUILD', PERMISSIONS.KICK_MEMBERS],
    ['MANAGE_GUILD without KICK_MEMBERS', PERMISSIONS.MANAGE_GUILD],
  ] as const) {
    it(`GET and POST refuse a bot with ${name} (50013); nothing is removed`, async () => {
      const client = await createTestClient();
      const w = await pruneWorld(client, bits);
      const count = await client.get(`/api/v10/guilds/${w.guild.id}/prune`, w.botAuth);
      expect([count.status, count.body.code]).toEqual([403, 50013]);
      const begin = await client.post(`/api/v10/guilds/${w.guild.id}/prune`, {}, w.botAuth);
      expect([begin.status, begin.body.code]).toEqual([403, 50013]);
      expect(await countOf(client, 'members')).toBe(4);
    });
  }

  it('with both, GET counts the members without roles inactive for `days` (7 unless given)', async () => {
    const client = await createTestClient();
    const w = await pruneWorld(client, PRUNE);
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/prune`, w.botAuth)).body).toEqual({ pruned: 1 });
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/prune?days=9`, w.botAuth)).body).toEqual({ pruned: 0 });
    expect(
      (await client.get(`/api/v10/guilds/${w.guild.id}/prune?include_roles=${w.memberRole.id}`, w.botAuth)).body,
    ).toEqual({ pruned: 2 });
  });

  it('inactivity is counted from joined_at by the platform clock: a member is prunable exactly `days` after joining', async () => {
    const client = await createTestClient();
    const w = await pruneWorld(client, PRUNE, '2026-01-07T23:59:59.999Z');
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/prune?days=7`, w.botAuth)).body).toEqual({ pruned: 0 });
    await client.put('/sandbox/clock', { now: '2026-01-08T00:00:00.000Z' });
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/prune?days=7`, w.botAuth)).body).toEqual({ pruned: 1 });
  });

  it('POST removes them with GUILD_MEMBER_REMOVE each and a MEMBER_PRUNE audit entry; never the owner or the caller', async () => {
    const client = await createTestClient();
    const w = await pruneWorld(client, PRUNE | PERMISSIONS.VIEW_AUDIT_LOG);
    const res = await client.post(
      `/api/v10/guilds/${w.guild.id}/prune`,
      { days: 7, include_roles: [w.memberRole.id] },
      w.botAuth,
    );
    expect(res.body).toEqual({ pruned: 2 });
    const removed = await eventsOf(client, 'GUILD_MEMBER_REMOVE');
    expect(removed.map((e) => (e.data as any).user.id).sort()).toEqual([w.bob.id, w.carol.id].sort());
    expect(removed[0].audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MEMBERS });
    expect(await client.db.get('members', [w.guild.id, w.alice.id])).toBeDefined();
    expect(await client.db.get('members', [w.guild.id, w.bot.id])).toBeDefined();
    const log = await client.get(`/api/v10/guilds/${w.guild.id}/audit-logs?action_type=21`, w.botAuth);
    expect(log.body.audit_log_entries[0].options).toEqual({ delete_member_days: '7', members_removed: '2' });
  });

  it('compute_prune_count false answers pruned null', async () => {
    const client = await createTestClient();
    const w = await pruneWorld(client, PRUNE);
    expect(
      (await client.post(`/api/v10/guilds/${w.guild.id}/prune`, { compute_prune_count: false }, w.botAuth)).body,
    ).toEqual({ pruned: null });
    expect(await client.db.get('members', [w.guild.id, w.bob.id])).toBeUndefined();
  });

  it('days is 1 to 30 (50035); include_roles must be roles of the guild (50035)', async () => {
    const client = await createTestClient();
    const w = await pruneWorld(client, PRUNE);
    expect((await client.get(`/api/v10/guilds/${w.guild.id}/prune?days=31`, w.botAuth)).body.code).toBe(50035);
    expect((await client.post(`/api/v10/guilds/${w.guild.id}/prune`, { days: 0 }, w.botAuth)).body.code).toBe(50035);
    expect(
      (await client.post(`/api/v10/guilds/${w.guild.id}/prune`, { include_roles: ['1'] }, w.botAuth)).body.code,
    ).toBe(50035);
    expect(await countOf(client, 'members')).toBe(4);
  });
});
