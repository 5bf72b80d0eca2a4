/**
 * The two SDKs a game or an activity runs in the browser meet the faults that apply to them
 * (docs/faults.md, "What the libraries do"), in real Chromium: the platform's public embedded-app
 * SDK 2.5.0 in an activity frame, and the game SDK `Client` in the page. Each test says what the
 * SDK does, and logs the time from the injection to the SDK being back to normal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { HubRestartDetail } from '../../src/components/platform-element';
import { SandboxClient } from '../../src/components/sandbox-client';
import { AuthorizationArgs } from '../../src/sdk/authorization-args';
import { Client } from '../../src/sdk/client';
import { ErrorType, SdkError } from '../../src/sdk/errors';
import { Status } from '../../src/sdk/status';
import { AuthorizationTokenType, type LobbyMessage } from '../../src/sdk/types';
import { createActivityWorld, FIXTURES, mountFrame, mountPlatform, nextEvent } from './activity-harness';
import { registerPlatformWorker, resetSandbox } from './harness';

/** Milliseconds since `start`, rounded, for the figures the tests log. */
const since = (start: number) => Math.round(performance.now() - start);

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.destroy()));
  document.body.replaceChildren();
});

// A world, a consent dialog or two and frames per test, on a shared 2-core machine.
const SLOW = { timeout: 60_000 };

describe('the public embedded-app SDK 2.5.0 in an activity frame meets faults', SLOW, () => {
  /** Alice's activity frame running the public SDK, authenticated, with the participants it hears. */
  async function publicSdkActivity() {
    const world = await createActivityWorld();
    const platform = await mountPlatform(world.alice.id);
    const appId = world.application.id;
    const attributes = {
      'application-id': appId,
      'guild-id': world.guild.id,
      'channel-id': world.voice.id,
      src: `${FIXTURES}/activity-discord-sdk.html?client_id=${appId}`,
    };
    const alice = await mountFrame(platform, attributes, 'discordSdk');
    await alice.activity.ready();
    const accessToken = await world.token(world.alice.id);
    await alice.activity.commands.authenticate({ access_token: accessToken });
    const seen: string[][] = [];
    await alice.activity.subscribe(
      'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
      ({ participants }: { participants: { username: string }[] }) => seen.push(participants.map((p) => p.username)),
    );
    /** The activity's own API call, through the proxy, as its code makes it. */
    const me = () =>
      (alice.window.fetch as typeof fetch)('/.proxy/api/v10/users/@me', {
        headers: { Authorization: `Bearer ${accessToken}` },
      });
    return { world, platform, attributes, alice, seen, me };
  }

  it('a 429 and a 502 on its API call reach the activity as the platform answers them (the SDK makes no HTTP call of its own); the retry is answered', async () => {
    const { world, me } = await publicSdkActivity();
    await world.sandbox.injectFault({
      type: 'http_error',
      status: 429,
      method: 'GET',
      path: '/api/v10/users/@me',
      retry_after: 0.2,
    });
    const injected = performance.now();
    const limited = await me();
    expect(limited.status).toBe(429);
    const body = await limited.json();
    expect(body).toMatchObject({ retry_after: 0.2, global: false });
    await new Promise((resolve) => setTimeout(resolve, body.retry_after * 1000));
    expect((await me()).status).toBe(200);
    const after429 = since(injected);

    await world.sandbox.injectFault({ type: 'http_error', status: 502, method: 'GET', path: '/api/v10/users/@me' });
    const injected502 = performance.now();
    expect((await me()).status).toBe(502);
    const again = await me();
    expect([again.status, (await again.json()).id]).toEqual([200, world.alice.id]);
    console.info(`public SDK activity: 429 → 200 after ${after429} ms, 502 → 200 after ${since(injected502)} ms`);
  });

  it('stop_shared_worker: the frame rejoins its instance on a new hub, commands answer and the participant events keep coming', async () => {
    const { world, platform, attributes, alice, seen } = await publicSdkActivity();
    const instanceId = alice.frame.instance!.instance_id;
    const restarted = nextEvent<HubRestartDetail>(platform, 'pp-hub-restart');
    const injected = performance.now();
    await world.sandbox.stopSharedWorker();
    await restarted;
    const hubBack = since(injected);
    // The SDK's instance is the one it had: the frame joined the new hub with it.
    const { participants } = await alice.activity.commands.getInstanceConnectedParticipants();
    expect(participants.map((p: { id: string }) => p.id)).toEqual([world.alice.id]);
    const commandsBack = since(injected);
    const bob = await mountFrame(platform, { ...attributes, 'user-id': world.bob.id }, 'discordSdk');
    expect(bob.frame.instance!.instance_id).toBe(instanceId);
    await expect.poll(() => seen.at(-1)).toEqual(['alice', 'bob']);
    console.info(
      `public SDK activity, stop_shared_worker: new hub after ${hubBack} ms, a command answered after ${commandsBack} ms, events after ${since(injected)} ms`,
    );
  });

  it("stop_service_worker: a new start of the worker answers the frame's API calls and the SDK's commands", async () => {
    const { world, alice, me } = await publicSdkActivity();
    const injected = performance.now();
    const { restart } = await new SandboxClient().stopServiceWorker();
    expect(restart).not.toBeNull();
    // The frame is a client of the same worker: the new start controls it too.
    await expect
      .poll(() => (alice.window.navigator.serviceWorker.controller?.scriptURL ?? '') === restart!.controller)
      .toBe(true);
    const answered = await me();
    expect([answered.status, (await answered.json()).id]).toEqual([200, world.alice.id]);
    const channel = await alice.activity.commands.getChannel({ channel_id: world.voice.id });
    expect(channel).toMatchObject({ id: world.voice.id, name: 'General' });
    console.info(
      `public SDK activity, stop_service_worker: page controlled by the new start after ${Math.round(restart!.ms)} ms, API call and command answered after ${since(injected)} ms`,
    );
  });
});

