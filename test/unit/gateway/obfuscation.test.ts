// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CAPABILITY_CHANNEL_OBFUSCATION } from '../../../src/gateway/protocol';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { CHANNEL_OBFUSCATED } from '../../../src/store/records/core';
import { createGatewayHarness, type GatewayHarness } from './gateway-harness';
import { ON_SERVER } from '../app-harness';

const VIEW = String(PERMISSIONS.VIEW_CHANNEL);

/** A guild with the bot, an administrator bot, a role `viewers` and a channel only viewers see. */
async function setup(h: GatewayHarness) {
  const { guild } = await h.guildWithBot();
  const viewers = (await h.api.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'viewers', permissions: '0' })).body
    .role;
  const adminRole = (
    await h.api.post(`/sandbox/guilds/${guild.id}/roles`, {
      name: 'admins',
      permissions: String(PERMISSIONS.ADMINISTRATOR),
    })
  ).body.role;
  const admin = (await h.api.post('/sandbox/applications', { name: 'Admin' })).body;
  await h.api.put(`/sandbox/guilds/${guild.id}/members/${admin.bot.id}`, { roles: [adminRole.id] });
  const secret = (
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, {
      name: 'secret',
      type: 0,
      permission_overwrites: [
        { id: guild.id, type: 0, allow: '0', deny: VIEW },
        { id: viewers.id, type: 0, allow: VIEW, deny: '0' },
      ],
    })
  ).body.channel;
  return { guild, viewers, secret, adminAuth: `Bot ${admin.bot_token}` };
}

const expectObfuscated = (channel: any, guildId: string) => {
  expect(channel.name).toBe('___hidden___');
  expect(channel.flags & CHANNEL_OBFUSCATED).toBe(CHANNEL_OBFUSCATED);
  expect(channel.permission_overwrites).toEqual([{ id: guildId, type: 0, allow: '0', deny: VIEW }]);
  expect(channel.topic).toBeNull();
};

