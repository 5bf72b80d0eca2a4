import { afterEach, describe, expect, it } from 'vitest';
import { createActivityWorld, FIXTURES, mountFrame, mountPlatform, nextEvent } from './activity-harness';

afterEach(() => {
  document.body.replaceChildren();
});

describe('activity events from the platform (gateway → RPC host → activity)', () => {
  it("GUILD_STATUS follows the user presence: the frame's gateway session puts them online", async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { frame, activity: sdk } = await mountFrame(platform, { 'application-id': appId, 'guild-id': world.guild.id, 'channel-id': world.voice.id, src: `${FIXTURES}/activity-sdk.html?client_id=${appId}` });
    await sdk.ready();
    const token = await world.token(world.alice.id);
    const online = async () => (await (await fetch(`/api/v10/rpc/guilds/${world.guild.id}/status`, { headers: { Authorization: `Bearer ${token}` } })).json()).online;
    expect(await online()).toBe(0);
    const listening = nextEvent(frame, 'pp-platform-events');
    await sdk.commands.authenticate({ access_token: token });
    const statuses: number[] = [];
    await sdk.subscribe('GUILD_STATUS', (d: { online: number }) => statuses.push(d.online), { guild_id: world.guild.id });
    await listening;
    await expect.poll(() => statuses.at(-1), { timeout: 5000 }).toBe(1);
  });

  it('the presence the activity set is cleared when its frame stops (SET_ACTIVITY null), by the hub it leaves', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { frame, activity: sdk } = await mountFrame(platform, { 'application-id': appId, 'guild-id': world.guild.id, 'channel-id': world.voice.id, src: `${FIXTURES}/activity-sdk.html?client_id=${appId}` });
    await sdk.ready();
    const token = await world.token(world.alice.id);
    await sdk.commands.authenticate({ access_token: token });
    await sdk.commands.setActivity({ activity: { type: 0, state: 'In a match' } });
    const activities = async () => (await (await fetch('/api/v10/users/@me/activities', { headers: { Authorization: `Bearer ${token}` } })).json()).activities;
    expect(await activities()).toHaveLength(1);
    frame.remove();
    await expect.poll(activities, { timeout: 5000 }).toEqual([]);
  });

  it('CURRENT_GUILD_MEMBER_UPDATE when the user member changes', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { frame, activity: sdk } = await mountFrame(platform, { 'application-id': appId, 'guild-id': world.guild.id, 'channel-id': world.voice.id, 'user-id': world.bob.id, src: `${FIXTURES}/activity-sdk.html?client_id=${appId}` });
    await sdk.ready();
    const listening = nextEvent(frame, 'pp-platform-events');
    await sdk.commands.authenticate({ access_token: await world.token(world.bob.id) });
    const updates: unknown[] = [];
    await sdk.subscribe('CURRENT_GUILD_MEMBER_UPDATE', (d: unknown) => updates.push(d), { guild_id: world.guild.id });
    // The frame's gateway session must be listening before the change is made.
    await listening;
    await world.sandbox.putGuildMember(world.guild.id, world.bob.id, { nick: 'Bobby' });
    await expect.poll(() => updates, { timeout: 5000 }).toEqual([expect.objectContaining({ user_id: world.bob.id, guild_id: world.guild.id, nick: 'Bobby' })]);
  });

  it('ACTIVITY_LAYOUT_MODE_UPDATE when the host page changes the layout', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { frame, activity: sdk } = await mountFrame(platform, { 'application-id': appId, 'guild-id': world.guild.id, 'channel-id': world.voice.id, src: `${FIXTURES}/activity-sdk.html?client_id=${appId}` });
    await sdk.ready();
    await sdk.commands.authenticate({ access_token: await world.token(world.alice.id) });
    const modes: number[] = [];
    await sdk.subscribe('ACTIVITY_LAYOUT_MODE_UPDATE', (d: { layout_mode: number }) => modes.push(d.layout_mode));
    frame.setAttribute('layout-mode', '1');
    await expect.poll(() => modes).toEqual([1]);
  });
});
