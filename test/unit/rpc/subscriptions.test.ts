// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { SpeakingChange } from '../../../src/gateway/voice-speaking';
import { ActivityInstanceRegistry } from '../../../src/rpc/instances';
import { connectSession } from '../presence-fixtures';
import { createActivity, createRpcWorld, participant } from './rpc-harness';

async function setup(scopes?: string) {
  const world = await createRpcWorld(scopes);
  const registry = new ActivityInstanceRegistry();
  const activity = createActivity(world.client, {
    applicationId: world.application.id,
    user: participant(world.alice),
    guildId: world.guild.id,
    channelId: world.text.id,
    registry,
  });
  activity.handshake();
  await activity.authenticate(world.aliceTokens.access_token);
  return { world, activity, registry };
}

describe('SUBSCRIBE / UNSUBSCRIBE', () => {
  it('answers {evt}; an unknown or missing event is ERROR 4004', async () => {
    const { activity } = await setup();
    expect((await activity.command('SUBSCRIBE', {}, 'ORIENTATION_UPDATE')).data).toEqual({ evt: 'ORIENTATION_UPDATE' });
    expect((await activity.command('SUBSCRIBE', {}, 'MESSAGE_CREATE')).data.code).toBe(4004);
    expect((await activity.command('SUBSCRIBE', {})).data.code).toBe(4004);
    expect((await activity.command('UNSUBSCRIBE', undefined, 'NOPE')).data.code).toBe(4004);
  });

  it('events need their scopes: CURRENT_USER_UPDATE identify, VOICE_STATE_UPDATE rpc.voice.read (4006)', async () => {
    const { world, activity } = await setup('guilds');
    expect((await activity.command('SUBSCRIBE', {}, 'CURRENT_USER_UPDATE')).data.code).toBe(4006);
    expect((await activity.command('SUBSCRIBE', { channel_id: world.voice.id }, 'VOICE_STATE_UPDATE')).data.code).toBe(
      4006,
    );
  });

  it('arguments are validated: GUILD_STATUS without guild_id is ERROR 4000 naming args.guild_id', async () => {
    const { activity } = await setup();
    const reply = await activity.command('SUBSCRIBE', {}, 'GUILD_STATUS');
    expect(reply.data.code).toBe(4000);
    expect(reply.data.message).toContain('args.guild_id');
  });

  it('GUILD_STATUS of a guild the user is not in is ERROR 4003; of their guild it dispatches the status', async () => {
    const { world, activity } = await setup();
    const other = (await world.client.post('/sandbox/guilds', { name: 'Elsewhere', owner_id: world.bob.id })).body
      .guild;
    expect((await activity.command('SUBSCRIBE', { guild_id: other.id }, 'GUILD_STATUS')).data.code).toBe(4003);
    expect((await activity.command('SUBSCRIBE', { guild_id: world.guild.id }, 'GUILD_STATUS')).data).toEqual({
      evt: 'GUILD_STATUS',
    });
    expect(activity.dispatched('GUILD_STATUS')).toEqual([
      { guild: { id: world.guild.id, name: 'Guild', icon_url: null }, online: 0 },
    ]);
  });

  it('GUILD_STATUS follows presence: a gateway session of the user puts them online and the next status says so', async () => {
    const { world, activity } = await setup();
    await activity.command('SUBSCRIBE', { guild_id: world.guild.id }, 'GUILD_STATUS');
    await activity.command('SET_ACTIVITY', { activity: { type: 0 } });
    expect(activity.dispatched('GUILD_STATUS').at(-1)?.online).toBe(0);
    await connectSession(world.client.app.ctx, world.alice.id);
    activity.host.platformEvent('PRESENCE_UPDATE', { guild_id: world.guild.id, user: { id: world.alice.id } });
    await expect.poll(() => activity.dispatched('GUILD_STATUS').at(-1)?.online).toBe(1);
  });

  it("GUILD_STATUS is read again on READY: a session's own coming online is in what it read, not in a dispatch", async () => {
    const { world, activity } = await setup();
    await activity.command('SUBSCRIBE', { guild_id: world.guild.id }, 'GUILD_STATUS');
    await connectSession(world.client.app.ctx, world.alice.id);
    activity.host.platformEvent('READY', { user: { id: world.alice.id } });
    await expect.poll(() => activity.dispatched('GUILD_STATUS').at(-1)?.online).toBe(1);
  });

  it('VOICE_STATE_UPDATE of a channel the user cannot view is ERROR 4005', async () => {
    const { activity } = await setup();
    expect((await activity.command('SUBSCRIBE', { channel_id: '999999999' }, 'VOICE_STATE_UPDATE')).data.code).toBe(
      4005,
    );
  });
});

