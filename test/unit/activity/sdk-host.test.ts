// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { RpcError } from '../../../src/activity';
import { RpcHost } from '../../../src/rpc/host';
import { ActivityInstanceRegistry } from '../../../src/rpc/instances';
import { PlatformClient } from '../../../src/rpc/platform-client';
import type { FrameInfo, HostUi } from '../../../src/rpc/context';
import { createRpcWorld, exchangeCode, participant } from '../rpc/rpc-harness';
import { createSdk, HOST_ORIGIN } from './sdk-harness';

const ACTIVITY_ORIGIN = 'http://activity.test';

/** Our SDK in a frame, talking to our host over the platform app: the whole RPC without a browser. */
async function connect(
  world: Awaited<ReturnType<typeof createRpcWorld>>,
  user: { id: string; username: string },
  registry: ActivityInstanceRegistry,
) {
  const frameId = crypto.randomUUID();
  let instance = registry.join(
    {
      application_id: world.application.id,
      channel_id: world.text.id,
      guild_id: world.guild.id,
      frame_id: frameId,
      user: participant(user),
    },
    (s) => {
      instance = s;
      host.participantsChanged(s.participants);
    },
  );
  const activityWindow = {};
  const ui: HostUi = {
    requestConsent: async () => true,
    openExternalLink: async () => true,
    openInviteDialog: async () => undefined,
    shareLink: async () => ({ success: true, didCopyLink: false, didSendMessage: false }),
    captureLog: () => undefined,
    hardwareAcceleration: async () => true,
    locale: () => 'en-US',
    pickImage: async () => null,
    chooseShareTarget: async () => null,
    confirmActivityInvite: async () => false,
  };
  const frame: FrameInfo = {
    frame_id: frameId,
    application_id: world.application.id,
    instance_id: instance.instance_id,
    guild_id: world.guild.id,
    channel_id: world.text.id,
    platform: 'desktop',
    user: participant(user),
    url: `${ACTIVITY_ORIGIN}/activities/${world.application.id}/`,
  };
  let deliver: (data: unknown) => void = () => undefined;
  const host: RpcHost = new RpcHost({
    frame,
    source: activityWindow,
    origin: ACTIVITY_ORIGIN,
    post: (m) => queueMicrotask(() => deliver(structuredClone(m))),
    platform: new PlatformClient((r) => world.client.app.fetch(r), ACTIVITY_ORIGIN),
    ui,
    participants: () => instance.participants,
    apiEndpoint: '/api',
  });
  const { sdk, fromHost } = createSdk({
    clientId: world.application.id,
    search: `?frame_id=${frameId}&instance_id=${instance.instance_id}&platform=desktop&guild_id=${world.guild.id}&channel_id=${world.text.id}`,
    toHost: (data, targetOrigin) => {
      expect(targetOrigin).toBe(HOST_ORIGIN);
      queueMicrotask(() => host.receive({ source: activityWindow, origin: ACTIVITY_ORIGIN, data }));
    },
  });
  deliver = (data) => fromHost(data);
  return { sdk, host, frameId };
}

describe('activity SDK against the RPC host', () => {
  it('runs handshake, AUTHORIZE, token exchange, AUTHENTICATE and SET_ACTIVITY', async () => {
    const world = await createRpcWorld();
    const { sdk } = await connect(world, world.alice, new ActivityInstanceRegistry());
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id: world.application.id,
      scope: ['identify', 'guilds', 'rpc.activities.write'],
      response_type: 'code',
    });
    const token = (await exchangeCode(world.client, world.application.id, world.clientSecret, code)).body.access_token;
    const auth = await sdk.commands.authenticate({ access_token: token });
    expect(auth.user.id).toBe(world.alice.id);
    const activity = await sdk.commands.setActivity({ activity: { type: 2, details: 'Listening along' } });
    expect(activity).toMatchObject({ type: 2, name: 'Game', details: 'Listening along' });
    const channel = await sdk.commands.getChannel({ channel_id: world.text.id });
    expect(channel.name).toBe('general');
  });

  it('rejects with the host ERROR: SET_ACTIVITY of type 1 is 4000 naming the field', async () => {
    const world = await createRpcWorld();
    const { sdk } = await connect(world, world.alice, new ActivityInstanceRegistry());
    await sdk.ready();
    await sdk.commands.authenticate({ access_token: world.aliceTokens.access_token });
    const error = await sdk.commands.setActivity({ activity: { type: 1 as 0 } }).catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(4000);
    expect(error.message).toContain('args.activity.type');
  });

  it('two frames of the same instance see each other join and leave', async () => {
    const world = await createRpcWorld();
    const registry = new ActivityInstanceRegistry();
    const first = await connect(world, world.alice, registry);
    await first.sdk.ready();
    await first.sdk.commands.authenticate({ access_token: world.aliceTokens.access_token });
    const seen: string[][] = [];
    await first.sdk.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', ({ participants }) =>
      seen.push(participants.map((p) => p.username)),
    );
    const second = await connect(world, world.bob, registry);
    await second.sdk.ready();
    expect(second.sdk.instanceId).toBe(first.sdk.instanceId);
    await second.sdk.commands.authenticate({ access_token: world.bobTokens.access_token });
    const { participants } = await second.sdk.commands.getActivityInstanceConnectedParticipants();
    expect(participants.map((p) => p.username)).toEqual(['alice', 'bob']);
    registry.leave(second.frameId);
    await expect.poll(() => seen).toEqual([['alice', 'bob'], ['alice']]);
  });
});
