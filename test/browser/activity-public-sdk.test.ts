import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { createActivityWorld, exchangeCode, FIXTURES, mountFrame, mountPlatform } from './activity-harness';

afterEach(() => {
  document.body.replaceChildren();
});

describe('the platform public embedded-app SDK works against the host unchanged (CONTRACT §5)', () => {
  it('@discord/embedded-app-sdk 2.5.0: ready, authorize (clicking "Authorize"), token exchange, authenticate, setActivity', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { activity: discordSdk, window } = await mountFrame(
      platform,
      {
        'application-id': appId,
        'guild-id': world.guild.id,
        'channel-id': world.voice.id,
        src: `${FIXTURES}/activity-discord-sdk.html?client_id=${appId}`,
      },
      'discordSdk',
    );

    // The SDK read the frame's query parameters as it requires them.
    expect([discordSdk.frameId, discordSdk.platform, discordSdk.guildId, discordSdk.channelId]).toEqual([
      expect.any(String),
      'desktop',
      world.guild.id,
      world.voice.id,
    ]);
    await discordSdk.ready();

    const authorizing = discordSdk.commands.authorize({
      client_id: appId,
      response_type: 'code',
      state: '',
      prompt: 'none',
      scope: ['identify', 'guilds', 'rpc.activities.write'],
    });
    await page.getByRole('button', { name: 'Authorize' }).click();
    const { code } = await authorizing;

    const token = await exchangeCode(window.fetch.bind(window), appId, world.clientSecret, code);
    const auth = await discordSdk.commands.authenticate({ access_token: token.access_token });
    expect(auth).toMatchObject({
      access_token: token.access_token,
      user: { id: world.alice.id, username: 'alice' },
      application: { id: appId, name: 'Chess Club' },
    });
    expect(auth.scopes).toEqual(['identify', 'guilds', 'rpc.activities.write']);

    const activity = await discordSdk.commands.setActivity({
      activity: { type: 3, details: 'Watching the final', state: 'Round 7' },
    });
    expect(activity).toMatchObject({ name: 'Chess Club', type: 3, details: 'Watching the final' });

    const channel = await discordSdk.commands.getChannel({ channel_id: world.voice.id });
    expect(channel).toMatchObject({ id: world.voice.id, name: 'General', voice_states: [], messages: [] });
    const { participants } = await discordSdk.commands.getInstanceConnectedParticipants();
    expect(participants.map((p: { id: string }) => p.id)).toEqual([world.alice.id]);
    expect(await discordSdk.commands.userSettingsGetLocale()).toEqual({ locale: navigator.language });
    expect(await discordSdk.commands.getSkus()).toEqual({ skus: [] });
    expect(await discordSdk.commands.getEntitlements()).toEqual({ entitlements: [] });
    expect(await discordSdk.commands.getPlatformBehaviors()).toEqual({ iosKeyboardResizesView: false });
    expect(await discordSdk.commands.shareLink({ message: 'Come play', custom_id: 'table-4' })).toMatchObject({
      didSendMessage: false,
    });
  });

  it('its errors arrive as the SDK expects: a token for another application is rejected with 4009', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const other = await world.sandbox.createApplication({ name: 'Other' });
    const foreign = (
      await world.sandbox.createToken({
        application_id: other.application.id,
        user_id: world.alice.id,
        scopes: 'identify',
      })
    ).access_token;
    const appId = world.application.id;
    const { activity: discordSdk } = await mountFrame(
      platform,
      {
        'application-id': appId,
        'guild-id': world.guild.id,
        'channel-id': world.voice.id,
        src: `${FIXTURES}/activity-discord-sdk.html?client_id=${appId}`,
      },
      'discordSdk',
    );
    await discordSdk.ready();
    const error = await discordSdk.commands.authenticate({ access_token: foreign }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 4009 });
  });
});
