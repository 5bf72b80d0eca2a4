// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, PERMISSIONS } from '../../../src/platform/core/permissions';
import { readEventsAfter } from '../../../src/store/event-log';
import { connectSession } from '../presence-fixtures';
import { createActivity, createRpcWorld, participant } from './rpc-harness';

async function setup(options: { scopes?: string; asBob?: boolean } = {}) {
  const world = await createRpcWorld(options.scopes);
  const user = options.asBob ? world.bob : world.alice;
  const activity = createActivity(world.client, {
    applicationId: world.application.id,
    user: participant(user),
    guildId: world.guild.id,
    channelId: world.text.id,
  });
  activity.handshake();
  await activity.authenticate((options.asBob ? world.bobTokens : world.aliceTokens).access_token);
  return { world, activity };
}

describe('SET_ACTIVITY', () => {
  it('SET_ACTIVITY accepts types Playing (0), Listening (2), Watching (3), Competing (5) and it becomes the user rich presence', async () => {
    const { world, activity } = await setup();
    await connectSession(world.client.app.ctx, world.alice.id);
    for (const type of [0, 2, 3, 5]) {
      const reply = await activity.command('SET_ACTIVITY', {
        activity: { type, details: 'Ranked', state: 'In a match', party: { id: 'p1', size: [1, 4] } },
      });
      expect(reply.evt).toBeNull();
      expect(reply.data).toMatchObject({
        name: 'Game',
        type,
        details: 'Ranked',
        state: 'In a match',
        application_id: world.application.id,
      });
    }
    const presence = await world.client.app.ctx.db.get('presences', world.alice.id);
    expect(presence?.activities).toEqual([expect.objectContaining({ type: 5, details: 'Ranked' })]);
    const dispatched = (await readEventsAfter(world.client.app.ctx.db, 0)).filter((e) => e.type === 'PRESENCE_UPDATE');
    expect(dispatched.length).toBeGreaterThan(0);
  });

  it('SET_ACTIVITY refuses any other activity type with ERROR 4000 naming args.activity.type, and changes nothing', async () => {
    const { world, activity } = await setup();
    for (const type of [1, 4, 6, -1]) {
      const reply = await activity.command('SET_ACTIVITY', { activity: { type } });
      expect(reply.data.code).toBe(4000);
      expect(reply.data.message).toContain('args.activity.type');
    }
    expect(await world.client.app.ctx.db.get('presences', world.alice.id)).toBeUndefined();
  });

  it('clears the activity with activity: null', async () => {
    const { world, activity } = await setup();
    await activity.command('SET_ACTIVITY', { activity: { type: 0 } });
    const reply = await activity.command('SET_ACTIVITY', { activity: null });
    expect(reply).toMatchObject({ evt: null, data: null });
    expect((await world.client.app.ctx.db.get('presences', world.alice.id))?.activities).toEqual([]);
  });

  it('needs rpc.activities.write (4006)', async () => {
    const { activity } = await setup({ scopes: 'identify guilds' });
    expect((await activity.command('SET_ACTIVITY', { activity: { type: 0 } })).data.code).toBe(4006);
  });
});

describe('GET_CHANNEL and GET_CHANNEL_PERMISSIONS', () => {
  it('GET_CHANNEL answers the channel with its voice states and messages', async () => {
    const { world, activity } = await setup();
    const reply = await activity.command('GET_CHANNEL', { channel_id: world.voice.id });
    expect(reply.data).toEqual({
      id: world.voice.id,
      type: 2,
      guild_id: world.guild.id,
      name: 'General',
      topic: null,
      bitrate: null,
      user_limit: null,
      position: 0,
      voice_states: [],
      messages: [],
    });
  });

  it('GET_CHANNEL: an unknown channel, or one the user cannot view, is ERROR 4005', async () => {
    const { world, activity } = await setup({ asBob: true });
    const hidden = (
      await world.client.post(`/sandbox/guilds/${world.guild.id}/channels`, {
        name: 'secret',
        type: 0,
        permission_overwrites: [{ id: world.guild.id, type: 0, allow: '0', deny: String(PERMISSIONS.VIEW_CHANNEL) }],
      })
    ).body.channel;
    expect((await activity.command('GET_CHANNEL', { channel_id: hidden.id })).data.code).toBe(4005);
    expect((await activity.command('GET_CHANNEL', { channel_id: '123456789' })).data.code).toBe(4005);
  });

  it('GET_CHANNEL needs guilds (4006)', async () => {
    const { world, activity } = await setup({ scopes: 'identify' });
    expect((await activity.command('GET_CHANNEL', { channel_id: world.text.id })).data.code).toBe(4006);
  });

  it('GET_CHANNEL_PERMISSIONS answers the user permissions in the frame channel as a decimal string', async () => {
    const owner = await setup();
    expect((await owner.activity.command('GET_CHANNEL_PERMISSIONS')).data).toEqual({
      permissions: ALL_PERMISSIONS.toString(),
    });
    const member = await setup({ asBob: true });
    const bits = BigInt((await member.activity.command('GET_CHANNEL_PERMISSIONS')).data.permissions);
    expect(bits & PERMISSIONS.VIEW_CHANNEL).toBe(PERMISSIONS.VIEW_CHANNEL);
    expect(bits & PERMISSIONS.ADMINISTRATOR).toBe(0n);
  });

  it('GET_CHANNEL_PERMISSIONS needs guilds.members.read (4006)', async () => {
    const { activity } = await setup({ scopes: 'identify guilds' });
    expect((await activity.command('GET_CHANNEL_PERMISSIONS')).data.code).toBe(4006);
  });
});

