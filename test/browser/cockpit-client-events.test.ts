/**
 * What the platform's clients do, on demand from the cockpit, received by an activity using
 * @discord/embedded-app-sdk 2.5.0 unchanged; and every player in one tab. Each control is
 * clicked in the cockpit's panel, and each event arrives through the public SDK's own schemas.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { SAFE_AREA_VARIABLES } from '../../src/vite/host/device-frames';
import { nextEvent } from './activity-harness';
import { CallStatus } from '../../src/sdk/call-status';
import { COCKPIT_SCOPES, callClient, mountCockpitPage, readySdk, voiceState } from './cockpit-harness';

afterEach(() => {
  document.body.replaceChildren();
});

/** A token of `userId` for the activity with `rpc.voice.read`, which SPEAKING_* and VOICE_STATE_UPDATE need. */
async function voiceReader(world: Awaited<ReturnType<typeof mountCockpitPage>>['world'], userId: string) {
  const scopes = `${COCKPIT_SCOPES} rpc.voice.read`;
  return (await world.sandbox.createToken({ application_id: world.application.id, user_id: userId, scopes }))
    .access_token;
}

const panel = () => page.getByRole('region', { name: "What the platform's clients do" });

describe('every player in one tab', () => {
  it('Alice | Bob side by side: two real participants of one instance, each with its own user and token', async () => {
    const { sdks, players, users } = await mountCockpitPage(['alice', 'bob']);
    expect(players[0].frame.instance?.instance_id).toBe(players[1].frame.instance?.instance_id);
    for (const sdk of sdks) {
      const { participants } = await sdk.commands.getInstanceConnectedParticipants();
      expect(participants.map((p: { id: string }) => p.id).sort()).toEqual([users.alice, users.bob].sort());
    }
    await expect.element(page.getByRole('region', { name: 'Alice' })).toBeVisible();
    await expect.element(page.getByRole('region', { name: 'Bob' })).toBeVisible();
  }, 45_000);
});

