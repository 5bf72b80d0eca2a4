import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { createActivityWorld, exchangeCode, FIXTURES, mountFrame, mountPlatform, nextEvent } from './activity-harness';
import { servedByWorker } from './harness';

afterEach(() => {
  document.body.replaceChildren();
});

describe('<pp-activity-frame> with our activity SDK (CONTRACT §5)', () => {
  it('runs the handshake, AUTHORIZE (clicking "Authorize"), the token exchange, AUTHENTICATE and SET_ACTIVITY', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const {
      frame,
      activity: sdk,
      window,
    } = await mountFrame(platform, {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    });

    // The frame kept src's own query and added its parameters.
    const query = new URL(frame.iframe!.src).searchParams;
    expect(query.get('client_id')).toBe(appId);
    expect(
      Object.fromEntries(
        ['instance_id', 'platform', 'guild_id', 'channel_id', 'location_id'].map((k) => [k, query.get(k)]),
      ),
    ).toEqual({
      instance_id: frame.instance!.instance_id,
      platform: 'desktop',
      guild_id: world.guild.id,
      channel_id: world.voice.id,
      location_id: `gc-${world.guild.id}-${world.voice.id}`,
    });
    expect(query.get('frame_id')).toBe(frame.frameId);

    const ready = await sdk.ready();
    expect(ready.user.id).toBe(world.alice.id);

    const authorizing = sdk.commands.authorize({
      client_id: appId,
      scope: ['identify', 'guilds', 'rpc.activities.write'],
      response_type: 'code',
    });
    await expect.element(page.getByRole('dialog')).toBeVisible();
    await expect.element(page.getByRole('heading', { name: 'Authorize Chess Club' })).toBeVisible();
    await page.getByRole('button', { name: 'Authorize' }).click();
    const { code } = await authorizing;

    const token = await exchangeCode(window.fetch.bind(window), appId, world.clientSecret, code);
    expect(token.scope).toBe('identify guilds rpc.activities.write');
    const auth = await sdk.commands.authenticate({ access_token: token.access_token });
    expect(auth.user.username).toBe('alice');
    expect(auth.application.id).toBe(appId);

    const activity = await sdk.commands.setActivity({
      activity: { type: 0, details: 'Sicilian Defence', state: 'Move 12' },
    });
    expect(activity).toMatchObject({ name: 'Chess Club', type: 0, details: 'Sicilian Defence', state: 'Move 12' });
    const stored = await fetch('/api/v10/users/@me/activities', {
      headers: { Authorization: `Bearer ${token.access_token}` },
    });
    expect(servedByWorker(stored)).toBe(true);
    expect((await stored.json()).activities).toEqual([
      expect.objectContaining({ type: 0, details: 'Sicilian Defence' }),
    ]);

    const error = await sdk.commands.setActivity({ activity: { type: 1 } }).catch((e: Error) => e);
    expect(error).toMatchObject({ code: 4000 });
  });

  it('"Cancel" in the consent dialog rejects AUTHORIZE with 5000', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { activity: sdk } = await mountFrame(platform, {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    });
    await sdk.ready();
    const authorizing = sdk.commands.authorize({ client_id: appId, scope: ['identify'] }).catch((e: Error) => e);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await authorizing).toMatchObject({ code: 5000 });
  });

  it('requests from the activity work with and without /.proxy/', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { window } = await mountFrame(platform, {
      'application-id': appId,
      'channel-id': world.voice.id,
      'guild-id': world.guild.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    });
    const token = await world.token(world.alice.id);
    const [plain, proxied] = await Promise.all(
      ['/api/v10/users/@me', '/.proxy/api/v10/users/@me'].map((path) =>
        window.fetch(path, { headers: { Authorization: `Bearer ${token}` } }),
      ),
    );
    expect([plain.status, proxied.status]).toEqual([200, 200]);
    expect(servedByWorker(proxied)).toBe(true);
    expect(await proxied.json()).toEqual(await plain.json());
  });

  it('is reachable at the default src /.proxy/activities/<application_id>/ as well', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const frame = document.createElement('pp-activity-frame');
    frame.setAttribute('application-id', world.application.id);
    frame.setAttribute('channel-id', world.voice.id);
    platform.append(frame);
    await expect.poll(() => frame.status).toBe('running');
    expect(new URL(frame.iframe!.src).pathname).toBe(`/activities/${world.application.id}/`);
  });
});

describe('<pp-activity-frame> drops what is not its activity (CONTRACT §5)', () => {
  it('a message from another window is dropped unanswered', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { frame } = await mountFrame(platform, {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    });
    const dropped = nextEvent(frame, 'pp-rpc-dropped');
    const report = nextEvent<{ rogue: string; answered: unknown }>(
      window,
      'message',
      (d) => d?.rogue === 'other-window',
    );
    const rogue = document.createElement('iframe');
    rogue.src = `${FIXTURES}/rogue.html?name=other-window&client_id=${appId}&frame_id=${frame.frameId}`;
    document.body.append(rogue);
    expect(await dropped).toMatchObject({ reason: 'source' });
    expect(await report).toEqual({ rogue: 'other-window', answered: null });
  });

  it('a message from the activity window with another origin is dropped unanswered', async () => {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const { frame } = await mountFrame(platform, {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-sdk.html?client_id=${appId}`,
    });
    const dropped = nextEvent(frame, 'pp-rpc-dropped', (d: { reason: string }) => d.reason === 'origin');
    const report = nextEvent<{ rogue: string; answered: unknown }>(
      window,
      'message',
      (d) => d?.rogue === 'opaque-origin',
    );
    // The activity's own window, now sandboxed into an opaque origin ("null").
    const iframe = frame.iframe!;
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.src = `${FIXTURES}/rogue.html?name=opaque-origin&client_id=${appId}&frame_id=${frame.frameId}`;
    expect(await dropped).toMatchObject({ reason: 'origin', origin: 'null' });
    expect(await report).toEqual({ rogue: 'opaque-origin', answered: null });
  });
});
