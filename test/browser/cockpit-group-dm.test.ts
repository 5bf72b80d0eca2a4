/**
 * The cockpit's "Launch in" choice of a group DM, received by an activity using
 * @discord/embedded-app-sdk 2.5.0 unchanged: the players' activities start again in the
 * application's group DM of every user, outside any guild, as one instance of that channel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { mountCockpitPage, readySdk } from './cockpit-harness';

afterEach(() => {
  document.body.replaceChildren();
});

const panel = () => page.getByRole('region', { name: "What the platform's clients do" });

describe('launched in a group DM from the cockpit', () => {
  it('no guild, the group DM channel (GET_CHANNEL type 3), location c-<channel> of kind pc, both players in one instance; back in the guild', async () => {
    const { world, players, users } = await mountCockpitPage(['alice', 'bob']);
    const guildInstance = players[0].frame.instance?.instance_id;
    await panel().getByRole('combobox', { name: 'Launch in' }).selectOptions('group-dm');
    await expect.element(panel().getByRole('status')).toHaveTextContent('Launched in a group DM');
    for (const { frame } of players) await expect.poll(() => frame.guildId, { timeout: 10_000 }).toBeNull();
    const sdks = [];
    for (const player of players) sdks.push(await readySdk(world, player));
    const channelId = players[0].frame.channelId!;
    expect(players[1].frame.channelId).toBe(channelId);
    for (const sdk of sdks) {
      expect(sdk.guildId).toBeNull();
      expect(sdk.channelId).toBe(channelId);
      expect(sdk.locationId).toBe(`c-${channelId}`);
      expect(sdk.instanceId).not.toBe(guildInstance);
    }
    // GET_CHANNEL through the public SDK's own schema: a group DM without a guild.
    const channel = await sdks[0].commands.getChannel({ channel_id: channelId });
    expect(channel).toMatchObject({ id: channelId, type: 3 });
    expect(channel.guild_id ?? null).toBeNull();
    // One instance of the group DM, with both players in it.
    const { participants } = await sdks[1].commands.getInstanceConnectedParticipants();
    expect(participants.map((p: { id: string }) => p.id).sort()).toEqual([users.alice, users.bob].sort());
    // The group DM is the application bot's, with every user of the world in it.
    const response = await fetch(`/api/v10/channels/${channelId}`, {
      headers: { Authorization: `Bot ${world.botToken}` },
    });
    const group = await response.json();
    expect(group).toMatchObject({ type: 3, owner_id: world.bot.id, application_id: world.application.id });
    expect(group.recipients.map((r: { id: string }) => r.id).sort()).toEqual(Object.values(users).sort());
    // The instance's location, as the application's backend reads it: a private channel.
    const instance = await fetch(
      `/api/v10/applications/${world.application.id}/activity-instances/${sdks[0].instanceId}`,
      { headers: { Authorization: `Bot ${world.botToken}` } },
    );
    expect((await instance.json()).location).toEqual({ id: `c-${channelId}`, kind: 'pc', channel_id: channelId });
    // Launching there again finds the same group DM rather than making another.
    await panel().getByRole('combobox', { name: 'Launch in' }).selectOptions('guild');
    await expect.poll(() => players[0].frame.guildId, { timeout: 10_000 }).toBe(world.guild.id);
    await panel().getByRole('combobox', { name: 'Launch in' }).selectOptions('group-dm');
    await expect.poll(() => players[0].frame.channelId, { timeout: 10_000 }).toBe(channelId);
  }, 90_000);
});