describe('the game SDK Client in the page meets faults', SLOW, () => {
  /** Alice and bob signed in through the consent dialog, in one lobby; bob records what he hears. */
  async function lobbyOfTwo() {
    await registerPlatformWorker();
    await resetSandbox();
    const sandbox = new SandboxClient();
    const alice = (await sandbox.createUser({ username: 'alice' })).user;
    const bob = (await sandbox.createUser({ username: 'bob' })).user;
    const appId = (await sandbox.createApplication({ name: 'Arena' })).application.id;
    const signIn = async (userId: string) => {
      const client = new Client({ applicationId: appId, userId, build: 'debug' });
      clients.push(client);
      const { challenge, verifier } = await client.createAuthorizationCodeVerifier();
      const args = new AuthorizationArgs();
      args.setScopes(Client.getDefaultCommunicationScopes());
      args.setCodeChallenge(challenge);
      const authorizing = client.authorize(args);
      await page.getByRole('button', { name: 'Authorize' }).click();
      const { code, redirectUri } = await authorizing;
      const tokens = await client.getToken(appId, code, verifier, redirectUri);
      await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
      await client.connect();
      return client;
    };
    const aliceClient = await signIn(alice.id);
    const bobClient = await signIn(bob.id);
    const heard: LobbyMessage[] = [];
    bobClient.setMessageCreatedCallback((_id, message) => heard.push(message));
    const bobStatuses: Status[] = [];
    bobClient.setStatusChangedCallback((status) => bobStatuses.push(status));
    const lobby = await aliceClient.createOrJoinLobby('arena-1');
    await bobClient.createOrJoinLobby('arena-1');
    /** Alice sends `content`; resolves once bob heard it. */
    const delivered = async (content: string) => {
      await aliceClient.sendLobbyMessage(lobby.id, content);
      await expect.poll(() => heard.some((m) => m.content === content), { timeout: 20_000 }).toBe(true);
    };
    await delivered('warm-up');
    return { sandbox, aliceClient, bobClient, heard, bobStatuses, lobby, delivered };
  }

  it('a 429 and a 502 on a lobby message reach the caller as retryable SdkErrors (429 with retry_after); the retry is sent once', async () => {
    const { sandbox, aliceClient, heard, lobby, delivered } = await lobbyOfTwo();
    const path = '/api/v10/lobbies/*/messages';
    await sandbox.injectFault({ type: 'http_error', status: 429, method: 'POST', path, retry_after: 0.3 });
    const injected = performance.now();
    const limited = await aliceClient.sendLobbyMessage(lobby.id, 'once').then(
      () => null,
      (e: unknown) => e,
    );
    expect(limited).toBeInstanceOf(SdkError);
    expect(limited).toMatchObject({ type: ErrorType.HTTPError, status: 429, retryable: true, retryAfter: 0.3 });
    await new Promise((resolve) => setTimeout(resolve, (limited as SdkError).retryAfter! * 1000));
    await delivered('once');
    const after429 = since(injected);

    await sandbox.injectFault({ type: 'http_error', status: 502, method: 'POST', path });
    const injected502 = performance.now();
    const failed = await aliceClient.sendLobbyMessage(lobby.id, 'twice?').then(
      () => null,
      (e: unknown) => e,
    );
    expect(failed).toMatchObject({ status: 502, retryable: true });
    await delivered('twice?');
    expect(heard.map((m) => m.content)).toEqual(['warm-up', 'once', 'twice?']);
    console.info(`game SDK Client: 429 → sent after ${after429} ms, 502 → sent after ${since(injected502)} ms`);
  });

  it('stop_shared_worker: the gateway socket drops, the client reconnects to a new hub, resumes, and hears the message sent meanwhile', async () => {
    const { sandbox, aliceClient, heard, bobStatuses, lobby, delivered } = await lobbyOfTwo();
    const injected = performance.now();
    await sandbox.stopSharedWorker();
    // Sent while bob's socket is down or reconnecting: the resume replays it.
    await aliceClient.sendLobbyMessage(lobby.id, 'while the hub was down');
    await expect.poll(() => heard.some((m) => m.content === 'while the hub was down'), { timeout: 20_000 }).toBe(true);
    const resumed = since(injected);
    await delivered('after');
    expect(heard.map((m) => m.content)).toEqual(['warm-up', 'while the hub was down', 'after']);
    expect(bobStatuses.at(-1)).toBe(Status.Ready);
    console.info(
      `game SDK Client, stop_shared_worker: missed message heard after ${resumed} ms (statuses ${bobStatuses.join(', ')})`,
    );
  });

  it("stop_service_worker: the client's next API call is answered by the new start, and its gateway session is untouched", async () => {
    const { sandbox, heard, bobStatuses, delivered } = await lobbyOfTwo();
    const statusesBefore = bobStatuses.length;
    const injected = performance.now();
    const { restart } = await sandbox.stopServiceWorker();
    await delivered('after the worker restarted');
    expect(heard.map((m) => m.content)).toEqual(['warm-up', 'after the worker restarted']);
    // The gateway is in the shared worker: the session never dropped.
    expect(bobStatuses.length).toBe(statusesBefore);
    console.info(
      `game SDK Client, stop_service_worker: new start after ${Math.round(restart!.ms)} ms, message sent and heard after ${since(injected)} ms`,
    );
  });
});
