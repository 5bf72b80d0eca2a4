// @vitest-environment node
/**
 * discord.py 2.2.2 administers a guild on the server with its own models: it creates a role and
 * gives it to a member, bans the member, lists the bans and lifts the ban, and hears
 * on_member_ban / on_member_unban (GUILD_BAN_ADD / GUILD_BAN_REMOVE). The bot is
 * `bots/discordpy-bot.py`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/platform/core/permissions';
import { DiscordpyBot, discordpyVersion } from './discordpy-process';
import { type LibraryWorld, libraryWorld } from './library-world';
import { startTestServer, type TestServer } from './server-harness';

let server: TestServer;
let w: LibraryWorld;
let bot: DiscordpyBot;
let bob: { id: string };

beforeAll(async () => {
  expect(discordpyVersion()).toBe('2.2.2');
  server = await startTestServer();
  w = await libraryWorld(server);
  const bits = PERMISSIONS.MANAGE_ROLES | PERMISSIONS.BAN_MEMBERS;
  const role = (await w.api.post(`/sandbox/guilds/${w.guild.id}/roles`, { name: 'mod', permissions: String(bits) }))
    .body.role;
  await w.api.put(`/sandbox/guilds/${w.guild.id}/members/${w.bot.id}`, { roles: [role.id] });
  bob = (await w.api.post('/sandbox/users', { username: 'bob' })).body.user;
  await w.api.put(`/sandbox/guilds/${w.guild.id}/members/${bob.id}`, {});
  const gateway = await w.api.get('/api/v10/gateway/bot', `Bot ${w.botToken}`);
  bot = new DiscordpyBot(w.restBase, gateway.body.url, w.botToken);
  await bot.event('ready');
});

afterAll(async () => {
  await bot?.close();
  await server?.stop();
});

describe('discord.py 2.2.2 administers a guild (roles, bans)', () => {
  it('creates a role with guild.create_role and gives it to a member with member.add_roles', async () => {
    const role = await bot.command('create_role', { guild_id: w.guild.id, name: 'Raiders' });
    expect(role).toMatchObject({ name: 'Raiders', position: 1, hoist: true });
    const roles = await bot.command('add_role', { guild_id: w.guild.id, user_id: bob.id, role_id: role.id });
    expect(roles).toContain(role.id);
  });

  it('bans with guild.ban (on_member_ban), lists guild.bans() and lifts the ban (on_member_unban)', async () => {
    await bot.command('ban', { guild_id: w.guild.id, user_id: bob.id });
    expect(await bot.event('member_ban', (e) => e.user_id === bob.id)).toMatchObject({ guild_id: w.guild.id });
    expect(await bot.command('bans', { guild_id: w.guild.id })).toEqual([bob.id]);
    await bot.command('unban', { guild_id: w.guild.id, user_id: bob.id });
    expect(await bot.event('member_unban', (e) => e.user_id === bob.id)).toMatchObject({ guild_id: w.guild.id });
    expect(await bot.command('bans', { guild_id: w.guild.id })).toEqual([]);
  });
});
