/**
 * One world in which every route of the app has something real to act on: two applications
 * (A, whose resources the routes name, and B, whose bot owns nothing of A's), users with tokens
 * of A (every scope, and `openid` only), a guild with the bot of A as an administrator, a lobby
 * with a message, a guild message, an invite, SKUs with an entitlement and a subscription,
 * commands, an application emoji, a direct message, a quest, interactions, an identity provider
 * and a webhook sink. `pathOf` fills a route's parameters with them.
 */
import { expect } from 'vitest';
import { PLATFORM_CATALOGUE } from '../../../src/store/platform-catalogue';
import type { PlatformStoreName } from '../../../src/store/schema';
import type { RouteKey } from '../../../src/platform/oauth2/route-access';
import { createTestClient, type JsonReply, type TestClient } from '../app-harness';
import { PNG } from './guild-admin-fixtures';

/** When the world's clock stands (frozen: interactions answer within their 3 s by it). */
export const WORLD_NOW = '2026-03-10T12:00:00.000Z';

/** Every scope a token of A may be granted (the umbrella expands to the SDK's own). */
export const ALL_SCOPES = [
  'openid identify email guilds guilds.members.read connections relationships.write activities.read',
  'activities.write activities.invites.write presences.read lobbies.write dm_channels.read',
  'dm_channels.messages.read dm_channels.messages.write messages.read messages.write rpc rpc.activities.write',
  'rpc.voice.read applications.commands applications.entitlements sdk.social_layer',
  'applications.commands.permissions.update role_connections.write',
].join(' ');