describe('channel obfuscation (spec: Channel name/flags/permission_overwrites, Identify capabilities 1 << 15)', () => {
  it('GUILD_CREATE carries a channel the opted-in bot cannot view obfuscated, and the others in full', async () => {
    const h = await createGatewayHarness();
    const { guild, secret } = await setup(h);
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    const created = await bot.waitForDispatch('GUILD_CREATE');
    const hidden = created.d.channels.find((c: any) => c.id === secret.id);
    expectObfuscated(hidden, guild.id);
    expect(created.d.channels.find((c: any) => c.name === 'general').flags & CHANNEL_OBFUSCATED).toBe(0);
  });

  it('a bot that did not opt in gets every channel in full', async () => {
    const h = await createGatewayHarness();
    const { secret } = await setup(h);
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const created = await bot.waitForDispatch('GUILD_CREATE');
    expect(created.d.channels.find((c: any) => c.id === secret.id).name).toBe('secret');
  });

  it("the application's channel_obfuscation setting opts in as the capability does", async () => {
    const h = await createGatewayHarness();
    const { guild, secret } = await setup(h);
    await h.updateApplication({ channel_obfuscation: true });
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const created = await bot.waitForDispatch('GUILD_CREATE');
    expectObfuscated(
      created.d.channels.find((c: any) => c.id === secret.id),
      guild.id,
    );
  });

  it('CHANNEL_CREATE of a channel the bot cannot view arrives obfuscated', async () => {
    const h = await createGatewayHarness();
    const { guild } = await setup(h);
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, {
      name: 'private',
      type: 0,
      permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: VIEW }],
    });
    expectObfuscated((await bot.waitForDispatch('CHANNEL_CREATE')).d, guild.id);
  });

  it('a permission overwrite change that lets the bot view the channel dispatches CHANNEL_UPDATE with the full channel', async () => {
    const h = await createGatewayHarness();
    const { guild, secret, adminAuth } = await setup(h);
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    await bot.waitForDispatch('GUILD_CREATE');
    const from = bot.received.length;
    const put = await h.api.put(
      `/api/v10/channels/${secret.id}/permissions/${h.world.bot.id}`,
      { type: 1, allow: VIEW },
      adminAuth,
    );
    expect(put.status).toBe(204);
    const update = await bot.waitForDispatch('CHANNEL_UPDATE', from);
    expect(update.d.name).toBe('secret');
    expect(update.d.flags & CHANNEL_OBFUSCATED).toBe(0);
    expect(update.d.permission_overwrites).toContainEqual({ id: h.world.bot.id, type: 1, allow: VIEW, deny: '0' });
    expect(update.d.permission_overwrites).toContainEqual({ id: guild.id, type: 0, allow: '0', deny: VIEW });
  });

  it('an overwrite change that keeps the channel hidden stays obfuscated', async () => {
    const h = await createGatewayHarness();
    const { guild, secret, adminAuth } = await setup(h);
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    const from = bot.received.length;
    await h.api.put(
      `/api/v10/channels/${secret.id}/permissions/${h.world.alice.id}`,
      { type: 1, allow: VIEW },
      adminAuth,
    );
    expectObfuscated((await bot.waitForDispatch('CHANNEL_UPDATE', from)).d, guild.id);
  });

  it('a role change that lets the bot view the channel is followed by CHANNEL_UPDATE with the full channel', async () => {
    const h = await createGatewayHarness();
    const { guild, viewers, secret, adminAuth } = await setup(h);
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    await bot.waitForDispatch('GUILD_CREATE');
    const from = bot.received.length;
    const put = await h.api.put(
      `/api/v10/guilds/${guild.id}/members/${h.world.bot.id}/roles/${viewers.id}`,
      undefined,
      adminAuth,
    );
    expect(put.status).toBe(204);
    const update = await bot.waitForDispatch('CHANNEL_UPDATE', from);
    expect(update.d).toMatchObject({ id: secret.id, name: 'secret', flags: 0 });
    expect(update.d.permission_overwrites).toHaveLength(2);
    // Only the channel that became visible: the others were never hidden.
    expect(bot.received.slice(from).filter((p) => p.t === 'CHANNEL_UPDATE')).toHaveLength(1);
  });

  it("a change of a role's permissions that lets the bot view the channel is followed by CHANNEL_UPDATE with the full channel", async () => {
    const h = await createGatewayHarness();
    const { guild, secret, adminAuth } = await setup(h);
    const mine = (await h.api.post(`/sandbox/guilds/${guild.id}/roles`, { name: 'mine', permissions: '0' })).body.role;
    await h.api.put(`/sandbox/guilds/${guild.id}/members/${h.world.bot.id}`, { roles: [mine.id] });
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    await bot.waitForDispatch('GUILD_CREATE');
    const from = bot.received.length;
    const patched = await h.api.patch(
      `/api/v10/guilds/${guild.id}/roles/${mine.id}`,
      { permissions: String(PERMISSIONS.ADMINISTRATOR) },
      adminAuth,
    );
    expect(patched.status).toBe(200);
    await bot.waitForDispatch('GUILD_ROLE_UPDATE', from);
    const update = await bot.waitForDispatch('CHANNEL_UPDATE', from);
    expect(update.d).toMatchObject({ id: secret.id, name: 'secret', flags: 0 });
  });

  it('a Resume from before a role change that let the bot view a channel replays the CHANNEL_UPDATE with the full channel', async () => {
    const h = await createGatewayHarness();
    const { guild, viewers, secret, adminAuth } = await setup(h);
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    const created = await bot.waitForDispatch('GUILD_CREATE');
    await h.api.put(`/api/v10/guilds/${guild.id}/members/${h.world.bot.id}/roles/${viewers.id}`, undefined, adminAuth);
    const live = await bot.waitForDispatch('CHANNEL_UPDATE');
    expect(live.d).toMatchObject({ id: secret.id, name: 'secret' });
    // The client missed everything after GUILD_CREATE, in this gateway and after a restart alike.
    bot.disconnect(4000);
    // On the server the gateway object starts again only with its process: a new connection there.
    for (const gateway of ON_SERVER ? [undefined] : [h.gateway, await h.restartedGateway()]) {
      const again = h.connect(undefined, gateway);
      again.send({ op: 6, d: { token: h.world.botAuth, session_id: bot.ready.session_id, seq: created.s } });
      await again.waitForDispatch('RESUMED');
      expect(again.dispatches().map((p) => [p.t, p.d.name ?? null])).toEqual([
        ['GUILD_MEMBER_UPDATE', null],
        ['CHANNEL_UPDATE', 'secret'],
        // The channel's active threads follow the access gained (none here).
        ['THREAD_LIST_SYNC', null],
        ['RESUMED', null],
      ]);
      again.disconnect(4000);
    }
  });

  it('a bot that did not opt in gets no extra CHANNEL_UPDATE on a role change', async () => {
    const h = await createGatewayHarness();
    const { guild, viewers, adminAuth } = await setup(h);
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    await h.api.put(`/api/v10/guilds/${guild.id}/members/${h.world.bot.id}/roles/${viewers.id}`, undefined, adminAuth);
    await bot.waitForDispatch('GUILD_MEMBER_UPDATE');
    expect(bot.dispatches('CHANNEL_UPDATE')).toEqual([]);
  });

  it('the GUILD_CREATE of a guild the bot joins later is obfuscated too', async () => {
    const h = await createGatewayHarness();
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    const { guild } = (await h.api.post('/sandbox/guilds', { name: 'Later', owner_id: h.world.alice.id })).body;
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, {
      name: 'private',
      type: 0,
      permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: VIEW }],
    });
    await h.api.put(`/sandbox/guilds/${guild.id}/members/${h.world.bot.id}`, {});
    const created = await bot.waitForDispatch('GUILD_CREATE');
    expectObfuscated(
      created.d.channels.find((c: any) => c.name !== 'general' && c.flags & CHANNEL_OBFUSCATED),
      guild.id,
    );
  });
});
