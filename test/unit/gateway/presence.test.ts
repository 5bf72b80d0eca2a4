// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { itInProcess } from '../app-harness';
import { Gateway } from '../../../src/gateway/gateway';
import { createPlatformContext } from '../../../src/platform/core/context';
import { INTENTS } from '../../../src/platform/core/intents';
import { PRESENCE_RESTART_GRACE_MS } from '../../../src/platform/core/limits';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { SNOWFLAKE_WORKERS } from '../../../src/platform/core/snowflake';
import { createGatewayHarness, ManualTimers, type FakeClient, type GatewayHarness } from './gateway-harness';
import { openTestStorage } from '../store/test-storage';

/** A guild of alice's with the bot and bob, and the bot watching presences (GUILD_PRESENCES granted by toggle). */
async function setup() {
  const h = await createGatewayHarness();
  await h.updateApplication({
    flags: String(APPLICATION_FLAGS.GATEWAY_PRESENCE_LIMITED | APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED),
  });
  const { guild } = await h.guildWithBot({ bob: true });
  const watcher = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_PRESENCES });
  return { h, guild, watcher, alice: h.world.alice.id as string };
}

/** The statuses of `userId` the client was sent in its guild's PRESENCE_UPDATEs, in order. */
function statuses(client: FakeClient, userId: string): string[] {
  return client
    .dispatches('PRESENCE_UPDATE')
    .filter((p) => p.d.user.id === userId && p.d.guild_id)
    .map((p) => p.d.status);
}

/** Waits until the client was sent `count` guild PRESENCE_UPDATEs of `userId`; resolves with the statuses. */
async function nthStatus(client: FakeClient, userId: string, count: number): Promise<string[]> {
  await client.waitFor(() => statuses(client, userId).length >= count);
  return statuses(client, userId);
}

const op3 = (status: string, activities: unknown[] = []) => ({
  op: 3,
  d: { since: null, activities, status, afk: false },
});

/** A second application whose bot is in the guild. */
async function otherBot(h: GatewayHarness, guildId: string) {
  const other = (await h.api.post('/sandbox/applications', { name: 'Other' })).body;
  await h.api.put(`/sandbox/guilds/${guildId}/members/${other.bot.id}`, {});
  return { id: other.bot.id as string, auth: `Bot ${other.bot_token}` };
}