async function ok(reply: Promise<JsonReply>, what: string): Promise<any> {
  const r = await reply;
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** Builds the world on a fresh app. */
export async function routeWorld(client?: TestClient) {
  const c = client ?? (await createTestClient());
  await ok(c.put('/sandbox/clock', { now: WORLD_NOW }), 'clock');
  const user = async (username: string) => (await ok(c.post('/sandbox/users', { username }), username)).user;
  const alice = await user('alice');
  const bob = await user('bob');
  const carol = await user('carol');
  const a = await ok(c.post('/sandbox/applications', { name: 'Game A', owner_id: alice.id }), 'application A');
  const b = await ok(c.post('/sandbox/applications', { name: 'Game B', owner_id: carol.id }), 'application B');
  const child = await ok(c.post('/sandbox/applications', { name: 'Child of A', owner_id: alice.id }), 'child');
  const token = async (userId: string, scopes: string) =>
    (await ok(c.post('/sandbox/tokens', { application_id: a.application.id, user_id: userId, scopes }), 'token'))
      .access_token as string;
  const aliceAll = await token(alice.id, ALL_SCOPES);
  const bobAll = await token(bob.id, ALL_SCOPES);
  const aliceOpenid = await token(alice.id, 'openid');
  const bot = `Bot ${a.bot_token}`;
  const otherBot = `Bot ${b.bot_token}`;

  const created = await ok(c.post('/sandbox/guilds', { name: 'Guild', owner_id: alice.id }), 'guild');
  const guild = created.guild;
  const text = created.channels.find((ch: any) => ch.type === 0);
  const voice = created.channels.find((ch: any) => ch.type === 2);
  const admin = (
    await ok(c.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'admin', permissions: '8' }), 'admin role')
  ).role;
  const role = (await ok(c.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'plain', permissions: '0' }), 'role'))
    .role;
  await ok(c.put(`/sandbox/guilds/${guild.id}/members/${a.bot.id}`, { roles: [admin.id] }), 'bot member');
  await ok(c.put(`/sandbox/guilds/${guild.id}/members/${bob.id}`, { roles: [role.id] }), 'bob member');

  const lobby = await ok(c.post('/api/v10/lobbies', { members: [{ id: alice.id }, { id: bob.id }] }, bot), 'lobby');
  const lobbyMessage = await ok(
    c.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'hello lobby' }, `Bearer ${aliceAll}`),
    'lobby message',
  );
  const message = await ok(c.post(`/api/v10/channels/${text.id}/messages`, { content: 'hello guild' }, bot), 'message');
  const invite = await ok(c.post(`/api/v10/channels/${text.id}/invites`, {}, bot), 'invite');
  const webhook = await ok(c.post(`/api/v10/channels/${text.id}/webhooks`, { name: 'Hook' }, bot), 'webhook');

  const skus = `/sandbox/applications/${a.application.id}/skus`;
  const price = { amount: 499, currency: 'usd' };
  const premium = (await ok(c.post(skus, { name: 'Premium', type: 5, price }), 'premium')).sku;
  const gold = (await ok(c.post(skus, { name: 'Gold', type: 3, price }), 'gold')).sku;
  const subscribed = await ok(c.post('/sandbox/purchases', { user_id: alice.id, sku_id: premium.id }), 'subscribe');
  const bought = await ok(c.post('/sandbox/purchases', { user_id: alice.id, sku_id: gold.id }), 'buy');

  const commands = `/api/v10/applications/${a.application.id}`;
  const command = await ok(
    c.post(`${commands}/commands`, { name: 'roll', description: 'Roll a die', type: 1 }, bot),
    'command',
  );
  const guildCommand = await ok(
    c.post(`${commands}/guilds/${guild.id}/commands`, { name: 'duel', description: 'Duel', type: 1 }, bot),
    'guild command',
  );
  const emoji = await ok(c.post(`${commands}/emojis`, { name: 'cheer', image: PNG }, bot), 'emoji');
  const scheduledEvent = await ok(
    c.post(
      `/api/v10/guilds/${guild.id}/scheduled-events`,
      { name: 'Raid', entity_type: 2, channel_id: voice.id, scheduled_start_time: '2026-03-12T20:00:00Z' },
      bot,
    ),
    'scheduled event',
  );
  await ok(c.put(`/sandbox/guilds/${guild.id}/scheduled-events/${scheduledEvent.id}/users/${bob.id}`), 'interest');

  for (const [from, to] of [
    [alice.id, bob.id],
    [bob.id, alice.id],
  ])
    await ok(c.put(`/sandbox/users/${from}/relationships/${to}`, { type: 1 }), 'friends');
  const dm = await ok(
    c.post(`/api/v10/users/@me/dms/${bob.id}/messages`, { content: 'hello bob' }, `Bearer ${aliceAll}`),
    'dm',
  );

  const quest = await ok(c.post('/sandbox/quests', { application_id: a.application.id, name: 'Quest' }), 'quest');
  const interact = () =>
    ok(
      c.post('/sandbox/interactions', {
        application_id: a.application.id,
        user_id: alice.id,
        type: 2,
        guild_id: guild.id,
        channel_id: text.id,
        data: { name: 'roll' },
      }),
      'interaction',
    );
  const unanswered = (await interact()).interaction;
  const answered = (await interact()).interaction;
  await ok(
    c.post(`/api/v10/interactions/${answered.id}/${answered.token}/callback`, { type: 4, data: { content: 'rolled' } }),
    'answer',
  );
  const provider = await ok(c.post('/sandbox/identity-providers', { audience: 'game-a' }), 'identity provider');
  const sink = await ok(c.post('/sandbox/webhook-sinks', {}), 'webhook sink');

  return {
    client: c,
    alice,
    bob,
    carol,
    application: a.application,
    applicationB: b.application,
    child: child.application,
    clientSecret: a.client_secret as string,
    auth: {
      bot,
      otherBot,
      aliceAll: `Bearer ${aliceAll}`,
      bobAll: `Bearer ${bobAll}`,
      openid: `Bearer ${aliceOpenid}`,
    },
    aliceAccessToken: aliceAll,
    guild,
    text,
    voice,
    admin,
    role,
    lobby,
    lobbyMessage,
    message,
    invite,
    webhook,
    premium,
    gold,
    subscription: subscribed.subscription,
    entitlement: bought.entitlement,
    command,
    guildCommand,
    emoji,
    scheduledEvent,
    dm,
    quest: quest.quest,
    unanswered,
    answered,
    provider: provider.identity_provider,
    sink,
  };
}

/** The world the routes act on. */
export type RouteWorld = Awaited<ReturnType<typeof routeWorld>>;

