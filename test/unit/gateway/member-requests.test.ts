// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { APPLICATION_FLAGS, type MemberRecord, type UserRecord } from '../../../src/store/records/core';
import { type MemberChunk, type MembersReadTx, readMemberChunks } from '../../../src/gateway/member-chunks';
import type { PlatformStorage } from '../../../src/store/schema';
import { itInProcess } from '../app-harness';
import { createGatewayHarness, type GatewayHarness } from './gateway-harness';

const AFTER_ROLLOUT = '2025-10-01T00:00:00.000Z';

/**
 * A guild with the bot and `extra` more members, written straight to the store; with `spread`,
 * each member's user has `spread - 1` users who are not members between it and the next.
 */
async function bigGuild(h: GatewayHarness, extra: number, spread = 1) {
  const { guild } = await h.guildWithBot();
  const users: UserRecord[] = [];
  const members: MemberRecord[] = [];
  for (let i = 0; i < extra * spread; i++) {
    const id = String(1_000_000_000_000n + BigInt(i));
    users.push({
      id,
      username: `user${i}`,
      global_name: null,
      discriminator: '0',
      avatar: null,
      bot: false,
      premium_type: 0,
      primary_guild: null,
      provisional: false,
      created_at: 0,
    });
    if (i % spread === 0)
      members.push({
        guild_id: guild.id,
        user_id: id,
        nick: null,
        roles: [],
        joined_at: 0,
        avatar: null,
        banner: null,
        bio: null,
        flags: 0,
      });
  }
  await h.db.putAll('users', users);
  await h.db.putAll('members', members);
  return guild;
}

/** The bot, with GUILD_MEMBERS granted by the toggle. */
async function membersBot(h: GatewayHarness) {
  await h.updateApplication({ flags: String(APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED) });
  return h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MEMBERS });
}

async function chunks(bot: Awaited<ReturnType<typeof membersBot>>, from: number, count: number) {
  await bot.waitFor(() => bot.received.slice(from).filter((p) => p.t === 'GUILD_MEMBERS_CHUNK').length >= count, from);
  return bot.received.slice(from).filter((p) => p.t === 'GUILD_MEMBERS_CHUNK');
}

describe('Request Guild Members (opcode 8)', () => {
  it('answers 2500 members with 3 GUILD_MEMBERS_CHUNKs of at most 1000, with chunk_index and chunk_count', async () => {
    const h = await createGatewayHarness();
    const guild = await bigGuild(h, 2498);
    const bot = await membersBot(h);
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: guild.id, query: '', limit: 0, nonce: 'all' } });
    const got = await chunks(bot, from, 3);
    expect(got.map((c) => [c.d.chunk_index, c.d.chunk_count, c.d.members.length])).toEqual([
      [0, 3, 1000],
      [1, 3, 1000],
      [2, 3, 500],
    ]);
    expect(got.every((c) => c.d.guild_id === guild.id && c.d.nonce === 'all')).toBe(true);
    const ids = new Set(got.flatMap((c) => c.d.members.map((m: any) => m.user.id)));
    expect(ids.size).toBe(2500);
  });

  it("gives every member with its user when the guild's users are spread among many others", async () => {
    const h = await createGatewayHarness();
    const guild = await bigGuild(h, 1200, 7);
    const bot = await membersBot(h);
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: guild.id, query: '', limit: 0 } });
    const got = await chunks(bot, from, 2);
    const members = got.flatMap((c) => c.d.members);
    expect(members).toHaveLength(1202);
    const numbered = members.filter((m: any) => /^user\d+$/.test(m.user?.username));
    expect(numbered).toHaveLength(1200);
    expect(numbered.every((m: any) => Number(m.user.username.slice(4)) % 7 === 0)).toBe(true);
  });

  // Reads the store directly, as the gateway in this process does.
  itInProcess(
    'stops reading and handing on chunks once nobody takes them (the session closed mid-answer)',
    async () => {
      const h = await createGatewayHarness();
      const guild = await bigGuild(h, 12_000);
      // In this process the harness's store is the platform's own storage.
      const tx = (h.db as unknown as PlatformStorage).read(['members', 'users', 'presences']);
      // What happened, in order: each read of the members store asked for, and each chunk taken.
      const happened: string[] = [];
      const counted = {
        store: (name: string) => {
          const store = tx.store(name as 'members');
          if (name !== 'members') return store;
          // Every other method runs on the store itself: an engine's store may keep private state.
          return new Proxy(store, {
            get: (target, key) => {
              if (key === 'getAll')
                return (...args: Parameters<typeof target.getAll>) => (happened.push('read'), target.getAll(...args));
              const value = Reflect.get(target, key);
              return typeof value === 'function' ? value.bind(target) : value;
            },
          });
        },
      } as unknown as MembersReadTx;
      const taken: MemberChunk[] = [];
      await readMemberChunks(counted, guild.id, { limit: Infinity, presences: false }, (chunk) => {
        taken.push(chunk);
        happened.push('taken');
        return false;
      });
      expect(taken.map((c) => [c.index, c.count, c.found.length])).toEqual([[0, 13, 1000]]);
      // Reads asked for while the first chunk was on its way may finish; none is asked for after it.
      expect(happened.slice(happened.indexOf('taken'))).toEqual(['taken']);
    },
  );

  it('lists the ids that are not members in not_found', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot({ bob: true });
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: guild.id, user_ids: [h.world.bob.id, '123456789'], limit: 0 } });
    const [chunk] = await chunks(bot, from, 1);
    expect(chunk.d.members.map((m: any) => m.user.id)).toEqual([h.world.bob.id]);
    expect(chunk.d.not_found).toEqual(['123456789']);
  });

  it('ignores a nonce longer than 32 bytes: the chunk carries no nonce', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot({ bob: true });
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: guild.id, user_ids: h.world.bob.id, nonce: 'é'.repeat(17) } });
    bot.send({ op: 8, d: { guild_id: guild.id, user_ids: h.world.bob.id, nonce: 'x'.repeat(32) } });
    const [long, fits] = await chunks(bot, from, 2);
    expect(long.d).not.toHaveProperty('nonce');
    expect(fits.d.nonce).toBe('x'.repeat(32));
  });

  it('finds members by username or nickname prefix, at most 100', async () => {
    const h = await createGatewayHarness();
    const guild = await bigGuild(h, 150);
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: guild.id, query: 'USER1', limit: 0 } });
    bot.send({ op: 8, d: { guild_id: guild.id, query: 'user', limit: 5000 } });
    const [prefix, capped] = await chunks(bot, from, 2);
    // user1, user10-19, user100-149
    expect(prefix.d.members).toHaveLength(61);
    expect(capped.d.members).toHaveLength(100);
  });

  it('needs the GUILD_MEMBERS intent for all members; without it the request is ignored', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot();
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    bot.send({ op: 8, d: { guild_id: guild.id, query: '', limit: 0 } });
    bot.send({ op: 1, d: null });
    await bot.waitFor((p) => p.op === 11);
    await h.flush();
    expect(bot.dispatches('GUILD_MEMBERS_CHUNK')).toEqual([]);
  });
});

