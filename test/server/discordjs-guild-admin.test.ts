// @vitest-environment node
/**
 * discord.js 14 administers a guild on the server with its own managers: it creates a role and
 * gives it to a member, bans the member and lifts the ban, and hears GUILD_ROLE_CREATE,
 * GUILD_BAN_ADD and GUILD_BAN_REMOVE as its own events.
 */
import { Client, Events, GatewayIntentBits, type GuildBan, type Role } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/platform/core/permissions';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

let server: TestServer;
let client: Client;
let api: ReturnType<typeof sandboxClient>;
let guildId: string;
let bob: { id: string };
let botAuth: string;

/** The next time `event` is emitted with a value `match` accepts. */
function next<T>(event: string, match: (value: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const listener = (value: T) => {
      if (!match(value)) return;
      client.off(event, listener);
      resolve(value);
    };
    client.on(event, listener);
  });
}

beforeAll(async () => {
  server = await startTestServer();
  api = sandboxClient(freshSandbox(server.url));
  const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
  bob = (await api.post('/sandbox/users', { username: 'bob' })).body.user;
  const created = (await api.post('/sandbox/applications', { name: 'Moderator', owner_id: alice.id })).body;
  const guild = (await api.post('/sandbox/guilds', { name: 'Moderated', owner_id: alice.id })).body;
  guildId = guild.guild.id;
  const bits = PERMISSIONS.MANAGE_ROLES | PERMISSIONS.BAN_MEMBERS;
  const role = (await api.post(`/sandbox/guilds/${guildId}/roles`, { name: 'mod', permissions: String(bits) })).body
    .role;
  await api.put(`/sandbox/guilds/${guildId}/members/${created.bot.id}`, { roles: [role.id] });
  await api.put(`/sandbox/guilds/${guildId}/members/${bob.id}`, {});
  botAuth = `Bot ${created.bot_token}`;
  client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration],
    rest: { api: `${api.base}/api` },
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(created.bot_token);
  await ready;
});

afterAll(async () => {
  await client?.destroy();
  await server?.stop();
});

describe('discord.js 14 administers a guild (roles, bans)', () => {
  it('creates a role with guild.roles.create (GuildRoleCreate) and gives it to a member', async () => {
    const guild = client.guilds.cache.get(guildId)!;
    const heard = next<Role>(Events.GuildRoleCreate, (r) => r.name === 'Raiders');
    const role = await guild.roles.create({ name: 'Raiders', colors: { primaryColor: 0x3498db }, hoist: true });
    expect(role.position).toBe(1);
    expect((await heard).id).toBe(role.id);
    await guild.members.addRole({ user: bob.id, role: role.id });
    const member = (await api.get(`/api/v10/guilds/${guildId}/members/${bob.id}`, botAuth)).body;
    expect(member.roles).toEqual([role.id]);
  });

  it('bans with guild.bans.create (GuildBanAdd), lists and fetches the ban, and lifts it (GuildBanRemove)', async () => {
    const guild = client.guilds.cache.get(guildId)!;
    const added = next<GuildBan>(Events.GuildBanAdd, (b) => b.user.id === bob.id);
    await guild.bans.create(bob.id, { deleteMessageSeconds: 60, reason: 'spam' });
    expect((await added).guild.id).toBe(guildId);
    const bans = await guild.bans.fetch();
    expect([...bans.keys()]).toEqual([bob.id]);
    expect((await guild.bans.fetch({ user: bob.id, force: true })).reason).toBe('spam');
    const removed = next<GuildBan>(Events.GuildBanRemove, (b) => b.user.id === bob.id);
    await guild.bans.remove(bob.id);
    expect((await removed).user.id).toBe(bob.id);
    expect((await guild.bans.fetch({ cache: false })).size).toBe(0);
  });
});