/**
 * Whether a `/webhooks/...` route is called as an interaction's: the execution and the message
 * routes (which incoming webhooks and interactions share) are, with the answered interaction; the
 * webhook's own routes (`/webhooks/{id}`, `/webhooks/{id}/{token}` but for POST, and the Slack
 * execution) use the world's incoming webhook.
 */
const asInteraction = (key: string) =>
  (key.startsWith('POST /webhooks/') && !key.endsWith('/slack')) || key.includes('/messages/');

/** The value of a path parameter in the world, which may depend on the route (whose message). */
function paramValue(w: RouteWorld, name: string, path: string, key: string): string {
  const lobbyRoute = path.startsWith('/lobbies/');
  switch (name) {
    case 'lobby_id':
      return w.lobby.id;
    case 'guild_id':
      return w.guild.id;
    case 'channel_id':
      return w.text.id;
    case 'user_id':
    case 'recipient_id':
    case 'other_id':
    case 'user_id_2':
      return path.startsWith('/sandbox/users/') || path.startsWith('/sandbox/quests') ? w.alice.id : w.bob.id;
    case 'user_id_1':
      return w.alice.id;
    case 'role_id':
    case 'overwrite_id':
      return w.role.id;
    case 'message_id':
      if (path.startsWith('/webhooks/')) return '@original';
      if (path.startsWith('/partner-sdk/dms/')) return w.dm.id;
      return lobbyRoute ? w.lobbyMessage.id : w.message.id;
    case 'application_id':
    case 'parent_id':
      return w.application.id;
    case 'child_id':
      return w.child.id;
    case 'entitlement_id':
      return w.entitlement.id;
    case 'sku_id':
      return w.premium.id;
    case 'subscription_id':
      return w.subscription.id;
    case 'command_id':
      return path.includes('/guilds/') ? w.guildCommand.id : w.command.id;
    case 'emoji_id':
      return w.emoji.id;
    case 'integration_id':
      // A guild's bot integration has its application's id.
      return w.application.id;
    case 'event_id':
      return w.scheduledEvent.id;
    case 'answer_id':
      return '1';
    case 'emoji':
      // A reaction's emoji, URL-encoded as the platform's clients send it.
      return encodeURIComponent('👍');
    case 'code':
      return w.invite.code;
    case 'quest_id':
      return w.quest.id;
    case 'interaction_id':
      return w.unanswered.id;
    case 'webhook_id':
      return asInteraction(key) ? w.application.id : w.webhook.id;
    case 'token':
      if (!path.startsWith('/webhooks/')) return w.unanswered.token;
      return asInteraction(key) ? w.answered.token : w.webhook.token;
    case 'id':
      return w.provider.id;
    case 'sink_id':
      return w.sink.id;
    case 'attachment_id':
      return w.message.id;
    case 'filename':
      return 'file.txt';
    case 'name':
      return 'seeded-world';
    case 'instance_id':
      // No instance runs in the world: past the door the route answers 404.
      return 'i-none';
    default:
      throw new Error(`No value in the world for the path parameter ${name} (${path}).`);
  }
}

/**
 * The URL path of a route in the world: under `{base_url}` unless it is a sandbox, OAuth2 root,
 * attachment or discovery path.
 * @example pathOf(w, 'GET /lobbies/:lobby_id') // '/api/v10/lobbies/1575…'
 */
export function pathOf(w: RouteWorld, key: RouteKey): string {
  const path = key.slice(key.indexOf(' ') + 1);
  const filled = path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => paramValue(w, name, path, key));
  const outside = ['/sandbox/', '/attachments/', '/.well-known/'].some((p) => path.startsWith(p));
  return outside ? filled : `/api/v10${filled}`;
}

/** Every store the platform keeps, as one string: what a refused request must leave as it was. */
export async function dumpStores(client: TestClient): Promise<string> {
  const names = Object.keys(PLATFORM_CATALOGUE) as PlatformStoreName[];
  const tx = client.app.ctx.db.read(names);
  const all = await Promise.all(names.map(async (name) => [name, await tx.store(name).getAll()] as const));
  return JSON.stringify(all, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value));
}
