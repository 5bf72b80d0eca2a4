// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { readEventsAfter } from '../../../src/store/event-log';
import { connectSession } from '../presence-fixtures';
import { createActivity, createRpcWorld, participant } from './rpc-harness';

const ALL = 'identify guilds guilds.members.read rpc.activities.write relationships.read activities.invites.write';

async function setup(
  options: { scopes?: string; ui?: Parameters<typeof createActivity>[1]['ui']; guild?: boolean } = {},
) {
  const world = await createRpcWorld(options.scopes ?? ALL);
  const activity = createActivity(world.client, {
    applicationId: world.application.id,
    user: participant(world.alice),
    guildId: options.guild === false ? null : world.guild.id,
    channelId: world.voice.id,
    ui: options.ui,
  });
  activity.handshake();
  await activity.authenticate(world.aliceTokens.access_token);
  return { world, activity, appId: world.application.id as string };
}

/** Logged events of `type` so far: what the gateway would hand the frame's session. */
async function logged(world: Awaited<ReturnType<typeof createRpcWorld>>, type: string) {
  return (await readEventsAfter(world.client.app.ctx.db, 0)).filter((e) => e.type === type);
}

describe('GET_RELATIONSHIPS and GET_USER (users and relationships from the store)', () => {
  it('GET_RELATIONSHIPS needs relationships.read (4006); with it, answers the store relationships', async () => {
    const without = await setup({ scopes: 'identify' });
    expect((await without.activity.command('GET_RELATIONSHIPS')).data).toMatchObject({
      code: 4006,
      message: expect.stringContaining('relationships.read'),
    });
    const { world, activity } = await setup();
    await world.client.put(`/sandbox/users/${world.alice.id}/relationships/${world.bob.id}`, { type: 1 });
    const reply = await activity.command('GET_RELATIONSHIPS');
    expect(reply.data.relationships).toEqual([
      {
        type: 1,
        user: expect.objectContaining({ id: world.bob.id, flags: 0, bot: false }),
        presence: { status: 'offline' },
      },
    ]);
  });

  it('GET_USER answers a known user, null for anyone else, and 4000 without an id', async () => {
    const { world, activity } = await setup();
    expect((await activity.command('GET_USER', { id: world.bob.id })).data).toMatchObject({ id: world.bob.id });
    expect((await activity.command('GET_USER', { id: '42' })).data).toBeNull();
    expect((await activity.command('GET_USER', {})).data).toMatchObject({
      code: 4000,
      message: expect.stringContaining('args.id'),
    });
  });
});

describe('quests (GET_QUEST, GET_QUEST_ENROLLMENT_STATUS, QUEST_START_TIMER) and QUEST_ENROLLMENT_STATUS_UPDATE', () => {
  it('the commands need identify; answers and refusals are the platform client ones', async () => {
    const without = await setup({ scopes: 'guilds' });
    expect((await without.activity.command('GET_QUEST')).data.code).toBe(4006);
    const { world, activity, appId } = await setup();
    expect((await activity.command('GET_QUEST')).data).toMatchObject({
      code: 4002,
      message: expect.stringContaining('No eligible quests'),
    });
    const { quest } = (await world.client.post('/sandbox/quests', { application_id: appId, name: 'Q' })).body;
    expect((await activity.command('GET_QUEST_ENROLLMENT_STATUS', {})).data.code).toBe(4000);
    expect((await activity.command('QUEST_START_TIMER', { quest_id: quest.id })).data).toMatchObject({
      code: 4002,
      message: expect.stringContaining('User is not enrolled in quest'),
    });
    await world.client.post(`/sandbox/quests/${quest.id}/enrollments`, {
      application_id: appId,
      user_id: world.alice.id,
    });
    expect((await activity.command('GET_QUEST_ENROLLMENT_STATUS', { quest_id: quest.id })).data).toMatchObject({
      quest_id: quest.id,
      is_enrolled: true,
    });
    expect((await activity.command('QUEST_START_TIMER', { quest_id: quest.id })).data).toEqual({ success: true });
    expect((await activity.command('GET_QUEST')).data).toMatchObject({ quest_id: quest.id, completed_at: null });
  });

  it('QUEST_ENROLLMENT_STATUS_UPDATE: an enrollment reaches subscriptions of that quest and of every quest, with a calendar date', async () => {
    const { world, activity, appId } = await setup();
    const { quest } = (await world.client.post('/sandbox/quests', { application_id: appId, name: 'Q' })).body;
    await activity.command('SUBSCRIBE', { quest_id: quest.id }, 'QUEST_ENROLLMENT_STATUS_UPDATE');
    await activity.command('SUBSCRIBE', undefined, 'QUEST_ENROLLMENT_STATUS_UPDATE');
    // Not enrolled yet: nothing the public SDK's schema could take, so nothing at subscribe.
    expect(activity.dispatched('QUEST_ENROLLMENT_STATUS_UPDATE')).toEqual([]);
    await world.client.post(`/sandbox/quests/${quest.id}/enrollments`, {
      application_id: appId,
      user_id: world.alice.id,
    });
    const [event] = await logged(world, 'QUEST_ENROLLMENT_STATUS_UPDATE');
    activity.host.platformEvent(event.type, event.data);
    const expected = {
      quest_id: quest.id,
      is_enrolled: true,
      enrolled_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    };
    expect(activity.dispatched('QUEST_ENROLLMENT_STATUS_UPDATE')).toEqual([expected, expected]);
    // Another user's enrollment means nothing to this activity.
    activity.host.platformEvent(event.type, { ...(event.data as object), user_id: world.bob.id });
    expect(activity.dispatched('QUEST_ENROLLMENT_STATUS_UPDATE')).toHaveLength(2);
    // A later subscription of the quest hears the enrollment at once.
    const later = createActivity(world.client, {
      applicationId: appId,
      user: participant(world.alice),
      guildId: world.guild.id,
      channelId: world.voice.id,
    });
    later.handshake();
    await later.authenticate(world.aliceTokens.access_token);
    await later.command('SUBSCRIBE', { quest_id: quest.id }, 'QUEST_ENROLLMENT_STATUS_UPDATE');
    expect(later.dispatched('QUEST_ENROLLMENT_STATUS_UPDATE')).toEqual([expected]);
  });
});

