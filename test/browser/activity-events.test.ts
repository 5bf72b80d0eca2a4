import { afterEach, describe, expect, it } from 'vitest';
import { GatewaySocket } from '../../src/sockets/gateway-socket';
import { VoiceGatewaySocket } from '../../src/sockets/voice-gateway-socket';
import { createActivityWorld, FIXTURES, mountFrame, mountPlatform, nextEvent } from './activity-harness';

/** The payloads a socket received, and a wait for one. */
function record(socket: WebSocket) {
  const received: any[] = [];
  socket.addEventListener('message', (event) => received.push(JSON.parse((event as MessageEvent).data)));
  const waitFor = async (match: (p: any) => boolean) => {
    await expect.poll(() => received.some(match), { timeout: 10_000 }).toBe(true);
    return received.find(match);
  };
  return { received, waitFor, send: (payload: unknown) => socket.send(JSON.stringify(payload)) };
}

/**
 * `userId` joins the guild voice channel as the platform's client does: Voice State Update on the
 * gateway (on the page's hub), then Identify on the voice server it names. Resolves with the
 * voice connection, to speak on.
 */
async function joinVoice(token: string, guildId: string, channelId: string) {
  const gatewaySocket = new GatewaySocket('/gateway?v=10&encoding=json');
  const gateway = record(gatewaySocket);
  await gateway.waitFor((p) => p.op === 10);
  gateway.send({
    op: 2,
    d: {
      token: `Bearer ${token}`,
      intents: 1 << 7,
      properties: { os: 'browser', browser: 'chromium', device: 'test' },
    },
  });
  const ready = (await gateway.waitFor((p) => p.t === 'READY')).d;
  gateway.send({ op: 4, d: { guild_id: guildId, channel_id: channelId, self_mute: false, self_deaf: false } });
  const server = (await gateway.waitFor((p) => p.t === 'VOICE_SERVER_UPDATE')).d;
  const voiceSocket = new VoiceGatewaySocket(`${server.endpoint}?v=8`);
  const voice = record(voiceSocket);
  await voice.waitFor((p) => p.op === 8);
  voice.send({
    op: 0,
    d: {
      server_id: guildId,
      user_id: ready.user.id,
      session_id: ready.session_id,
      token: server.token,
      max_dave_protocol_version: 1,
    },
  });
  const ssrc = (await voice.waitFor((p) => p.op === 2)).d.ssrc;
  return {
    speak: (on: boolean) => voice.send({ op: 5, d: { speaking: on ? 1 : 0, delay: 0, ssrc } }),
    close: () => {
      voiceSocket.close(1000);
      gatewaySocket.close(1000);
    },
  };
}

/**
 * Alice's page (or, with `attributes`, another user's frame on it) running the sample activity in
 * the world's voice channel, its SDK past the handshake.
 */
