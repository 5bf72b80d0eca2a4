// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CAPABILITY_CHANNEL_OBFUSCATION } from '../../../src/gateway/protocol';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createGatewayHarness } from '../gateway/gateway-harness';
import { MESSAGE_SCOPES } from './messages-fixtures';

const api = '/api/v10';

/** A gateway next to the app, a guild with the bot and bob, a channel the bot cannot view, and the users' tokens. */
async function setup() {
  const h = await createGatewayHarness();
  const { guild, channels } = await h.guildWithBot({ bob: true });
  const general = channels.find((c: any) => c.name === 'general');
  const hidden = (
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, {
      name: 'staff',
      type: 0,
      permission_overwrites: [{ id: h.world.bot.id, type: 1, allow: '0', deny: String(PERMISSIONS.VIEW_CHANNEL) }],
    })
  ).body.channel;
  const token = async (userId: string) =>
    `Bearer ${(await h.api.post('/sandbox/tokens', { application_id: h.world.application.id, user_id: userId, scopes: MESSAGE_SCOPES })).body.access_token}`;
  const alice = await token(h.world.alice.id);
  const bob = await token(h.world.bob.id);
  const start = async (channelId: string, body: Record<string, unknown>, auth = alice) => {
    const reply = await h.api.post(`${api}/channels/${channelId}/threads`, body, auth);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body;
  };
  return { h, guild, general, hidden, alice, bob, start };
}