describe('presence status from gateway sessions', () => {
  it('a user is online once a gateway session of theirs identifies: PRESENCE_UPDATE {user, guild_id, status, activities, client_status}', async () => {
    const { h, guild, watcher, alice } = await setup();
    await h.identify(h.world.aliceAuth);
    const update = await watcher.waitFor((p) => p.t === 'PRESENCE_UPDATE' && p.d.user.id === alice);
    expect(update.d).toEqual({
      user: { id: alice },
      guild_id: guild.id,
      status: 'online',
      activities: [],
      client_status: { web: 'online' },
    });
  });

  it('a user is offline after their last session closes, and only then; a second session changes nothing others see', async () => {
    const { h, watcher, alice } = await setup();
    const first = await h.identify(h.world.aliceAuth);
    const second = await h.identify(h.world.aliceAuth);
    await nthStatus(watcher, alice, 1);
    second.disconnect(1000);
    first.disconnect(4000);
    expect(await nthStatus(watcher, alice, 2)).toEqual(['online', 'offline']);
    const last = watcher.dispatches('PRESENCE_UPDATE').at(-1)!;
    expect(last.d).toMatchObject({ status: 'offline', activities: [], client_status: {} });
  });

  itInProcess(
    'a dropped connection (1006: a dead page the hub let go of) turns the user offline once it was their last',
    async () => {
      const { h, watcher, alice } = await setup();
      const page = await h.identify(h.world.aliceAuth);
      await nthStatus(watcher, alice, 1);
      page.disconnect(1006);
      expect(await nthStatus(watcher, alice, 2)).toEqual(['online', 'offline']);
      expect((await h.db.get('presences', alice))?.sessions).toEqual([]);
    },
  );

  itInProcess('a heartbeat timeout (4009) ends the session: the user goes offline', async () => {
    const { h, watcher, alice } = await setup();
    await h.identify(h.world.aliceAuth);
    await nthStatus(watcher, alice, 1);
    // The watcher keeps beating; alice's connection does not.
    h.timers.advance(40_000);
    watcher.send({ op: 1, d: null });
    await watcher.waitFor((p) => p.op === 11);
    h.timers.advance(25_000);
    expect(await nthStatus(watcher, alice, 2)).toEqual(['online', 'offline']);
  });

  it('invisible (op 3) shows as offline to others, and online again when it changes back', async () => {
    const { h, guild, watcher, alice } = await setup();
    const session = await h.identify(h.world.aliceAuth);
    await nthStatus(watcher, alice, 1);
    session.send(op3('invisible'));
    expect(await nthStatus(watcher, alice, 2)).toEqual(['online', 'offline']);
    const late = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_PRESENCES });
    const created = await late.waitForDispatch('GUILD_CREATE');
    expect(created.d.id).toBe(guild.id);
    expect(created.d.presences.map((p: any) => p.user.id)).not.toContain(alice);
    session.send(op3('online'));
    expect(await nthStatus(watcher, alice, 3)).toEqual(['online', 'offline', 'online']);
  });

  it("op 3 sets a bot's status and activities (name, type, url, state only); a user's op 3 sets the status, not activities", async () => {
    const { h, guild, watcher, alice } = await setup();
    const other = await otherBot(h, guild.id);
    const bot = await h.identify(other.auth, { intents: 0 });
    await nthStatus(watcher, other.id, 1);
    bot.send(op3('dnd', [{ name: 'Chess', type: 0, state: 'Ranked', details: 'dropped', url: null }]));
    await nthStatus(watcher, other.id, 2);
    const update = watcher
      .dispatches('PRESENCE_UPDATE')
      .filter((p) => p.d.user.id === other.id)
      .at(-1)!;
    expect(update.d).toMatchObject({ status: 'dnd', client_status: { web: 'dnd' } });
    expect(update.d.activities).toEqual([
      { name: 'Chess', type: 0, state: 'Ranked', url: null, created_at: expect.any(Number) },
    ]);

    const user = await h.identify(h.world.aliceAuth);
    await nthStatus(watcher, alice, 1);
    user.send(op3('idle', [{ name: 'Ignored', type: 0 }]));
    await nthStatus(watcher, alice, 2);
    expect(
      watcher
        .dispatches('PRESENCE_UPDATE')
        .filter((p) => p.d.user.id === alice)
        .at(-1)!.d,
    ).toMatchObject({ status: 'idle', activities: [] });
  });

  it("Identify's presence sets the first status; an invalid Presence Update closes with 4002", async () => {
    const { h, watcher, alice } = await setup();
    const session = await h.identify(h.world.aliceAuth, { presence: op3('dnd').d });
    expect(await nthStatus(watcher, alice, 1)).toEqual(['dnd']);
    session.send({ op: 3, d: { since: null, activities: [{ type: 9 }], status: 'online', afk: false } });
    expect((await session.waitForClose()).code).toBe(4002);
  });

  it('across sessions dnd wins over online, and online over idle', async () => {
    const { h, watcher, alice } = await setup();
    const a = await h.identify(h.world.aliceAuth);
    const b = await h.identify(h.world.aliceAuth);
    await nthStatus(watcher, alice, 1);
    a.send(op3('idle'));
    b.send(op3('dnd'));
    expect(await nthStatus(watcher, alice, 2)).toEqual(['online', 'dnd']);
    // a idle, b online: online; both idle: idle.
    b.send(op3('online'));
    b.send(op3('idle'));
    expect(await nthStatus(watcher, alice, 4)).toEqual(['online', 'dnd', 'online', 'idle']);
  });

  it('a resumed session is online again with the status it had set', async () => {
    const { h, watcher, alice } = await setup();
    const session = await h.identify(h.world.aliceAuth);
    session.send(op3('idle'));
    await nthStatus(watcher, alice, 2);
    session.disconnect(4000);
    expect(await nthStatus(watcher, alice, 3)).toEqual(['online', 'idle', 'offline']);
    const again = h.connect();
    again.send({ op: 6, d: { token: h.world.aliceAuth, session_id: session.ready.session_id, seq: 1 } });
    await again.waitForDispatch('RESUMED');
    expect(await nthStatus(watcher, alice, 4)).toEqual(['online', 'idle', 'offline', 'idle']);
  });
});

/** Moves the timers past the grace after a restart, with the clients beating meanwhile. */
async function pastGrace(timers: ManualTimers, ...clients: FakeClient[]): Promise<void> {
  timers.advance(PRESENCE_RESTART_GRACE_MS - 1_000);
  for (const client of clients) {
    const from = client.received.length;
    client.send({ op: 1, d: null });
    await client.waitFor((p) => p.op === 11, from);
  }
  timers.advance(1_000);
}

