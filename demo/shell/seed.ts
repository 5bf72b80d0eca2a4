/**
 * The first visit's data, made through the platform's own API (the sandbox control routes
 * and the HTTP API, both answered by the service worker): three users, the simulated client's
 * application, the sample activity's application with its bot, a guild with roles and a
 * private channel, a few messages in its channels, a lobby with messages of its own, the three
 * users as friends with a few direct messages, and a webhook sink receiving the Tic-Tac-Toe
 * application's webhook events.
 * Idempotent: {@link ensureWorld} checks the recorded world (kept in IndexedDB, or in the sandbox
 * on a server: `world-records.ts`) against the platform and seeds only when the platform does not
 * know it.
 */
import type { SandboxClient } from '../../src/components/sandbox-client';
import { PERMISSIONS, serializePermissions } from '../../src/platform/core/permissions';
import { APPLICATION_FLAGS } from '../../src/store/records/core';
import { type WebhookEventType } from '../../src/store/records/webhooks';
import { ApiClient, ApiRequestError } from '../shared/api';
import { CLIENT_SCOPES, WORLD_VERSION, type DemoWorld, type WorldUser } from './world';
import { browserWorldRecords, type WorldRecords } from './world-records';

/** The Web Lock tabs take turns under to seed (or reset) the demo's data. */
export const SEED_LOCK = 'platformpp-demo:seed';

/** The lobby everyone starts in, and the secret that joins it. */
export const LOUNGE_SECRET = 'cafe-lounge';
/** One week: the longest idle timeout a lobby may have. */
const LOUNGE_IDLE_TIMEOUT_S = 604_800;

const PEOPLE = [
  { username: 'alice', global_name: 'Alice Martin' },
  { username: 'bob', global_name: 'Bob Okafor' },
  { username: 'chen', global_name: 'Chen Wei' },
] as const;

const {
  VIEW_CHANNEL,
  SEND_MESSAGES,
  READ_MESSAGE_HISTORY,
  MANAGE_MESSAGES,
  MANAGE_CHANNELS,
  KICK_MEMBERS,
  CONNECT,
  SPEAK,
} = PERMISSIONS;

/** Reports what the seeding is doing, for the page to show. */
export type SeedProgress = (step: string) => void;

/** A fresh token of the simulated client for `userId` (the sandbox skips the consent screen). */
export async function mintClientToken(
  sandbox: SandboxClient,
  world: Pick<DemoWorld, 'client'>,
  userId: string,
): Promise<string> {
  const token = await sandbox.createToken({
    application_id: world.client.application_id,
    user_id: userId,
    scopes: CLIENT_SCOPES,
  });
  return token.access_token;
}

/**
 * The events the game's sink subscribes to: those about the application. Its lobby message
 * events would repeat every move of every match in the outbox.
 */
const GAME_WEBHOOK_TYPES: WebhookEventType[] = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'QUEST_USER_ENROLLMENT',
];

/**
 * Points the game's webhook events at a sink on this origin, unless they already go somewhere:
 * authorizing Tic-Tac-Toe (APPLICATION_AUTHORIZED) then shows up in the webhook deliveries.
 */
export async function ensureGameWebhooks(sandbox: SandboxClient, world: Pick<DemoWorld, 'game'>): Promise<void> {
  const settings = await sandbox.eventWebhooks(world.game.application_id);
  if (settings.event_webhooks_url) return;
  const sink = await sandbox.createWebhookSink();
  await sandbox.setEventWebhooks(world.game.application_id, {
    url: sink.url,
    types: GAME_WEBHOOK_TYPES,
    enabled: true,
  });
}