describe('all-members rate limit (spec: 1 request per guild per bot per 30 s, from 2025-10-01)', () => {
  async function setup() {
    const h = await createGatewayHarness();
    const first = await bigGuild(h, 3);
    const { guild: second } = await h.guildWithBot();
    await h.api.put('/sandbox/clock', { now: AFTER_ROLLOUT });
    await h.flush();
    const bot = await membersBot(h);
    return { h, bot, first, second };
  }

  it('answers a second request for the same guild within 30 s with RATE_LIMITED and no chunks', async () => {
    const { h, bot, first } = await setup();
    let from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0, nonce: 'one' } });
    await chunks(bot, from, 1);
    await h.api.put('/sandbox/clock', { now: '2025-10-01T00:00:10.000Z' });
    await h.flush();
    from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0, nonce: 'two' } });
    const limited = await bot.waitForDispatch('RATE_LIMITED', from);
    expect(limited.d).toEqual({ opcode: 8, retry_after: 20, meta: { guild_id: first.id, nonce: 'two' } });
    expect(bot.received.slice(from).filter((p) => p.t === 'GUILD_MEMBERS_CHUNK')).toEqual([]);
  });

  it('treats other guilds independently', async () => {
    const { bot, first, second } = await setup();
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    bot.send({ op: 8, d: { guild_id: second.id, query: '', limit: 0 } });
    const got = await chunks(bot, from, 2);
    expect(got.map((c) => c.d.guild_id)).toEqual([first.id, second.id]);
    expect(bot.dispatches('RATE_LIMITED')).toEqual([]);
  });

  it('allows the next request once 30 s have passed on the platform clock', async () => {
    const { h, bot, first } = await setup();
    let from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    await chunks(bot, from, 1);
    await h.api.put('/sandbox/clock', { now: '2025-10-01T00:00:30.000Z' });
    await h.flush();
    from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    await chunks(bot, from, 1);
    expect(bot.dispatches('RATE_LIMITED')).toEqual([]);
  });

  it('counts only the all-members request: requests by query or ids are not limited and do not count', async () => {
    const { h, bot, first } = await setup();
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: first.id, query: 'user', limit: 10 } });
    bot.send({ op: 8, d: { guild_id: first.id, user_ids: [h.world.bot.id] } });
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    bot.send({ op: 8, d: { guild_id: first.id, user_ids: [h.world.bot.id] } });
    await chunks(bot, from, 4);
    expect(bot.dispatches('RATE_LIMITED')).toEqual([]);
  });

  it('is per bot: another application may request the same guild', async () => {
    const { h, bot, first } = await setup();
    const other = (
      await h.api.post('/sandbox/applications', {
        name: 'Other',
        flags: APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED,
      })
    ).body;
    await h.api.put(`/sandbox/guilds/${first.id}/members/${other.bot.id}`, {});
    const otherBot = await h.identify(`Bot ${other.bot_token}`, { intents: INTENTS.GUILD_MEMBERS });
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    await chunks(bot, 0, 1);
    const from = otherBot.received.length;
    otherBot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    await chunks(otherBot, from, 1);
    expect(otherBot.dispatches('RATE_LIMITED')).toEqual([]);
  });

  it("is per user for Bearer sessions: one user's all-members request does not limit another user of the same application", async () => {
    const { h, first } = await setup();
    await h.api.put(`/sandbox/guilds/${first.id}/members/${h.world.bob.id}`, {});
    const bearer = async (userId: string) => {
      const token = (
        await h.api.post('/sandbox/tokens', {
          application_id: h.world.application.id,
          user_id: userId,
          scopes: 'identify guilds',
        })
      ).body.access_token;
      return h.identify(`Bearer ${token}`, { intents: INTENTS.GUILDS | INTENTS.GUILD_MEMBERS });
    };
    const alice = await bearer(h.world.alice.id);
    const bob = await bearer(h.world.bob.id);
    alice.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    await chunks(alice, 0, 1);
    let from = bob.received.length;
    bob.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    await chunks(bob, from, 1);
    expect(bob.dispatches('RATE_LIMITED')).toEqual([]);
    // Each user's own second request within 30 s is limited, and neither is the bot's.
    from = alice.received.length;
    alice.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0, nonce: 'again' } });
    expect((await alice.waitForDispatch('RATE_LIMITED', from)).d.meta).toEqual({ guild_id: first.id, nonce: 'again' });
    const bot = await membersBot(h);
    from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    await chunks(bot, from, 1);
    expect(bot.dispatches('RATE_LIMITED')).toEqual([]);
  });

  it('does not limit before 2025-10-01', async () => {
    const { h, bot, first } = await setup();
    await h.api.put('/sandbox/clock', { now: '2025-09-30T23:59:00.000Z' });
    await h.flush();
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    bot.send({ op: 8, d: { guild_id: first.id, query: '', limit: 0 } });
    await chunks(bot, from, 2);
    expect(bot.dispatches('RATE_LIMITED')).toEqual([]);
  });
});