describe('thread events on the gateway (GUILDS intent, visibility of the parent, private threads)', () => {
  it('GUILD_CREATE lists the active threads the bot can view in `threads`, never among `channels`', async () => {
    const { h, general, hidden, start } = await setup();
    const open = await start(general.id, { name: 'Open', type: 11 });
    await start(general.id, { name: 'Private' });
    await start(hidden.id, { name: 'Staff talk', type: 11 });
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const created = await bot.waitForDispatch('GUILD_CREATE');
    expect(created.d.threads.map((t: any) => t.id)).toEqual([open.id]);
    expect(created.d.threads[0]).toMatchObject({ parent_id: general.id, thread_metadata: { archived: false } });
    expect(created.d.channels.map((c: any) => c.id)).not.toContain(open.id);
  });

  it('THREAD_CREATE (newly_created) reaches sessions with GUILDS that can view the parent; a private thread only once the bot is added, with its member', async () => {
    const { h, general, hidden, alice, start } = await setup();
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const noGuilds = await h.identify(h.world.botAuth, { intents: INTENTS.GUILD_MESSAGES });
    await start(hidden.id, { name: 'Staff talk', type: 11 });
    const priv = await start(general.id, { name: 'Private' });
    const open = await start(general.id, { name: 'Open', type: 11 });
    const created = await bot.waitForDispatch('THREAD_CREATE');
    expect(created.d).toMatchObject({ id: open.id, newly_created: true, type: 11 });
    const at = bot.received.length;
    expect(
      (await h.api.put(`${api}/channels/${priv.id}/thread-members/${h.world.bot.id}`, undefined, alice)).status,
    ).toBe(204);
    const added = await bot.waitForDispatch('THREAD_CREATE', at);
    expect(added.d).toMatchObject({ id: priv.id, member: { user_id: h.world.bot.id } });
    expect(added.d.newly_created).toBeUndefined();
    expect(bot.dispatches('THREAD_CREATE').map((p) => p.d.id)).toEqual([open.id, priv.id]);
    expect(noGuilds.dispatches('THREAD_CREATE')).toEqual([]);
  });

  it('THREAD_MEMBERS_UPDATE: without GUILD_MEMBERS only when the bot itself is added or removed; with it, every change', async () => {
    const { h, general, bob, start } = await setup();
    await h.updateApplication({ flags: String(APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED) });
    const plain = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const members = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MEMBERS });
    const open = await start(general.id, { name: 'Open', type: 11 });
    await h.api.put(`${api}/channels/${open.id}/thread-members/@me`, undefined, bob);
    await h.api.put(`${api}/channels/${open.id}/thread-members/@me`, undefined, h.world.botAuth);
    await members.waitFor((p) => p.t === 'THREAD_MEMBERS_UPDATE' && p.d.member_count === 3);
    await plain.waitForDispatch('THREAD_MEMBERS_UPDATE');
    const seen = (c: typeof plain) => c.dispatches('THREAD_MEMBERS_UPDATE').map((p) => p.d.added_members[0].user_id);
    expect(seen(members)).toEqual([h.world.alice.id, h.world.bob.id, h.world.bot.id]);
    expect(seen(plain)).toEqual([h.world.bot.id]);
    expect(members.dispatches('THREAD_MEMBERS_UPDATE')[1].d.added_members[0].member.user.id).toBe(h.world.bob.id);
  });

  it('messages of a private thread reach only its members (and MANAGE_THREADS); of a thread under a hidden parent, nobody who cannot view it', async () => {
    const { h, general, hidden, alice, bob, start } = await setup();
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES });
    const priv = await start(general.id, { name: 'Private' });
    const staff = await start(hidden.id, { name: 'Staff talk', type: 11 });
    await h.api.post(`${api}/channels/${priv.id}/messages`, { content: 'secret' }, alice);
    await h.api.post(`${api}/channels/${staff.id}/messages`, { content: 'staff' }, alice);
    await h.api.post(`${api}/channels/${general.id}/messages`, { content: 'general' }, bob);
    await bot.waitFor((p) => p.t === 'MESSAGE_CREATE' && p.d.channel_id === general.id);
    // The gateway decides when it dispatches: the bot joins once the first messages are out.
    await h.api.put(`${api}/channels/${priv.id}/thread-members/${h.world.bot.id}`, undefined, alice);
    await h.api.post(`${api}/channels/${priv.id}/messages`, { content: 'now you see' }, alice);
    await bot.waitFor((p) => p.t === 'MESSAGE_CREATE' && p.d.channel_id === priv.id);
    expect(bot.dispatches('MESSAGE_CREATE').map((p) => p.d.channel_id)).toEqual([general.id, priv.id]);
  });

  it('a bot that gains view of a channel it had hidden (obfuscation) gets THREAD_LIST_SYNC with the channel’s active threads after the CHANNEL_UPDATE', async () => {
    const { h, guild, hidden, alice, start } = await setup();
    const adminRole = (
      await h.api.post(`/sandbox/guilds/${guild.id}/roles`, {
        name: 'admins',
        permissions: String(PERMISSIONS.ADMINISTRATOR),
      })
    ).body.role;
    const admin = (await h.api.post('/sandbox/applications', { name: 'Admin' })).body;
    await h.api.put(`/sandbox/guilds/${guild.id}/members/${admin.bot.id}`, { roles: [adminRole.id] });
    const staff = await start(hidden.id, { name: 'Staff talk', type: 11 }, alice);
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS,
      capabilities: CAPABILITY_CHANNEL_OBFUSCATION,
    });
    expect((await bot.waitForDispatch('GUILD_CREATE')).d.threads).toEqual([]);
    const from = bot.received.length;
    const put = await h.api.put(
      `${api}/channels/${hidden.id}/permissions/${h.world.bot.id}`,
      { type: 1, allow: String(PERMISSIONS.VIEW_CHANNEL) },
      `Bot ${admin.bot_token}`,
    );
    expect(put.status).toBe(204);
    const sync = await bot.waitForDispatch('THREAD_LIST_SYNC', from);
    expect(sync.d).toMatchObject({
      guild_id: guild.id,
      channel_ids: [hidden.id],
      threads: [{ id: staff.id }],
      members: [],
    });
    expect(bot.received.slice(from).map((p) => p.t)).toEqual(['CHANNEL_UPDATE', 'THREAD_LIST_SYNC']);
  });
});