/** Seeds a new world and records it; resolves with the world recorded (another browser's, if it recorded first). */
export async function seedWorld(
  sandbox: SandboxClient,
  progress: SeedProgress = () => undefined,
  records: WorldRecords = browserWorldRecords,
): Promise<DemoWorld> {
  progress('Creating the users alice, bob and chen');
  const people = await Promise.all(PEOPLE.map((p) => sandbox.createUser({ ...p })));
  const [alice, bob, chen] = people.map((p) => p.user);

  progress('Creating the client and the Tic-Tac-Toe application with its bot');
  // The client reads member lists and presences: privileged intents, which an app with fewer
  // than 10,000 users gets by its own toggle (the *_LIMITED flags).
  const client = await sandbox.createApplication({
    name: 'platformpp Client',
    flags: APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED | APPLICATION_FLAGS.GATEWAY_PRESENCE_LIMITED,
  });
  const game = await sandbox.createApplication({
    name: 'Tic-Tac-Toe',
    owner_id: alice.id,
    flags: APPLICATION_FLAGS.EMBEDDED,
  });

  progress('Creating the guild Pixel Café with its roles and a private channel');
  const { guild, channels } = await sandbox.createGuild({ name: 'Pixel Café', owner_id: alice.id });
  const bits = (...list: bigint[]) => serializePermissions(list.reduce((all, b) => all | b, 0n));
  // Created first, so it sits below Moderators (roles are positioned in creation order).
  const bots = (
    await sandbox.createRole(guild.id, {
      name: 'Bots',
      permissions: bits(VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY, CONNECT, SPEAK),
      colors: { primary_color: 0x4752c4 },
    })
  ).role;
  const moderators = (
    await sandbox.createRole(guild.id, {
      name: 'Moderators',
      permissions: bits(
        VIEW_CHANNEL,
        SEND_MESSAGES,
        READ_MESSAGE_HISTORY,
        MANAGE_MESSAGES,
        MANAGE_CHANNELS,
        KICK_MEMBERS,
      ),
      colors: { primary_color: 0xc2410c },
    })
  ).role;
  await sandbox.putGuildMember(guild.id, alice.id, { roles: [moderators.id] });
  await sandbox.putGuildMember(guild.id, bob.id);
  await sandbox.putGuildMember(guild.id, chen.id, { nick: 'Chen' });
  await sandbox.putGuildMember(guild.id, game.bot.id, { roles: [bots.id] });
  const category = (name: string) => channels.find((c) => c.type === 4 && c.name === name)?.id ?? null;
  const general = channels.find((c) => c.type === 0)!;
  // Private: @everyone may not view it, Moderators may. The bot is no moderator: it sees it obfuscated.
  const staff = (
    await sandbox.createChannel(guild.id, {
      name: 'staff-only',
      type: 0,
      parent_id: category('Text Channels'),
      permission_overwrites: [
        { id: guild.id, type: 0, allow: '0', deny: bits(VIEW_CHANNEL) },
        { id: moderators.id, type: 0, allow: bits(VIEW_CHANNEL), deny: '0' },
      ],
    })
  ).channel;
  const gameRoom = (
    await sandbox.createChannel(guild.id, { name: 'Game Room', type: 2, parent_id: category('Voice Channels') })
  ).channel;

  progress('Signing the users in to the client');
  const world: DemoWorld = {
    version: WORLD_VERSION,
    users: [],
    client: { application_id: client.application.id },
    game: {
      application_id: game.application.id,
      name: game.application.name,
      bot_user_id: game.bot.id,
      bot_token: game.bot_token,
    },
    guild: { id: guild.id, name: guild.name },
    roles: { moderators: moderators.id, bots: bots.id },
    channels: { general: general.id, staff: staff.id, gameRoom: gameRoom.id },
    lobby: { id: '', secret: LOUNGE_SECRET },
  };
  for (const user of [alice, bob, chen]) {
    world.users.push({
      id: user.id,
      username: user.username,
      global_name: user.global_name,
      token: await mintClientToken(sandbox, world, user.id),
    });
  }

  progress('Opening the Café Lounge lobby and the first messages');
  const api = (user: WorldUser) => new ApiClient(`Bearer ${user.token}`);
  const [a, b, c] = world.users;
  const lobby = await api(a).put<{ id: string }>('/lobbies', {
    secret: LOUNGE_SECRET,
    lobby_metadata: { name: 'Café Lounge' },
    idle_timeout_seconds: LOUNGE_IDLE_TIMEOUT_S,
  });
  world.lobby.id = lobby.id;
  await api(b).put('/lobbies', { secret: LOUNGE_SECRET });
  await api(c).put('/lobbies', { secret: LOUNGE_SECRET });
  const say = (user: WorldUser, content: string) => api(user).post(`/lobbies/${lobby.id}/messages`, { content });
  await say(
    a,
    `Welcome to the Café Lounge! This chat is a lobby: anyone with the secret "${LOUNGE_SECRET}" can join it.`,
  );
  await say(b, 'Hi all! Anyone up for Tic-Tac-Toe in the Game Room?');
  await say(c, 'Sure, launch it and I will join from my tab.');
  const post = (user: WorldUser, channelId: string, content: string) =>
    api(user).post(`/channels/${channelId}/messages`, { content });
  await post(
    a,
    general.id,
    'Welcome to Pixel Café! This guild, its channels and these messages live in your browser’s IndexedDB.',
  );
  await post(b, general.id, 'Open the demo as another user in a second tab: what one tab does, the other sees.');
  await post(
    a,
    staff.id,
    'Moderators only: bob and chen cannot see this channel, and the Tic-Tac-Toe bot sees it as ___hidden___.',
  );

  progress('Making alice, bob and chen friends, with a few direct messages');
  // Friends keep their direct messages in a DM channel (others' are delivered, not kept).
  await sandbox.setRelationship(a.id, b.id, { type: 1 });
  await sandbox.setRelationship(a.id, c.id, { type: 1 });
  await sandbox.setRelationship(b.id, c.id, { type: 1 });
  const dm = (from: WorldUser, to: WorldUser, content: string) =>
    api(from).post(`/users/@me/dms/${to.id}/messages`, { content });
  await dm(b, a, 'Are you coming to the Game Room later?');
  await dm(a, b, 'Yes! Give me five minutes.');

  progress('Sending the Tic-Tac-Toe webhook events to a sink in this browser');
  await ensureGameWebhooks(sandbox, world);
  return records.first(world);
}