describe('the simulated client events reach an activity using the public SDK 2.5.0 unchanged', () => {
  it('a simulated participant joins and leaves: ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', async () => {
    const { sdks, users } = await mountCockpitPage();
    const updates: string[][] = [];
    await sdks[0].subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', (d: { participants: { id: string }[] }) =>
      updates.push(d.participants.map((p) => p.id)),
    );
    await panel().getByRole('button', { name: 'Join the instance' }).first().click();
    await expect.poll(() => updates.at(-1)?.includes(users.bob)).toBe(true);
    await panel().getByRole('button', { name: 'Leave' }).click();
    await expect.poll(() => updates.at(-1)).toEqual([users.alice]);
  });

  it('a player speaks and stops: their voice client joins the call and sends Speaking (op 5) 1 then 0; the activity hears SPEAKING_START and SPEAKING_STOP, and another client in the call hears op 5', async () => {
    const { world, sdks, users, players, platform } = await mountCockpitPage();
    // rpc.voice.read is what SPEAKING_* need: a token with it.
    await sdks[0].commands.authenticate({ access_token: await voiceReader(world, users.alice) });
    const heard: string[] = [];
    const channel_id = players[0].frame.channelId;
    await sdks[0].subscribe('SPEAKING_START', (d: { user_id: string }) => heard.push(`start ${d.user_id}`), {
      channel_id,
    });
    await sdks[0].subscribe('SPEAKING_STOP', (d: { user_id: string }) => heard.push(`stop ${d.user_id}`), {
      channel_id,
    });
    // Chen is in the call with the game SDK: he learns who speaks from the voice server only.
    const chen = await callClient(world, users.chen, platform.hubName);
    try {
      const call = chen.joinVoiceChannel(world.guild.id, world.voice.id);
      const chenHeard: string[] = [];
      call.setSpeakingStatusChangedCallback((userId, speaking) =>
        chenHeard.push(`${speaking ? 'start' : 'stop'} ${userId}`),
      );
      await expect.poll(() => call.getStatus(), { timeout: 10_000 }).toBe(CallStatus.Connected);
      const button = panel().getByRole('button', { name: 'Alice speaks' });
      await button.click();
      await expect.element(button).toHaveAttribute('aria-pressed', 'true');
      await expect.poll(() => heard, { timeout: 10_000 }).toEqual([`start ${users.alice}`]);
      // Alice is in the call: her voice state, and the other client saw her come in.
      expect(call.getParticipants()).toContain(users.alice);
      expect((await voiceState(world, users.alice)).body).toMatchObject({ channel_id, user_id: users.alice });
      await button.click();
      await expect.poll(() => heard).toEqual([`start ${users.alice}`, `stop ${users.alice}`]);
      await expect.poll(() => chenHeard).toEqual([`start ${users.alice}`, `stop ${users.alice}`]);
    } finally {
      await chen.destroy();
    }
  });

  it('a simulated participant joins the call with the instance (VOICE_STATE_UPDATE, its user as the public SDK requires; GET voice state), speaks through the voice gateway, and leaves the call with the instance', async () => {
    const { world, sdks, users, players } = await mountCockpitPage();
    // The frame's platform session starts again with the new token: the voice states come through it.
    const listening = nextEvent(players[0].frame, 'pp-platform-events');
    await sdks[0].commands.authenticate({ access_token: await voiceReader(world, users.alice) });
    await listening;
    const channel_id = players[0].frame.channelId;
    const states: string[] = [];
    await sdks[0].subscribe('VOICE_STATE_UPDATE', (d: { user: { id: string } }) => states.push(d.user.id), {
      channel_id,
    });
    const heard: string[] = [];
    await sdks[0].subscribe('SPEAKING_START', (d: { user_id: string }) => heard.push(`start ${d.user_id}`), {
      channel_id,
    });
    await sdks[0].subscribe('SPEAKING_STOP', (d: { user_id: string }) => heard.push(`stop ${d.user_id}`), {
      channel_id,
    });
    await panel().getByRole('button', { name: 'Join the instance' }).first().click();
    await expect.poll(() => states, { timeout: 10_000 }).toContain(users.bob);
    await expect.element(panel().getByRole('status')).toHaveTextContent('Bob joined');
    expect((await voiceState(world, users.bob)).body).toMatchObject({ channel_id, user_id: users.bob });
    const button = panel().getByRole('button', { name: 'Bob speaks' });
    await button.click();
    await expect.poll(() => heard, { timeout: 10_000 }).toEqual([`start ${users.bob}`]);
    // Leaving while speaking: the call hears the speaker stop, and the voice state is gone.
    await panel().getByRole('button', { name: 'Leave' }).click();
    await expect.poll(() => heard, { timeout: 10_000 }).toEqual([`start ${users.bob}`, `stop ${users.bob}`]);
    await expect.poll(async () => (await voiceState(world, users.bob)).status, { timeout: 10_000 }).toBe(404);
  });

  it('the layout mode: ACTIVITY_LAYOUT_MODE_UPDATE (grid, picture-in-picture, focused)', async () => {
    const { sdks } = await mountCockpitPage();
    const modes: number[] = [];
    await sdks[0].subscribe('ACTIVITY_LAYOUT_MODE_UPDATE', (d: { layout_mode: number }) => modes.push(d.layout_mode));
    await panel().getByRole('radio', { name: 'Grid' }).click();
    await panel().getByRole('radio', { name: 'Picture-in-picture' }).click();
    await panel().getByRole('radio', { name: 'Focused' }).click();
    await expect.poll(() => modes).toEqual([2, 1, 0]);
  });

  it('a phone: the mobile platform with mobile_app_version, the safe-area insets, and ORIENTATION_UPDATE when it turns', async () => {
    const { world, players } = await mountCockpitPage();
    const frame = players[0].frame;
    await panel().getByRole('combobox', { name: 'Device and platform' }).selectOptions('phone-portrait');
    // The platform changed: the activity starts afresh on the mobile platform.
    await expect
      .poll(() => (frame.iframe!.contentWindow as any)?.discordSdk?.platform, { timeout: 10_000 })
      .toBe('mobile');
    const sdk = await readySdk(world, players[0]);
    expect(sdk.mobileAppVersion).toMatch(/^\d+\.\d+$/);
    expect(frame.getBoundingClientRect().width).toBe(390);
    const root = () => getComputedStyle(frame.iframe!.contentDocument!.documentElement);
    await expect.poll(() => root().getPropertyValue(SAFE_AREA_VARIABLES.top).trim()).toBe('47px');
    expect(root().getPropertyValue(SAFE_AREA_VARIABLES.bottom).trim()).toBe('34px');
    const orientations: number[] = [];
    await sdk.subscribe('ORIENTATION_UPDATE', (d: { screen_orientation: number }) =>
      orientations.push(d.screen_orientation),
    );
    await panel().getByRole('combobox', { name: 'Device and platform' }).selectOptions('phone-landscape');
    await expect.poll(() => orientations).toEqual([1]);
    await panel().getByRole('combobox', { name: 'Device and platform' }).selectOptions('phone-portrait');
    await expect.poll(() => orientations).toEqual([1, 0]);
    expect(root().getPropertyValue(SAFE_AREA_VARIABLES.top).trim()).toBe('47px');
  });

  it('the thermal state: THERMAL_STATE_UPDATE through the sandbox device', async () => {
    const { sdks } = await mountCockpitPage();
    const states: number[] = [];
    await sdks[0].subscribe('THERMAL_STATE_UPDATE', (d: { thermal_state: number }) => states.push(d.thermal_state));
    await expect.poll(() => states).toEqual([0]);
    await panel().getByRole('combobox', { name: 'Thermal state' }).selectOptions('2');
    await expect.poll(() => states, { timeout: 5000 }).toEqual([0, 2]);
  });

  it("the locale: USER_SETTINGS_GET_LOCALE answers the cockpit's", async () => {
    const { sdks } = await mountCockpitPage();
    await page.getByRole('textbox', { name: 'Locale' }).fill('fr');
    (page.getByRole('textbox', { name: 'Locale' }).element() as HTMLInputElement).dispatchEvent(new Event('change'));
    await expect.poll(() => sdks[0].commands.userSettingsGetLocale()).toEqual({ locale: 'fr' });
  });

  it('START_PURCHASE completed: the entitlement is answered and ENTITLEMENT_CREATE arrives; cancelled: null and no event', async () => {
    const { sdks } = await mountCockpitPage();
    const sdk = sdks[0];
    await panel().getByRole('button', { name: 'Add a test SKU' }).click();
    await expect.poll(async () => (await sdk.commands.getSkus()).skus.length).toBe(1);
    const [sku] = (await sdk.commands.getSkus()).skus;
    const created: { sku_id: string }[] = [];
    await sdk.subscribe('ENTITLEMENT_CREATE', (d: { entitlement: { sku_id: string } }) => created.push(d.entitlement));
    await panel().getByRole('radio', { name: 'Cancel' }).click();
    expect(await sdk.commands.startPurchase({ sku_id: sku.id })).toBeNull();
    await panel().getByRole('radio', { name: 'Complete' }).click();
    const entitlements = await sdk.commands.startPurchase({ sku_id: sku.id });
    expect(entitlements).toMatchObject([{ sku_id: sku.id }]);
    await expect.poll(() => created, { timeout: 5000 }).toMatchObject([{ sku_id: sku.id }]);
  });

  it('launched in a DM: no guild, the DM channel, its location; back in the guild voice channel', async () => {
    const { world, players, users } = await mountCockpitPage();
    const frame = players[0].frame;
    const guildFrame = frame.frameId;
    const guildInstance = frame.instance?.instance_id;
    await panel().getByRole('combobox', { name: 'Launch in' }).selectOptions('dm:bob');
    await expect.element(panel().getByRole('status')).toHaveTextContent('Launched in a DM');
    await expect.poll(() => frame.guildId, { timeout: 10_000 }).toBeNull();
    await expect.poll(() => frame.frameId !== guildFrame && frame.status === 'running', { timeout: 10_000 }).toBe(true);
    const sdk = await readySdk(world, players[0]);
    expect(sdk.guildId).toBeNull();
    expect(sdk.channelId).toBe(frame.channelId);
    expect(sdk.locationId).toBe(`c-${frame.channelId}`);
    // A new instance, of the DM's channel, with the player in it.
    expect(sdk.instanceId).not.toBe(guildInstance);
    const { participants } = await sdk.commands.getInstanceConnectedParticipants();
    expect(participants.map((p: { id: string }) => p.id)).toEqual([users.alice]);
    await panel().getByRole('combobox', { name: 'Launch in' }).selectOptions('guild');
    await expect.poll(() => frame.guildId, { timeout: 10_000 }).toBe(world.guild.id);
  }, 60_000);

  it('closing the instance: the activity receives CLOSE 1000 and the frame closes', async () => {
    const { players } = await mountCockpitPage();
    const frame = players[0].frame;
    const received: unknown[] = [];
    frame.iframe!.contentWindow!.addEventListener(
      'message',
      (e) => Array.isArray(e.data) && e.data[0] === 2 && received.push(e.data[1]),
    );
    await panel().getByRole('button', { name: 'Close the activities' }).click();
    await expect.poll(() => received).toMatchObject([{ code: 1000 }]);
    await expect.poll(() => frame.status).toBe('closed');
  });
});
