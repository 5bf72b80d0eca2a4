// @vitest-environment node
/**
 * Identify and Presence Update as leniently as the platform takes them (its Identify and Update
 * Presence structures): `presence.since` left out or null (Oceanic.js leaves it out),
 * `activities: null` (Eris), `status` and `afk` left out, `properties` with any keys, optional
 * fields as null. What is there is still checked: a wrong type closes with 4002.
 */
import { describe, expect, it } from 'vitest';
import { itInProcess } from '../app-harness';
import { INTENTS } from '../../../src/platform/core/intents';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createGatewayHarness, type FakeClient } from './gateway-harness';

/** A guild of alice's with the bot watching presences. */
async function setup() {
  const h = await createGatewayHarness();
  await h.updateApplication({ flags: String(APPLICATION_FLAGS.GATEWAY_PRESENCE_LIMITED) });
  await h.guildWithBot();
  const watcher = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_PRESENCES });
  return { h, watcher, alice: h.world.alice.id as string };
}

/** The statuses of `userId` the watcher was sent, once there are `count`. */
async function statuses(watcher: FakeClient, userId: string, count: number): Promise<string[]> {
  const of = () => watcher.dispatches('PRESENCE_UPDATE').filter((p) => p.d.user.id === userId);
  await watcher.waitFor(() => of().length >= count);
  return of().map((p) => p.d.status);
}

describe('Identify and Presence Update take what the platform takes', () => {
  it('an Identify presence without since (Oceanic.js) is taken: READY, and its status is shown', async () => {
    const { h, watcher, alice } = await setup();
    const session = await h.identify(h.world.aliceAuth, { presence: { status: 'idle', activities: [], afk: false } });
    expect(session.ready.v).toBe(10);
    expect(await statuses(watcher, alice, 1)).toEqual(['idle']);
  });

  it('an Identify presence with activities: null (Eris) is no activity', async () => {
    const { h, watcher, alice } = await setup();
    await h.identify(h.world.aliceAuth, { presence: { since: null, activities: null, status: 'dnd', afk: false } });
    expect(await statuses(watcher, alice, 1)).toEqual(['dnd']);
    const update = watcher.dispatches('PRESENCE_UPDATE').find((p) => p.d.user.id === alice)!;
    expect(update.d.activities).toEqual([]);
  });

  it('an empty presence defaults to online; optional Identify fields may be null; properties take any keys', async () => {
    const { h, watcher, alice } = await setup();
    await h.identify(h.world.aliceAuth, {
      presence: {},
      properties: { $os: 'linux', $browser: 'discord.py', $device: 'discord.py' },
      compress: null,
      large_threshold: null,
      shard: null,
    });
    expect(await statuses(watcher, alice, 1)).toEqual(['online']);
  });

  it('op 3 without since and afk is taken', async () => {
    const { h, watcher, alice } = await setup();
    const session = await h.identify(h.world.aliceAuth);
    await statuses(watcher, alice, 1);
    session.send({ op: 3, d: { status: 'idle', activities: null } });
    expect(await statuses(watcher, alice, 2)).toEqual(['online', 'idle']);
  });

  it('a field that is there is still checked: status "busy" or since "now" closes with 4002 naming it', async () => {
    const { h } = await setup();
    for (const presence of [{ status: 'busy' }, { since: 'now' }]) {
      const client = h.connect();
      client.send({ op: 2, d: { token: h.world.aliceAuth, presence } });
      const closed = await client.waitForClose();
      expect(closed.code).toBe(4002);
      expect(closed.reason).toContain(`d.presence.${Object.keys(presence)[0]}`);
    }
  });

  itInProcess(
    "the browser's gateway offers no transport compression: compress=zlib-stream closes with 4002 saying so",
    async () => {
      const h = await createGatewayHarness();
      const client = h.connect('/gateway?v=10&encoding=json&compress=zlib-stream');
      const closed = await client.waitForClose();
      expect(closed).toEqual({ code: 4002, reason: 'Unsupported transport compression (this gateway offers none).' });
    },
  );
});