describe('THERMAL_STATE_UPDATE and ACTIVITY_JOIN', () => {
  it("THERMAL_STATE_UPDATE: the device's state at subscribe, then each change of the user's device", async () => {
    const { world, activity } = await setup();
    await activity.command('SUBSCRIBE', undefined, 'THERMAL_STATE_UPDATE');
    expect(activity.dispatched('THERMAL_STATE_UPDATE')).toEqual([{ thermal_state: 0 }]);
    await world.client.put(`/sandbox/users/${world.alice.id}/device`, { thermal_state: 2 });
    const [event] = await logged(world, 'THERMAL_STATE_UPDATE');
    activity.host.platformEvent(event.type, event.data);
    activity.host.platformEvent(event.type, { user_id: world.bob.id, thermal_state: 3 });
    expect(activity.dispatched('THERMAL_STATE_UPDATE')).toEqual([{ thermal_state: 0 }, { thermal_state: 2 }]);
  });

  it('ACTIVITY_JOIN: a join made before the activity listened arrives at subscribe; one made while it listens arrives once', async () => {
    const { world, appId } = await setup();
    await connectSession(world.client.app.ctx, world.alice.id);
    await world.client.put(
      '/api/v10/users/@me/activities',
      { activity: { type: 0, secrets: { join: 'j1' } } },
      `Bearer ${world.aliceTokens.access_token}`,
    );
    const join = () =>
      world.client.post(`/sandbox/users/${world.bob.id}/activity-joins`, {
        application_id: appId,
        from_user_id: world.alice.id,
      });
    await join();
    const bob = createActivity(world.client, {
      applicationId: appId,
      user: participant(world.bob),
      guildId: world.guild.id,
      channelId: world.voice.id,
    });
    bob.handshake();
    await bob.authenticate(world.bobTokens.access_token);
    await bob.command('SUBSCRIBE', undefined, 'ACTIVITY_JOIN');
    expect(bob.dispatched('ACTIVITY_JOIN')).toEqual([{ applicationId: appId, secret: 'j1' }]);
    await join();
    const events = await logged(world, 'ACTIVITY_JOIN');
    bob.host.platformEvent('ACTIVITY_JOIN', events[1].data);
    bob.host.platformEvent('ACTIVITY_JOIN', events[1].data);
    await vi.waitFor(() => expect(bob.dispatched('ACTIVITY_JOIN')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bob.dispatched('ACTIVITY_JOIN')).toHaveLength(2);
  });
});

describe('dialog commands: what the user picks goes through the platform; a cancel gets the platform answer', () => {
  const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'pic.png', { type: 'image/png' });

  it('INITIATE_IMAGE_UPLOAD: a cancel is 1000 "Upload canceled"; a picked image is uploaded and its URL answered', async () => {
    const cancelled = await setup();
    expect((await cancelled.activity.command('INITIATE_IMAGE_UPLOAD')).data).toEqual({
      code: 1000,
      message: 'Unknown error: Upload canceled',
    });
    expect(cancelled.activity.ui.images).toEqual([{ application: { id: cancelled.appId, name: 'Game' } }]);
    const { world, activity } = await setup({ ui: { pickImage: async () => png() } });
    const { data } = await activity.command('INITIATE_IMAGE_UPLOAD');
    expect(data.image_url).toMatch(/\/attachments\/ephemeral\/\d+\/\d+\/pic\.png$/);
    expect((await world.client.app.fetch(new Request(data.image_url))).status).toBe(200);
    const wrong = await setup({ ui: { pickImage: async () => new File(['<b>'], 'x.html', { type: 'text/html' }) } });
    expect((await wrong.activity.command('INITIATE_IMAGE_UPLOAD')).data).toMatchObject({
      code: 1000,
      message: expect.stringContaining('Failed to upload image'),
    });
  });

  it("OPEN_SHARE_MOMENT_DIALOG: only the platform's media (4000 naming args.mediaUrl); answers once the dialog is open; the pick is posted", async () => {
    let pick: (choice: { channel_id: string } | null) => void = () => undefined;
    const { world, activity } = await setup({
      ui: { pickImage: async () => png(), chooseShareTarget: () => new Promise((resolve) => (pick = resolve)) },
    });
    expect(
      (await activity.command('OPEN_SHARE_MOMENT_DIALOG', { mediaUrl: 'https://example.com/a.png' })).data,
    ).toMatchObject({
      code: 4000,
      message: expect.stringContaining('args.mediaUrl'),
    });
    const { image_url } = (await activity.command('INITIATE_IMAGE_UPLOAD')).data;
    expect((await activity.command('OPEN_SHARE_MOMENT_DIALOG', { mediaUrl: image_url })).data).toBeNull();
    const before = await world.client.app.ctx.db.count('channel_messages');
    pick({ channel_id: world.text.id });
    await vi.waitFor(async () => expect(await world.client.app.ctx.db.count('channel_messages')).toBe(before + 1));
  });

  it('SHARE_INTERACTION: an unknown command is 4000 naming args.command; a cancel is {success: false}; a pick runs the command there', async () => {
    const { world, activity, appId } = await setup();
    expect((await activity.command('SHARE_INTERACTION', { command: 'nope' })).data).toMatchObject({
      code: 4000,
      message: expect.stringContaining('args.command'),
    });
    await world.client.post(
      `/api/v10/applications/${appId}/commands`,
      { name: 'brag', description: 'Brag' },
      world.botAuth,
    );
    await world.client.put(`/sandbox/guilds/${world.guild.id}/members/${world.bot.id}`, {});
    expect(
      (await activity.command('SHARE_INTERACTION', { command: 'brag', require_launch_channel: true })).data,
    ).toEqual({ success: false });
    expect(activity.ui.shareDialogs[0]).toMatchObject({ kind: 'interaction', command: 'brag' });
    expect(activity.ui.shareDialogs[0].targets.channels.map((c) => c.id)).toEqual([world.voice.id]);
    const sharing = await setup({ ui: { chooseShareTarget: async (r) => ({ channel_id: r.targets.channels[0].id }) } });
    await sharing.world.client.post(
      `/api/v10/applications/${sharing.appId}/commands`,
      { name: 'brag', description: 'Brag' },
      sharing.world.botAuth,
    );
    // The command runs in the guild only where the application is installed (its bot is a member).
    await sharing.world.client.put(`/sandbox/guilds/${sharing.world.guild.id}/members/${sharing.world.bot.id}`, {});
    expect((await sharing.activity.command('SHARE_INTERACTION', { command: 'brag', content: 'I won' })).data).toEqual({
      success: true,
    });
    expect(await sharing.world.client.app.ctx.db.count('interactions')).toBe(1);
  });

  it('INVITE_USER_EMBEDDED: needs an invite scope (4006), a known user (4010), a guild channel (4005); a cancel is 1000 and sends nothing', async () => {
    const noScope = await setup({ scopes: 'identify' });
    expect((await noScope.activity.command('INVITE_USER_EMBEDDED', { user_id: noScope.world.bob.id })).data.code).toBe(
      4006,
    );
    const { world, activity } = await setup();
    expect((await activity.command('INVITE_USER_EMBEDDED', { user_id: '42' })).data.code).toBe(4010);
    expect(
      (await activity.command('INVITE_USER_EMBEDDED', { user_id: world.bob.id, content: 'hi' })).data,
    ).toMatchObject({
      code: 1000,
      message: expect.stringContaining('Failed to invite user'),
    });
    expect(activity.ui.inviteDialogs[0]).toMatchObject({ user: { id: world.bob.id }, content: 'hi' });
    expect(await world.client.app.ctx.db.count('invites')).toBe(0);
    const dm = await setup({ guild: false });
    expect((await dm.activity.command('INVITE_USER_EMBEDDED', { user_id: dm.world.bob.id })).data.code).toBe(4005);
    const sending = await setup({ ui: { confirmActivityInvite: async () => true } });
    expect((await sending.activity.command('INVITE_USER_EMBEDDED', { user_id: sending.world.bob.id })).data).toBeNull();
    expect(await sending.world.client.app.ctx.db.count('invites')).toBe(1);
  });

  it('REQUEST_PROXY_TICKET_REFRESH answers a fresh ticket each time', async () => {
    const { activity } = await setup();
    const first = (await activity.command('REQUEST_PROXY_TICKET_REFRESH')).data.ticket;
    const second = (await activity.command('REQUEST_PROXY_TICKET_REFRESH')).data.ticket;
    expect(first).toMatch(/^pt\./);
    expect(second).not.toBe(first);
  });
});