describe('member cache (spec: GUILD_MEMBER_ADD, GUILD_MEMBER_UPDATE, GUILD_MEMBER_REMOVE keep a member cache current)', () => {
  it('a client that applies the member events to its chunked cache matches the guild', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot();
    const admin = (await h.api.post('/sandbox/applications', { name: 'Admin' })).body;
    const role = (
      await h.api.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'mods', permissions: String(1n << 3n) })
    ).body.role;
    await h.api.put(`/sandbox/guilds/${guild.id}/members/${admin.bot.id}`, { roles: [role.id] });
    const bot = await membersBot(h);
    const cache = new Map<string, any>();
    const apply = (p: any) => {
      if (p.t === 'GUILD_MEMBERS_CHUNK') for (const m of p.d.members) cache.set(m.user.id, m);
      if (p.t === 'GUILD_MEMBER_ADD' || p.t === 'GUILD_MEMBER_UPDATE') cache.set(p.d.user.id, p.d);
      if (p.t === 'GUILD_MEMBER_REMOVE') cache.delete(p.d.user.id);
    };
    const from = bot.received.length;
    bot.send({ op: 8, d: { guild_id: guild.id, query: '', limit: 0 } });
    await chunks(bot, from, 1);
    await h.api.put(`/sandbox/guilds/${guild.id}/members/${h.world.bob.id}`, {});
    await h.api.put(
      `/api/v10/guilds/${guild.id}/members/${h.world.bob.id}/roles/${role.id}`,
      undefined,
      `Bot ${admin.bot_token}`,
    );
    const removed = await h.api.delete(
      `/api/v10/guilds/${guild.id}/members/${h.world.bob.id}`,
      `Bot ${admin.bot_token}`,
    );
    expect(removed.status).toBe(204);
    await h.api.put(`/sandbox/guilds/${guild.id}/members/${h.world.bob.id}`, { nick: 'back' });
    await bot.waitFor((p) => p.t === 'GUILD_MEMBER_ADD' && p.d.nick === 'back', from);
    for (const p of bot.received.slice(from)) apply(p);
    const members = (await h.api.get(`/api/v10/guilds/${guild.id}/members?limit=1000`, h.world.botAuth)).body;
    expect([...cache.keys()].sort()).toEqual(members.map((m: any) => m.user.id).sort());
    for (const m of members) expect(cache.get(m.user.id)).toMatchObject({ nick: m.nick, roles: m.roles });
    expect(bot.dispatches('GUILD_MEMBER_REMOVE').map((p) => p.d.user.id)).toEqual([h.world.bob.id]);
  });
});
