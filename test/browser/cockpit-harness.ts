/**
 * The host page's cockpit mounted in the test page as `src/vite/host/main.ts` mounts it: a
 * stage of players (each a `<pp-activity-frame>` running the public SDK fixture as its own
 * user) inside `<pp-platform>`, and the cockpit's panels beside it.
 */
import { expect } from 'vitest';
import { Client } from '../../src/sdk/client';
import { AuthorizationTokenType } from '../../src/sdk/types';
import { GatewaySocket } from '../../src/sockets/gateway-socket';
import { VoiceGatewaySocket } from '../../src/sockets/voice-gateway-socket';
import { mountCockpit } from '../../src/vite/host/cockpit';
import { COCKPIT_CSS } from '../../src/vite/host/cockpit-style';
import { createPlayer, type Player } from '../../src/vite/host/players';
import type { SandboxWorld } from '../../src/vite/host/world';
import { createActivityWorld, FIXTURES, mountPlatform, nextEvent } from './activity-harness';

/** Every scope the cockpit's tests need. */
export const COCKPIT_SCOPES = 'identify guilds guilds.members.read rpc.activities.write';

/**
 * A world of alice, bob and chen (who plays in no frame), the cockpit, and a player per
 * `usernames` running the activity page `fixture` (of the fixtures folder).
 */
export async function mountCockpitPage(usernames: string[] = ['alice'], fixture = 'activity-discord-sdk.html') {
  const world = await createActivityWorld(COCKPIT_SCOPES);
  const chen = (await world.sandbox.createUser({ username: 'chen' })).user;
  await world.sandbox.putGuildMember(world.guild.id, chen.id);
  const users: Record<string, string> = { alice: world.alice.id, bob: world.bob.id, chen: chen.id };
  const sandboxWorld: SandboxWorld = {
    version: 1,
    application_id: world.application.id,
    secret_sha256: null,
    users,
    guild_id: world.guild.id,
    channel_id: world.voice.id,
  };
  const style = document.createElement('style');
  style.textContent = COCKPIT_CSS;
  document.head.append(style);
  const platform = await mountPlatform(world.alice.id);
  const layout = document.createElement('div');
  layout.className = 'layout';
  layout.style.height = '640px';
  const main = document.createElement('main');
  const aside = document.createElement('aside');
  aside.className = 'cockpit';
  aside.setAttribute('aria-label', 'Cockpit');
  const stage = document.createElement('div');
  stage.className = 'stage';
  platform.append(stage);
  main.append(platform);
  layout.append(main, aside);
  document.body.append(layout);
  const players: Player[] = [];
  const cockpit = mountCockpit(aside, {
    world: sandboxWorld,
    sandbox: world.sandbox,
    platform,
    players,
    reset: () => undefined,
  });
  const src = `${FIXTURES}/${fixture}?client_id=${world.application.id}`;
  for (const name of usernames)
    players.push(
      createPlayer(
        stage,
        name,
        users[name],
        { application_id: world.application.id, src },
        { guild_id: world.guild.id, channel_id: world.voice.id },
        'desktop',
      ),
    );
  cockpit.clientEvents.adopt(players);
  return {
    world,
    users,
    platform,
    players,
    cockpit,
    layout,
    sdks: await Promise.all(players.map((p) => readySdk(world, p))),
  };
}

/** The public SDK of a player's activity, ready and authenticated as its user (its platform session listening). */
export async function readySdk(world: Awaited<ReturnType<typeof createActivityWorld>>, player: Player) {
  const { frame } = player;
  await expect.poll(() => frame.status, { timeout: 10_000 }).toBe('running');
  const window = () => frame.iframe!.contentWindow as Window & Record<string, any>;
  // The iframe's window outlives a navigation: wait for the SDK of the page the frame runs now.
  await expect.poll(() => window().discordSdk?.frameId === frame.frameId, { timeout: 10_000 }).toBe(true);
  const discordSdk = window().discordSdk;
  await discordSdk.ready();
  const listening = nextEvent(frame, 'pp-platform-events');
  await discordSdk.commands.authenticate({ access_token: await world.token(player.userId) });
  await listening;
  return discordSdk;
}

type CockpitWorld = Awaited<ReturnType<typeof createActivityWorld>>;

/**
 * A connected game SDK client of `userId` on the hub `hubName`, for calls: signaling only (it
 * hears who is in the call and who speaks from the voice gateway, and sends no audio).
 */
export async function callClient(world: CockpitWorld, userId: string, hubName: string): Promise<Client> {
  const { access_token } = await world.sandbox.createToken({
    application_id: world.application.id,
    user_id: userId,
    scopes: 'openid sdk.social_layer',
  });
  const client = new Client({
    applicationId: world.application.id,
    userId,
    socketFactory: (url) => new GatewaySocket(url, undefined, { hubName }),
    voiceSocketFactory: (url) => new VoiceGatewaySocket(url, undefined, { hubName }),
    voice: { media: false },
  });
  await client.updateToken(AuthorizationTokenType.Bearer, access_token);
  await client.connect();
  return client;
}

/** `GET /guilds/{guild}/voice-states/{user}` as alice (a member, with the `guilds` scope): status and body. */
export async function voiceState(world: CockpitWorld, userId: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`/api/v10/guilds/${world.guild.id}/voice-states/${userId}`, {
    headers: { Authorization: `Bearer ${await world.token(world.alice.id)}` },
  });
  return { status: response.status, body: await response.json() };
}