describe('platform and device commands (monetization commands: monetization-commands.test.ts)', () => {
  it('GET_PLATFORM_BEHAVIORS, USER_SETTINGS_GET_LOCALE (identify) and ENCOURAGE_HW_ACCELERATION', async () => {
    const { activity } = await setup();
    expect((await activity.command('GET_PLATFORM_BEHAVIORS')).data).toEqual({ iosKeyboardResizesView: false });
    expect((await activity.command('USER_SETTINGS_GET_LOCALE')).data).toEqual({ locale: 'en-US' });
    expect((await activity.command('ENCOURAGE_HW_ACCELERATION')).data).toEqual({ enabled: true });
    const noIdentify = await setup({ scopes: 'guilds' });
    expect((await noIdentify.activity.command('USER_SETTINGS_GET_LOCALE')).data.code).toBe(4006);
  });

  it('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS lists the instance participants', async () => {
    const { world, activity } = await setup();
    const reply = await activity.command('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS');
    expect(reply.data).toEqual({
      participants: [expect.objectContaining({ id: world.alice.id, username: 'alice', bot: false, flags: 0 })],
    });
  });

  it('OPEN_EXTERNAL_LINK asks the host page; only http(s) links (4000 otherwise)', async () => {
    const { activity } = await setup();
    expect((await activity.command('OPEN_EXTERNAL_LINK', { url: 'https://example.com/a' })).data).toEqual({
      opened: true,
    });
    expect(activity.ui.links).toEqual(['https://example.com/a']);
    const bad = await activity.command('OPEN_EXTERNAL_LINK', { url: 'javascript:alert(1)' });
    expect(bad.data.code).toBe(4000);
    expect(bad.data.message).toContain('args.url');
  });

  it('OPEN_INVITE_DIALOG shows the invite dialog for the frame channel', async () => {
    const { world, activity } = await setup();
    expect((await activity.command('OPEN_INVITE_DIALOG')).data).toBeNull();
    expect(activity.ui.invites.map((f) => f.channel_id)).toEqual([world.text.id]);
  });

  it('SHARE_LINK takes custom_id; the removed referrer_id is ignored silently', async () => {
    const { world, activity } = await setup();
    const reply = await activity.command('SHARE_LINK', {
      message: 'Join me',
      custom_id: 'level-3',
      referrer_id: world.alice.id,
    });
    expect(reply.evt).toBeNull();
    expect(reply.data).toEqual({ success: true, didCopyLink: true, didSendMessage: false });
    const url = new URL(activity.ui.shares[0].url);
    expect(url.pathname).toBe(`/activities/${world.application.id}/`);
    expect(url.searchParams.get('custom_id')).toBe('level-3');
    expect(url.searchParams.has('referrer_id')).toBe(false);
    expect(activity.ui.shares[0]).not.toHaveProperty('referrer_id');
    const long = await activity.command('SHARE_LINK', { message: 'x'.repeat(1001) });
    expect(long.data.code).toBe(4000);
  });

  it('CAPTURE_LOG forwards the line with tokens redacted', async () => {
    const { world, activity } = await setup();
    await activity.command('CAPTURE_LOG', { level: 'warn', message: `my token is ${world.aliceTokens.access_token}` });
    expect(activity.ui.logs).toEqual([['warn', 'my token is [redacted]']]);
    expect((await activity.command('CAPTURE_LOG', { level: 'trace', message: 'x' })).data.code).toBe(4000);
  });

  it('CAPTURE_LOG needs no AUTHENTICATE: the public SDK forwards console lines from READY on', async () => {
    const world = await createRpcWorld();
    const activity = createActivity(world.client, {
      applicationId: world.application.id,
      user: participant(world.alice),
      guildId: world.guild.id,
      channelId: world.text.id,
    });
    activity.handshake();
    const reply = await activity.command('CAPTURE_LOG', { level: 'log', message: '[vite] connected.' });
    expect(reply.evt).toBeNull();
    expect(activity.ui.logs).toEqual([['log', '[vite] connected.']]);
  });

  it('SET_CONFIG echoes use_interactive_pip; SET_ORIENTATION_LOCK_STATE keeps the lock states', async () => {
    const { activity } = await setup();
    expect((await activity.command('SET_CONFIG', { use_interactive_pip: true })).data).toEqual({
      use_interactive_pip: true,
    });
    expect(
      (await activity.command('SET_ORIENTATION_LOCK_STATE', { lock_state: 3, picture_in_picture_lock_state: 2 })).data,
    ).toBeNull();
    expect(activity.host.settings).toEqual({
      use_interactive_pip: true,
      lock_state: 3,
      picture_in_picture_lock_state: 2,
      grid_lock_state: null,
    });
    const bad = await activity.command('SET_ORIENTATION_LOCK_STATE', { lock_state: 'landscape' });
    expect(bad.data.message).toContain('args.lock_state');
  });
});