describe('presence across a restart of the shared worker', () => {
  /** Alice connected to the first gateway; a second one started on the same database with timers of its own. */
  async function restarted(isLive: (incarnation: string) => Promise<boolean>) {
    const { h, guild, alice } = await setup();
    const session = await h.identify(h.world.aliceAuth);
    await h.flush();
    const timers = new ManualTimers();
    const ctx = await createPlatformContext({
      db: await openTestStorage(h.api.dbName),
      workerId: SNOWFLAKE_WORKERS.hub,
    });
    const next = new Gateway(ctx, timers, (line) => h.errors.push(line), { isLive });
    const watch = async () => {
      const client = h.connect('/gateway?v=10&encoding=json', next);
      client.send({
        op: 2,
        d: { token: h.world.botAuth, intents: INTENTS.GUILDS | INTENTS.GUILD_PRESENCES, properties: {} },
      });
      return Object.assign(client, { created: (await client.waitForDispatch('GUILD_CREATE')).d });
    };
    return { h, guild, alice, session, next, timers, watch };
  }

  itInProcess('a restarted gateway knows who is online from IndexedDB: GUILD_CREATE lists them', async () => {
    const { alice, watch } = await restarted(async () => false);
    const watcher = await watch();
    expect(watcher.created.presences).toContainEqual({
      user: { id: alice },
      status: 'online',
      activities: [],
      client_status: { web: 'online' },
    });
  });

  itInProcess(
    'sessions of the previous start that did not come back are gone after the grace period: their users go offline',
    async () => {
      const { alice, watch, timers } = await restarted(async () => false);
      const watcher = await watch();
      await pastGrace(timers, watcher);
      expect(await nthStatus(watcher, alice, 1)).toEqual(['offline']);
    },
  );

  itInProcess('a session resumed on the new start keeps its user online; one that was not resumed goes', async () => {
    const { h, alice, session, next, timers, watch } = await restarted(async () => false);
    await h.identify(h.world.bobAuth);
    const again = h.connect('/gateway?v=10&encoding=json', next);
    again.send({ op: 6, d: { token: h.world.aliceAuth, session_id: session.ready.session_id, seq: 1 } });
    await again.waitForDispatch('RESUMED');
    const watcher = await watch();
    await pastGrace(timers, watcher, again);

    expect(await nthStatus(watcher, h.world.bob.id, 1)).toEqual(['offline']);
    expect(statuses(watcher, alice)).toEqual([]);
    expect((await h.db.get('presences', alice))?.status).toBe('online');
  });

  itInProcess(
    'after a browser restart (the earlier start and its pages all gone) those sessions go at once, not after the grace period',
    async () => {
      const { h, alice } = await setup();
      await h.identify(h.world.aliceAuth, {}, 'page-of-alice');
      await h.identify(h.world.bobAuth, {}, 'page-of-bob');
      await h.flush();
      expect((await h.db.get('presences', alice))?.sessions?.[0]?.owner).toBe('page-of-alice');
      const ctx = await createPlatformContext({
        db: await openTestStorage(h.api.dbName),
        workerId: SNOWFLAKE_WORKERS.hub,
      });
      // Only bob's page came back (a new tab of his is open); alice's is gone. No timer moves.
      const livePages = new Set(['page-of-bob']);
      new Gateway(ctx, new ManualTimers(), (line) => h.errors.push(line), {
        isLive: async () => false,
        pageLive: async (owner) => livePages.has(owner),
      });
      await expect.poll(async () => (await h.db.get('presences', alice))?.status, { timeout: 2000 }).toBe('offline');
      expect((await h.db.get('presences', h.world.bob.id))?.status).toBe('online');
    },
  );

  itInProcess(
    'a session of an earlier start whose page still lives waits for the grace period (its page resumes it meanwhile)',
    async () => {
      const { h, alice } = await setup();
      await h.identify(h.world.aliceAuth, {}, 'page-of-alice');
      await h.flush();
      const ctx = await createPlatformContext({
        db: await openTestStorage(h.api.dbName),
        workerId: SNOWFLAKE_WORKERS.hub,
      });
      const asked: string[] = [];
      new Gateway(ctx, new ManualTimers(), (line) => h.errors.push(line), {
        isLive: async () => false,
        pageLive: async (owner) => (asked.push(owner), true),
      });
      await expect.poll(() => asked).toEqual(['page-of-alice']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await h.db.get('presences', alice))?.status).toBe('online');
    },
  );

  itInProcess('sessions of a start that still runs (its Web Lock is held) are kept', async () => {
    const asked: string[] = [];
    const { h, alice, timers } = await restarted(async (incarnation) => {
      asked.push(incarnation);
      return true;
    });
    timers.advance(PRESENCE_RESTART_GRACE_MS);
    await expect.poll(() => asked.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await h.db.get('presences', alice))?.status).toBe('online');
  });
});
