import { afterEach, describe, expect, it } from 'vitest';
import type { HubRestartDetail } from '../../src/components/platform-element';
import { createActivityWorld, FIXTURES, mountFrame, mountPlatform, nextEvent } from './activity-harness';

afterEach(() => {
  document.body.replaceChildren();
});

describe('activity instances through the hub (CONTRACT §5)', () => {
  it('frames of the same application and channel share an instance, and see each other join and leave', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    expect(platform.hub).not.toBeNull();
    const appId = world.application.id;
    const attributes = {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    };
    const first = await mountFrame(platform, attributes);
    await first.activity.ready();
    await first.activity.commands.authenticate({ access_token: await world.token(world.alice.id) });
    const seen: string[][] = [];
    await first.activity.subscribe(
      'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
      ({ participants }: { participants: { username: string }[] }) => seen.push(participants.map((p) => p.username)),
    );

    const second = await mountFrame(platform, { ...attributes, 'user-id': world.bob.id });
    expect(second.frame.instance!.instance_id).toBe(first.frame.instance!.instance_id);
    expect(second.activity.instanceId).toBe(first.activity.instanceId);
    await expect.poll(() => seen).toEqual([['alice', 'bob']]);
    await second.activity.ready();
    await second.activity.commands.authenticate({ access_token: await world.token(world.bob.id) });
    const { participants } = await second.activity.commands.getActivityInstanceConnectedParticipants();
    expect(participants.map((p: { username: string }) => p.username)).toEqual(['alice', 'bob']);

    second.frame.remove();
    await expect.poll(() => seen).toEqual([['alice', 'bob'], ['alice']]);
  });

  it('the service worker answers GET /applications/{id}/activity-instances/{instance_id} for the hub’s instances, 404 once ended', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { frame } = await mountFrame(platform, {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    });
    const path = `/api/v10/applications/${appId}/activity-instances/${frame.instance!.instance_id}`;
    const read = async () => {
      const response = await fetch(path, { headers: { Authorization: `Bot ${world.botToken}` } });
      return { status: response.status, body: await response.json() };
    };
    await expect.poll(async () => (await read()).body.users).toEqual([world.alice.id]);
    expect((await read()).body.location).toEqual({
      id: `gc-${world.guild.id}-${world.voice.id}`,
      kind: 'gc',
      channel_id: world.voice.id,
      guild_id: world.guild.id,
    });
    frame.remove();
    await expect.poll(async () => (await read()).status).toBe(404);
  });

  it('two pages in the same instance agree on its id and see each other join and leave', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const attributes = {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    };
    const first = await mountFrame(platform, attributes);
    await first.activity.ready();
    await first.activity.commands.authenticate({ access_token: await world.token(world.alice.id) });
    const seen: string[][] = [];
    await first.activity.subscribe(
      'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
      ({ participants }: { participants: { username: string }[] }) => seen.push(participants.map((p) => p.username)),
    );

    const query = new URLSearchParams({ ...attributes, user_id: world.bob.id });
    const other = window.open(`${FIXTURES}/host-page.html?${query}`, '_blank')!;
    try {
      await expect.poll(() => (other as any).frameElementUnderTest?.status, { timeout: 10_000 }).toBe('running');
      expect((other as any).frameElementUnderTest.instance.instance_id).toBe(first.frame.instance!.instance_id);
      await expect.poll(() => seen, { timeout: 5000 }).toEqual([['alice', 'bob']]);
    } finally {
      other.close();
    }
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([['alice', 'bob'], ['alice']]);
  });

  it('a page that dies without pagehide still leaves: the hub is granted the lock the page held', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const attributes = {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    };
    const first = await mountFrame(platform, attributes);
    await first.activity.ready();
    await first.activity.commands.authenticate({ access_token: await world.token(world.alice.id) });
    const seen: string[][] = [];
    await first.activity.subscribe(
      'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
      ({ participants }: { participants: { username: string }[] }) => seen.push(participants.map((p) => p.username)),
    );

    // bob's page runs none of the platform's pagehide handlers, as a crashed or killed page.
    const page = document.createElement('iframe');
    page.src = `${FIXTURES}/host-page.html?${new URLSearchParams({ ...attributes, user_id: world.bob.id, no_pagehide: '' })}`;
    document.body.append(page);
    await expect
      .poll(() => (page.contentWindow as any)?.frameElementUnderTest?.status, { timeout: 10_000 })
      .toBe('running');
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([['alice', 'bob']]);
    page.remove();
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([['alice', 'bob'], ['alice']]);
    expect((await platform.hub!.instances.find(appId, world.voice.id))!.participants.map((p) => p.username)).toEqual([
      'alice',
    ]);
  });

  it('after the shared worker restarted, frames rejoin their instance with the same id and participants are whole again', async () => {
    const world = await createActivityWorld();
    // A hub of this test's own: stopping it touches no other test.
    const platform = await mountPlatform(world.alice.id, `platformpp-hub-test-${crypto.randomUUID()}`);
    const appId = world.application.id;
    const attributes = {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    };
    const first = await mountFrame(platform, attributes);
    await first.activity.ready();
    await first.activity.commands.authenticate({ access_token: await world.token(world.alice.id) });
    const seen: string[][] = [];
    await first.activity.subscribe(
      'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
      ({ participants }: { participants: { username: string }[] }) => seen.push(participants.map((p) => p.username)),
    );
    const second = await mountFrame(platform, { ...attributes, 'user-id': world.bob.id });
    await expect.poll(() => seen).toEqual([['alice', 'bob']]);
    const instanceId = first.frame.instance!.instance_id;
    const before = await platform.hub!.incarnation();

    const restarted = nextEvent<HubRestartDetail>(platform, 'pp-hub-restart');
    // The worker closes itself, as when the browser stops it: its registry is gone with it.
    void platform.hub!.stop();
    const { incarnation } = await restarted;
    expect(incarnation).not.toBe(before);
    const running = async () => platform.hub!.instances.find(appId, world.voice.id);
    await expect
      .poll(async () => (await running())?.participants.map((p) => p.username), { timeout: 5000 })
      .toEqual(['alice', 'bob']);
    expect((await running())!.instance_id).toBe(instanceId);
    expect([first.frame.instance!.instance_id, second.frame.instance!.instance_id]).toEqual([instanceId, instanceId]);
    expect(first.frame.status).toBe('running');

    // The new hub keeps the instance as the old one did: bob leaves, alice's activity hears it.
    second.frame.remove();
    await expect.poll(() => seen.at(-1), { timeout: 5000 }).toEqual(['alice']);
  });

  it('another channel is another instance', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const text = (await world.sandbox.createChannel(world.guild.id, { name: 'lobby', type: 0 })).channel;
    const appId = world.application.id;
    const src = `${FIXTURES}/activity-sdk.html?client_id=${appId}`;
    const a = await mountFrame(platform, {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src,
    });
    const b = await mountFrame(platform, {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': text.id,
      src,
    });
    expect(a.frame.instance!.instance_id).not.toBe(b.frame.instance!.instance_id);
  });
});
