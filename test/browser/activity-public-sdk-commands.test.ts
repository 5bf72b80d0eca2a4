/**
 * The commands and events @discord/embedded-app-sdk 2.5.0 had no answer for before, driven
 * through the public SDK exactly as published: every answer passes the SDK's own schemas (it
 * parses each reply and event, and rejects what does not fit), the dialogs are clicked in the
 * host page, a cancel gets the refusal the platform gives, and each event follows its cause.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { createActivityWorld, FIXTURES, mountFrame, mountPlatform, nextEvent } from './activity-harness';

const SCOPES =
  'identify guilds guilds.members.read rpc.activities.write relationships.read activities.invites.write messages.read dm_channels.messages.read';

afterEach(() => {
  document.body.replaceChildren();
});

type World = Awaited<ReturnType<typeof createActivityWorld>>;

/** `userId`'s frame (alice's by default) running the public SDK, authenticated, its platform session listening. */
async function publicSdkFrame(world: World, parent: HTMLElement, userId = world.alice.id) {
  const appId = world.application.id;
  const {
    frame,
    activity: discordSdk,
    window,
  } = await mountFrame(
    parent,
    {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      'user-id': userId,
      src: `${FIXTURES}/activity-discord-sdk.html?client_id=${appId}`,
    },
    'discordSdk',
  );
  await discordSdk.ready();
  const listening = nextEvent(frame, 'pp-platform-events');
  await discordSdk.commands.authenticate({ access_token: await world.token(userId) });
  await listening;
  return { frame, discordSdk, window };
}

async function setup() {
  const world = await createActivityWorld(SCOPES);
  const platform = await mountPlatform(world.alice.id);
  return { world, platform, ...(await publicSdkFrame(world, platform)) };
}

/** Alice and Bob become friends (the sandbox's relationship control). */
async function befriend(world: World) {
  await fetch(`/sandbox/users/${world.alice.id}/relationships/${world.bob.id}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 1 }),
  });
}

const png = () =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'moment.png', { type: 'image/png' });

/** Picks `file` in the host page's image upload dialog and presses Upload. */
async function uploadInDialog(file: File) {
  await page.getByLabelText('Image', { exact: true }).upload(file);
  await page.getByRole('button', { name: 'Upload' }).click();
}

describe('@discord/embedded-app-sdk 2.5.0: the commands it could not use before are answered in shapes its schemas accept', () => {
  it('getRelationships, getUser, the quest commands and requestProxyTicketRefresh answer from the store', async () => {
    const { world, discordSdk } = await setup();
    await befriend(world);
    const { relationships } = await discordSdk.commands.getRelationships();
    expect(relationships).toEqual([
      expect.objectContaining({ type: 1, user: expect.objectContaining({ id: world.bob.id }) }),
    ]);
    expect(await discordSdk.commands.getUser({ id: world.bob.id })).toMatchObject({
      id: world.bob.id,
      username: 'bob',
    });
    expect(await discordSdk.commands.getUser({ id: '1' })).toBeNull();

    const { quest } = await world.sandbox.createQuest({ application_id: world.application.id, name: 'Win a match' });
    await world.sandbox.enrollInQuest(quest.id, { application_id: world.application.id, user_id: world.alice.id });
    expect(await discordSdk.commands.getQuest()).toMatchObject({
      quest_id: quest.id,
      external_cta_url: quest.external_cta_url,
    });
    expect(await discordSdk.commands.getQuestEnrollmentStatus({ quest_id: quest.id })).toMatchObject({
      is_enrolled: true,
    });
    expect(await discordSdk.commands.questStartTimer({ quest_id: quest.id })).toEqual({ success: true });
    const { ticket } = await discordSdk.commands.requestProxyTicketRefresh();
    expect(ticket).toMatch(/^pt\./);
  });

  it('initiateImageUpload: the host page file picker; the uploaded image is served offline at the URL the activity gets', async () => {
    const { discordSdk, window } = await setup();
    const uploading = discordSdk.commands.initiateImageUpload();
    await uploadInDialog(png());
    const { image_url } = await uploading;
    const served = await window.fetch(image_url);
    expect(served.headers.get('X-Served-By')).toBe('platformpp-sw');
    expect(served.headers.get('Content-Type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(await png().arrayBuffer()));
  });

  it("openShareMomentDialog: the share dialog offers the guild's channels; the image is posted in the one picked", async () => {
    const { world, discordSdk } = await setup();
    const uploading = discordSdk.commands.initiateImageUpload();
    await uploadInDialog(png());
    const { image_url } = await uploading;
    expect(await discordSdk.commands.openShareMomentDialog({ mediaUrl: image_url })).toBeNull();
    await page.getByLabelText('#general', { exact: true }).click();
    await page.getByRole('button', { name: 'Share' }).click();
    const token = await world.token(world.alice.id);
    const messages = async () =>
      (await (
        await fetch(`/api/v10/channels/${world.text.id}/messages`, { headers: { Authorization: `Bearer ${token}` } })
      ).json()) as any[];
    await expect
      .poll(async () => (await messages()).map((m) => m.attachments[0]?.filename), { timeout: 5000 })
      .toEqual(['moment.png']);
    const error = await discordSdk.commands
      .openShareMomentDialog({ mediaUrl: 'https://example.com/x.png' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 4000 });
  });

  it("shareInteraction runs the application's command where the user shares it: {success: true}", async () => {
    const { world, discordSdk } = await setup();
    await fetch(`/api/v10/applications/${world.application.id}/commands`, {
      method: 'POST',
      headers: { Authorization: `Bot ${world.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'brag', description: 'Share a score' }),
    });
    await world.sandbox.putGuildMember(world.guild.id, world.bot.id);
    const sharing = discordSdk.commands.shareInteraction({
      command: 'brag',
      content: 'I won!',
      require_launch_channel: true,
    });
    await expect.element(page.getByText('I won!')).toBeVisible();
    await page.getByRole('button', { name: 'Share' }).click();
    expect(await sharing).toEqual({ success: true });
  });

  it('inviteUserEmbedded: once the user sends it, the invitee gets a direct message with an invite to the activity', async () => {
    const { world, discordSdk } = await setup();
    await befriend(world);
    const inviting = discordSdk.commands.inviteUserEmbedded({ user_id: world.bob.id, content: 'Come play' });
    await page.getByRole('button', { name: 'Send invite' }).click();
    expect(await inviting).toBeNull();
    const bobToken = await world.token(world.bob.id);
    const dms = await (
      await fetch(`/api/v10/users/@me/dms/${world.alice.id}/messages`, {
        headers: { Authorization: `Bearer ${bobToken}` },
      })
    ).json();
    expect(dms[0].content).toMatch(/^Come play\nhttps:\/\/discord\.gg\/\w+$/);
  });
});

