/**
 * CONTRACT §6: a reload of the activity inside its frame, or a hot reload that creates the
 * public SDK again in the same page, handshakes again, and `ready()` resolves every time; the
 * frame's RPC state follows: its `rpc-status`, a `pp-activity-handshake` event per handshake,
 * and the session the old page authenticated is gone. A refused handshake says why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityFrame } from '../../src/components/activity-frame';
import { createActivityWorld, FIXTURES, mountFrame, mountPlatform, nextEvent } from './activity-harness';

type ActivityWindow = Window & Record<string, any>;

afterEach(() => {
  document.body.replaceChildren();
});

async function mountPublicSdk() {
  const world = await createActivityWorld();
  const platform = await mountPlatform(world.alice.id);
  const appId = world.application.id;
  const mounted = await mountFrame(
    platform,
    {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-discord-sdk.html?client_id=${appId}`,
    },
    'discordSdk',
  );
  return { world, platform, ...mounted };
}

/** The frame's current activity window (a reload keeps the window proxy, not its globals). */
const activityWindow = (frame: ActivityFrame) => frame.iframe!.contentWindow as ActivityWindow;

describe('an activity that reloads handshakes again (CONTRACT §6)', () => {
  it('a reload of the activity page: the new public SDK is ready again, in the same instance, each of three times', async () => {
    const { world, frame, activity } = await mountPublicSdk();
    await activity.ready();
    expect(frame.rpcStatus).toBe('ready');
    const instanceId = activity.instanceId;
    const token = await world.token(world.alice.id);
    for (let round = 0; round < 3; round++) {
      const before = activityWindow(frame).discordSdk;
      await activityWindow(frame).discordSdk.commands.authenticate({ access_token: token });
      const handshake = nextEvent(frame, 'pp-activity-handshake');
      activityWindow(frame).location.reload();
      expect(await handshake).toEqual({ accepted: true, sdk_version: expect.any(String) });
      await expect
        .poll(() => activityWindow(frame).discordSdk !== before && activityWindow(frame).discordSdk)
        .toBeTruthy();
      const reloaded = activityWindow(frame).discordSdk;
      await reloaded.ready();
      expect(reloaded.instanceId).toBe(instanceId);
      expect(frame.rpcStatus).toBe('ready');
      // The old page's session went with it: the new page authenticates on its own.
      expect(frame.host!.session).toBeNull();
      const denied = await reloaded.commands.getInstanceConnectedParticipants().catch((e: unknown) => e);
      expect(denied).toMatchObject({ code: 4006 });
      await reloaded.commands.authenticate({ access_token: token });
      const { participants } = await reloaded.commands.getInstanceConnectedParticipants();
      expect(participants.map((p: { id: string }) => p.id)).toEqual([world.alice.id]);
    }
  });

  it('a hot reload that creates the SDK again in the same page: the new SDK is ready, and so is the old one', async () => {
    const { world, frame, activity, window } = await mountPublicSdk();
    await activity.ready();
    const token = await world.token(world.alice.id);
    const { DiscordSDK } = await (window as ActivityWindow).eval(
      "import('/node_modules/@discord/embedded-app-sdk/output/index.mjs')",
    );
    const handshake = nextEvent(frame, 'pp-activity-handshake');
    const again = new DiscordSDK(activity.clientId);
    await again.ready();
    expect((await handshake).accepted).toBe(true);
    // Both SDKs of the page share its one RPC session: either may authenticate it.
    await again.commands.authenticate({ access_token: token });
    expect(await again.commands.userSettingsGetLocale()).toEqual({ locale: expect.any(String) });
    expect(await activity.commands.userSettingsGetLocale()).toEqual({ locale: expect.any(String) });
  });

  it('a handshake with another client id is refused with 4000, and the frame says why (status error, rpc-status refused)', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const frame = document.createElement('pp-activity-frame');
    frame.setAttribute('application-id', world.application.id);
    frame.setAttribute('guild-id', world.guild.id);
    frame.setAttribute('channel-id', world.voice.id);
    frame.setAttribute('src', `${FIXTURES}/activity-discord-sdk.html?client_id=1234567890123456789`);
    const refused = nextEvent(frame, 'pp-activity-handshake');
    platform.append(frame);
    expect(await refused).toMatchObject({ accepted: false, code: 4000 });
    expect(frame.status).toBe('error');
    expect(frame.rpcStatus).toBe('refused');
    expect(frame.error).toMatch(/the activity sent 1234567890123456789/);
    expect(frame.shadowRoot!.textContent).toContain(`Invalid client id: ${world.application.id} runs in this frame`);
  });

  it('a close from the host (CLOSE 1003 for a handshake of version 2) takes the frame out of running: status error, naming the close', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const frame = document.createElement('pp-activity-frame') as ActivityFrame;
    frame.setAttribute('application-id', world.application.id);
    frame.setAttribute('guild-id', world.guild.id);
    frame.setAttribute('channel-id', world.voice.id);
    frame.setAttribute('src', `${FIXTURES}/rogue.html?v=2&client_id=${world.application.id}`);
    const refused = nextEvent(frame, 'pp-activity-handshake');
    platform.append(frame);
    expect(await refused).toMatchObject({ accepted: false, code: 1003 });
    expect(frame.status).toBe('error');
    expect(frame.error).toMatch(/\(1003\)/);
  });

  it('the host closing the activity (host.close) turns the frame to closed and tells pp-activity-close', async () => {
    const { frame, activity } = await mountPublicSdk();
    await activity.ready();
    expect(frame.status).toBe('running');
    const closed = nextEvent(frame, 'pp-activity-close');
    frame.host!.close(1000, 'The user left the activity.');
    expect(await closed).toEqual({ code: 1000, message: 'The user left the activity.' });
    expect(frame.status).toBe('closed');
  });
});