async function activityInVoiceChannel(
  scopes?: string,
  attributes: (world: Awaited<ReturnType<typeof createActivityWorld>>) => Record<string, string> = () => ({}),
) {
  const world = await createActivityWorld(scopes);
  const platform = await mountPlatform(world.alice.id);
  const appId = world.application.id;
  const { frame, activity: sdk } = await mountFrame(platform, {
    'application-id': appId,
    'guild-id': world.guild.id,
    'channel-id': world.voice.id,
    ...attributes(world),
    src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
  });
  await sdk.ready();
  return { world, frame, sdk };
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('activity events from the platform (gateway → RPC host → activity)', () => {
  it("GUILD_STATUS follows the user presence: the frame's gateway session puts them online", async () => {
    const { world, frame, sdk } = await activityInVoiceChannel();
    const token = await world.token(world.alice.id);
    const online = async () =>
      (
        await (
          await fetch(`/api/v10/rpc/guilds/${world.guild.id}/status`, { headers: { Authorization: `Bearer ${token}` } })
        ).json()
      ).online;
    expect(await online()).toBe(0);
    const listening = nextEvent(frame, 'pp-platform-events');
    await sdk.commands.authenticate({ access_token: token });
    const statuses: number[] = [];
    await sdk.subscribe('GUILD_STATUS', (d: { online: number }) => statuses.push(d.online), {
      guild_id: world.guild.id,
    });
    await listening;
    await expect.poll(() => statuses.at(-1), { timeout: 5000 }).toBe(1);
  });

  it('the presence the activity set is cleared when its frame stops (SET_ACTIVITY null), by the hub it leaves', async () => {
    const { world, frame, sdk } = await activityInVoiceChannel();
    const token = await world.token(world.alice.id);
    await sdk.commands.authenticate({ access_token: token });
    await sdk.commands.setActivity({ activity: { type: 0, state: 'In a match' } });
    const activities = async () =>
      (await (await fetch('/api/v10/users/@me/activities', { headers: { Authorization: `Bearer ${token}` } })).json())
        .activities;
    expect(await activities()).toHaveLength(1);
    frame.remove();
    await expect.poll(activities, { timeout: 5000 }).toEqual([]);
  });

  it('CURRENT_GUILD_MEMBER_UPDATE when the user member changes', async () => {
    const { world, frame, sdk } = await activityInVoiceChannel(undefined, (world) => ({ 'user-id': world.bob.id }));
    const listening = nextEvent(frame, 'pp-platform-events');
    await sdk.commands.authenticate({ access_token: await world.token(world.bob.id) });
    const updates: unknown[] = [];
    await sdk.subscribe('CURRENT_GUILD_MEMBER_UPDATE', (d: unknown) => updates.push(d), { guild_id: world.guild.id });
    // The frame's gateway session must be listening before the change is made.
    await listening;
    await world.sandbox.putGuildMember(world.guild.id, world.bob.id, { nick: 'Bobby' });
    await expect
      .poll(() => updates, { timeout: 5000 })
      .toEqual([expect.objectContaining({ user_id: world.bob.id, guild_id: world.guild.id, nick: 'Bobby' })]);
  });

  it('ACTIVITY_LAYOUT_MODE_UPDATE when the host page changes the layout', async () => {
    const { world, frame, sdk } = await activityInVoiceChannel();
    await sdk.commands.authenticate({ access_token: await world.token(world.alice.id) });
    const modes: number[] = [];
    await sdk.subscribe('ACTIVITY_LAYOUT_MODE_UPDATE', (d: { layout_mode: number }) => modes.push(d.layout_mode));
    frame.setAttribute('layout-mode', '1');
    await expect.poll(() => modes).toEqual([1]);
  });

  it('CURRENT_USER_UPDATE when the user changes their profile (display name, avatar) through the API', async () => {
    const { world, frame, sdk } = await activityInVoiceChannel();
    const listening = nextEvent(frame, 'pp-platform-events');
    await sdk.commands.authenticate({ access_token: await world.token(world.alice.id) });
    const updates: unknown[] = [];
    await sdk.subscribe('CURRENT_USER_UPDATE', (d: unknown) => updates.push(d));
    await listening;
    await world.sandbox.updateUser(world.alice.id, { global_name: 'Alice Liddell', avatar: 'f'.repeat(32) });
    await expect
      .poll(() => updates, { timeout: 5000 })
      .toEqual([expect.objectContaining({ id: world.alice.id, global_name: 'Alice Liddell', avatar: 'f'.repeat(32) })]);
  });

  it('VOICE_STATE_UPDATE and SPEAKING_START / SPEAKING_STOP of a real voice join reach an activity subscribed with {channel_id}', async () => {
    const { world, frame, sdk } = await activityInVoiceChannel('identify guilds rpc.voice.read');
    const listening = nextEvent(frame, 'pp-platform-events');
    await sdk.commands.authenticate({ access_token: await world.token(world.alice.id) });
    const heard: string[] = [];
    const args = { channel_id: world.voice.id };
    await sdk.subscribe(
      'VOICE_STATE_UPDATE',
      (d: { user: { id: string }; channel_id: string }) => heard.push(`voice ${d.user.id} ${d.channel_id}`),
      args,
    );
    await sdk.subscribe(
      'SPEAKING_START',
      (d: { user_id: string; channel_id: string }) => heard.push(`start ${d.user_id} ${d.channel_id}`),
      args,
    );
    await sdk.subscribe(
      'SPEAKING_STOP',
      (d: { user_id: string; channel_id: string }) => heard.push(`stop ${d.user_id} ${d.channel_id}`),
      args,
    );
    await listening;
    const bob = await joinVoice(await world.token(world.bob.id), world.guild.id, world.voice.id);
    await expect.poll(() => heard, { timeout: 5000 }).toEqual([`voice ${world.bob.id} ${world.voice.id}`]);
    bob.speak(true);
    bob.speak(false);
    await expect
      .poll(() => heard, { timeout: 5000 })
      .toEqual([
        `voice ${world.bob.id} ${world.voice.id}`,
        `start ${world.bob.id} ${world.voice.id}`,
        `stop ${world.bob.id} ${world.voice.id}`,
      ]);
    bob.close();
  });

  it('after the hub restarts the frame resumes its gateway session (session_id + seq): an event made while it was away still reaches the activity', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id, `platformpp-hub-frame-resume-${Date.now()}`);
    const appId = world.application.id;
    const { frame, activity: sdk } = await mountFrame(platform, {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      'user-id': world.bob.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    });
    await sdk.ready();
    const statuses: string[] = [];
    frame.addEventListener('pp-platform-events', (event) => statuses.push((event as CustomEvent).detail.status));
    const listening = nextEvent(frame, 'pp-platform-events');
    await sdk.commands.authenticate({ access_token: await world.token(world.bob.id) });
    const updates: { nick: string }[] = [];
    await sdk.subscribe('CURRENT_GUILD_MEMBER_UPDATE', (d: { nick: string }) => updates.push(d), {
      guild_id: world.guild.id,
    });
    await listening;
    const disconnected = nextEvent(frame, 'pp-platform-events', (d: { status: string }) => d.status === 'disconnected');
    // The worker closes itself, as when the browser stops or loses it.
    void platform.hub!.stop();
    await disconnected;
    // While the frame is away (it connects again after a second): a fresh Identify would miss this.
    await world.sandbox.putGuildMember(world.guild.id, world.bob.id, { nick: 'While away' });
    await expect.poll(() => updates.map((u) => u.nick), { timeout: 15_000 }).toEqual(['While away']);
    expect(statuses).toEqual(['ready', 'disconnected', 'resumed']);
  });
});