describe("a cancelled dialog gets the platform's refusal, never a hang", () => {
  it('initiateImageUpload rejects with 1000 "Upload canceled"; inviteUserEmbedded with 1000; shareInteraction answers {success: false}', async () => {
    const { world, discordSdk } = await setup();
    const uploading = discordSdk.commands.initiateImageUpload().catch((e: unknown) => e);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await uploading).toMatchObject({ code: 1000, message: expect.stringContaining('Upload canceled') });

    await befriend(world);
    const inviting = discordSdk.commands.inviteUserEmbedded({ user_id: world.bob.id }).catch((e: unknown) => e);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await inviting).toMatchObject({ code: 1000 });

    await fetch(`/api/v10/applications/${world.application.id}/commands`, {
      method: 'POST',
      headers: { Authorization: `Bot ${world.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'brag', description: 'Share a score' }),
    });
    const sharing = discordSdk.commands.shareInteraction({ command: 'brag' });
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await sharing).toEqual({ success: false });
  });
});

describe('the events it could not subscribe to before follow their cause', () => {
  it('THERMAL_STATE_UPDATE: the device state at subscribe, then each change made through the sandbox control', async () => {
    const { world, discordSdk } = await setup();
    const states: number[] = [];
    await discordSdk.subscribe('THERMAL_STATE_UPDATE', (d: { thermal_state: number }) => states.push(d.thermal_state));
    await expect.poll(() => states).toEqual([0]);
    await world.sandbox.setThermalState(world.alice.id, 2);
    await expect.poll(() => states, { timeout: 5000 }).toEqual([0, 2]);
  });

  it('QUEST_ENROLLMENT_STATUS_UPDATE when the user enrolls in the quest', async () => {
    const { world, discordSdk } = await setup();
    const { quest } = await world.sandbox.createQuest({ application_id: world.application.id, name: 'Q' });
    const updates: unknown[] = [];
    await discordSdk.subscribe('QUEST_ENROLLMENT_STATUS_UPDATE', (d: unknown) => updates.push(d), {
      quest_id: quest.id,
    });
    await world.sandbox.enrollInQuest(quest.id, { application_id: world.application.id, user_id: world.alice.id });
    await expect
      .poll(() => updates, { timeout: 5000 })
      .toEqual([{ quest_id: quest.id, is_enrolled: true, enrolled_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }]);
  });

  it("ACTIVITY_JOIN when the user joins through the activity's Join button, and through an activity invite", async () => {
    const { world, platform, discordSdk: alice } = await setup();
    await befriend(world);
    await alice.commands.setActivity({
      activity: { type: 0, party: { id: 'table', size: [1, 2] }, secrets: { join: 'seat-2' } },
    });
    const { discordSdk: bob } = await publicSdkFrame(world, platform, world.bob.id);
    const joins: unknown[] = [];
    await bob.subscribe('ACTIVITY_JOIN', (d: unknown) => joins.push(d));
    await world.sandbox.joinActivity(world.bob.id, {
      application_id: world.application.id,
      from_user_id: world.alice.id,
    });
    const expected = { applicationId: world.application.id, secret: 'seat-2' };
    await expect.poll(() => joins, { timeout: 5000 }).toEqual([expected]);

    const inviting = alice.commands.inviteUserEmbedded({ user_id: world.bob.id });
    await page.getByRole('button', { name: 'Send invite' }).click();
    await inviting;
    const dms = await (
      await fetch(`/api/v10/users/@me/dms/${world.alice.id}/messages`, {
        headers: { Authorization: `Bearer ${await world.token(world.bob.id)}` },
      })
    ).json();
    const code = /discord\.gg\/(\w+)/.exec(dms[0].content)![1];
    await world.sandbox.acceptInvite(code, world.bob.id);
    await expect.poll(() => joins, { timeout: 5000 }).toEqual([expected, expected]);
  });
});