/** True when the platform still knows the recorded world (its users and its bot). */
async function worldIsLive(sandbox: SandboxClient, world: DemoWorld): Promise<boolean> {
  try {
    await Promise.all(world.users.map((u) => sandbox.getUser(u.id)));
    await new ApiClient(`Bot ${world.game.bot_token}`).get('/users/@me');
    return true;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 404 || status === 401) return false;
    throw error;
  }
}

/** Replaces the client's tokens the platform no longer takes (expired by the sandbox clock). */
async function renewStaleTokens(sandbox: SandboxClient, world: DemoWorld, records: WorldRecords): Promise<void> {
  let changed = false;
  for (const user of world.users) {
    try {
      await new ApiClient(`Bearer ${user.token}`).get('/users/@me');
    } catch (error) {
      if (!(error instanceof ApiRequestError) || error.status !== 401) throw error;
      user.token = await mintClientToken(sandbox, world, user.id);
      changed = true;
    }
  }
  if (changed) await records.save(world);
}

/**
 * The recorded world when the platform still knows it, else a newly seeded one. Tabs take
 * turns (a Web Lock), so two tabs opened at once seed once.
 */
export async function ensureWorld(
  sandbox: SandboxClient,
  progress: SeedProgress = () => undefined,
  records: WorldRecords = browserWorldRecords,
): Promise<DemoWorld> {
  const run = async () => {
    const recorded = await records.load();
    if (recorded && (await worldIsLive(sandbox, recorded))) {
      await renewStaleTokens(sandbox, recorded, records);
      // A world seeded before the sink existed gets one now.
      await ensureGameWebhooks(sandbox, recorded);
      return recorded;
    }
    return seedWorld(sandbox, progress, records);
  };
  return navigator.locks ? navigator.locks.request(SEED_LOCK, run) : run();
}