describe('events', () => {
  it('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE: a subscribed frame sees another frame of the instance join and leave', async () => {
    const { world, activity, registry } = await setup();
    await activity.command('SUBSCRIBE', {}, 'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE');
    const bob = createActivity(world.client, {
      applicationId: world.application.id,
      user: participant(world.bob),
      guildId: world.guild.id,
      channelId: world.text.id,
      registry,
    });
    expect(bob.frame.instance_id).toBe(activity.frame.instance_id);
    expect(
      activity
        .dispatched('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE')
        .map((d) => d.participants.map((p: { id: string }) => p.id)),
    ).toEqual([[world.alice.id, world.bob.id]]);
    registry.leave(bob.frame.frame_id);
    expect(
      activity
        .dispatched('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE')
        .at(-1)
        .participants.map((p: { id: string }) => p.id),
    ).toEqual([world.alice.id]);
  });

  it('an event the activity did not subscribe to, or unsubscribed from, is not sent', async () => {
    const { activity } = await setup();
    activity.host.setLayoutMode(1);
    expect(activity.dispatched('ACTIVITY_LAYOUT_MODE_UPDATE')).toEqual([]);
    await activity.command('SUBSCRIBE', {}, 'ACTIVITY_LAYOUT_MODE_UPDATE');
    activity.host.setLayoutMode(2);
    await activity.command('UNSUBSCRIBE', {}, 'ACTIVITY_LAYOUT_MODE_UPDATE');
    activity.host.setLayoutMode(0);
    expect(activity.dispatched('ACTIVITY_LAYOUT_MODE_UPDATE')).toEqual([{ layout_mode: 2 }]);
  });

  it('ORIENTATION_UPDATE carries screen_orientation and the legacy orientation', async () => {
    const { activity } = await setup();
    await activity.command('SUBSCRIBE', {}, 'ORIENTATION_UPDATE');
    activity.host.setOrientation(0);
    expect(activity.dispatched('ORIENTATION_UPDATE')).toEqual([{ screen_orientation: 0, orientation: 'portrait' }]);
  });

  it('CURRENT_USER_UPDATE comes from USER_UPDATE of the session user only, with avatar_decoration_data as the public SDK requires', async () => {
    const { world, activity } = await setup();
    await activity.command('SUBSCRIBE', {}, 'CURRENT_USER_UPDATE');
    activity.host.platformEvent('USER_UPDATE', { id: world.bob.id, username: 'bob2' });
    activity.host.platformEvent('USER_UPDATE', {
      id: world.alice.id,
      username: 'alice2',
      discriminator: '0',
      global_name: 'Alice',
      avatar: null,
    });
    expect(activity.dispatched('CURRENT_USER_UPDATE')).toEqual([
      {
        id: world.alice.id,
        username: 'alice2',
        discriminator: '0',
        global_name: 'Alice',
        avatar: null,
        // The public SDK's user schema requires the key.
        avatar_decoration_data: null,
        bot: false,
        flags: 0,
        premium_type: null,
      },
    ]);
  });

  it('CURRENT_GUILD_MEMBER_UPDATE comes from GUILD_MEMBER_UPDATE of the session user in the subscribed guild', async () => {
    const { world, activity } = await setup();
    await activity.command('SUBSCRIBE', { guild_id: world.guild.id }, 'CURRENT_GUILD_MEMBER_UPDATE');
    activity.host.platformEvent('GUILD_MEMBER_UPDATE', { guild_id: '1', user: { id: world.alice.id }, nick: 'x' });
    activity.host.platformEvent('GUILD_MEMBER_UPDATE', {
      guild_id: world.guild.id,
      user: { id: world.alice.id },
      nick: 'Ali',
    });
    expect(activity.dispatched('CURRENT_GUILD_MEMBER_UPDATE')).toEqual([
      {
        user_id: world.alice.id,
        guild_id: world.guild.id,
        nick: 'Ali',
        avatar: null,
        avatar_decoration_data: null,
        color_string: null,
      },
    ]);
  });

  it('ENTITLEMENT_CREATE only for the session user and application; RELATIONSHIP_UPDATE from relationship events', async () => {
    const { world, activity } = await setup('identify guilds relationships.read');
    await activity.command('SUBSCRIBE', {}, 'ENTITLEMENT_CREATE');
    await activity.command('SUBSCRIBE', {}, 'RELATIONSHIP_UPDATE');
    const entitlement = {
      id: '1',
      sku_id: '2',
      application_id: world.application.id,
      user_id: world.alice.id,
      type: 1,
      gift_code_flags: 0,
    };
    activity.host.platformEvent('ENTITLEMENT_CREATE', { ...entitlement, application_id: '999' });
    activity.host.platformEvent('ENTITLEMENT_CREATE', entitlement);
    activity.host.platformEvent('RELATIONSHIP_ADD', { type: 1, user: { id: world.bob.id, username: 'bob' } });
    expect(activity.dispatched('ENTITLEMENT_CREATE')).toEqual([{ entitlement }]);
    expect(activity.dispatched('RELATIONSHIP_UPDATE')).toEqual([
      { type: 1, user: expect.objectContaining({ id: world.bob.id, username: 'bob' }) },
    ]);
  });
});

describe("SPEAKING_START / SPEAKING_STOP (from the voice server's Speaking of the call)", () => {
  /** An activity whose host watches calls through `watches` (what the frame opens on the hub). */
  async function speakingSetup() {
    const world = await createRpcWorld();
    const watches = new Map<string, (change: SpeakingChange) => void>();
    const activity = createActivity(world.client, {
      applicationId: world.application.id,
      user: participant(world.alice),
      guildId: world.guild.id,
      channelId: world.voice.id,
      watchSpeaking: (callId, onChange) => {
        watches.set(callId, onChange);
        return () => watches.delete(callId);
      },
    });
    activity.handshake();
    await activity.authenticate(world.aliceTokens.access_token);
    return { world, activity, watches };
  }

  it('SUBSCRIBE {channel_id} watches that call: a start and a stop arrive as {user_id, channel_id}', async () => {
    const { world, activity, watches } = await speakingSetup();
    await activity.command('SUBSCRIBE', { channel_id: world.voice.id }, 'SPEAKING_START');
    await activity.command('SUBSCRIBE', { channel_id: world.voice.id }, 'SPEAKING_STOP');
    expect([...watches.keys()]).toEqual([world.voice.id]);
    watches.get(world.voice.id)!({ user_id: world.bob.id, speaking: true, channel_id: world.voice.id });
    watches.get(world.voice.id)!({ user_id: world.bob.id, speaking: false, channel_id: world.voice.id });
    expect(activity.dispatched('SPEAKING_START')).toEqual([{ user_id: world.bob.id, channel_id: world.voice.id }]);
    expect(activity.dispatched('SPEAKING_STOP')).toEqual([{ user_id: world.bob.id, channel_id: world.voice.id }]);
  });

  it("without arguments they are for the frame's channel; the last UNSUBSCRIBE of a call closes its watch", async () => {
    const { world, activity, watches } = await speakingSetup();
    await activity.command('SUBSCRIBE', {}, 'SPEAKING_START');
    expect([...watches.keys()]).toEqual([world.voice.id]);
    watches.get(world.voice.id)!({ user_id: world.bob.id, speaking: false, channel_id: world.voice.id });
    expect(activity.dispatched('SPEAKING_STOP')).toEqual([]);
    await activity.command('UNSUBSCRIBE', {}, 'SPEAKING_START');
    expect([...watches.keys()]).toEqual([]);
  });

  it('{lobby_id} of a lobby the user is in watches its call ({user_id, lobby_id}); of another lobby it is ERROR 4005', async () => {
    const { world, activity, watches } = await speakingSetup();
    const social = async (userId: string) =>
      `Bearer ${(await world.client.post('/sandbox/tokens', { application_id: world.application.id, user_id: userId, scopes: 'openid sdk.social_layer' })).body.access_token}`;
    const mine = (await world.client.put('/api/v10/lobbies', { secret: 'talk' }, await social(world.alice.id))).body;
    const theirs = (await world.client.put('/api/v10/lobbies', { secret: 'private' }, await social(world.bob.id))).body;
    expect((await activity.command('SUBSCRIBE', { lobby_id: theirs.id }, 'SPEAKING_START')).data.code).toBe(4005);
    expect(watches.has(theirs.id)).toBe(false);
    await activity.command('SUBSCRIBE', { lobby_id: mine.id }, 'SPEAKING_START');
    watches.get(mine.id)!({ user_id: world.bob.id, speaking: true, lobby_id: mine.id });
    expect(activity.dispatched('SPEAKING_START')).toEqual([{ user_id: world.bob.id, lobby_id: mine.id }]);
  });

  it('a new handshake closes every watch: the activity starts afresh', async () => {
    const { world, activity, watches } = await speakingSetup();
    await activity.command('SUBSCRIBE', { channel_id: world.voice.id }, 'SPEAKING_STOP');
    activity.handshake();
    expect(watches.size).toBe(0);
  });
});

describe('VOICE_STATE_UPDATE', () => {
  it('a voice state in the subscribed channel arrives with the user, their voice state and the channel_id', async () => {
    const { world, activity } = await setup('identify guilds rpc.voice.read');
    await activity.command('SUBSCRIBE', { channel_id: world.voice.id }, 'VOICE_STATE_UPDATE');
    activity.host.platformEvent('VOICE_STATE_UPDATE', {
      guild_id: world.guild.id,
      channel_id: world.text.id,
      user_id: world.bob.id,
    });
    activity.host.platformEvent('VOICE_STATE_UPDATE', {
      guild_id: world.guild.id,
      channel_id: world.voice.id,
      user_id: world.bob.id,
      self_mute: true,
      member: { user: { id: world.bob.id, username: 'bob' }, nick: null },
    });
    expect(activity.dispatched('VOICE_STATE_UPDATE')).toEqual([
      {
        voice_state: { mute: false, deaf: false, self_mute: true, self_deaf: false, suppress: false },
        user: expect.objectContaining({ id: world.bob.id, username: 'bob' }),
        nick: 'bob',
        volume: 100,
        mute: true,
        channel_id: world.voice.id,
      },
    ]);
  });
});
