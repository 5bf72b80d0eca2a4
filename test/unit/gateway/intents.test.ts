// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PRIVILEGED_INTENTS_APPROVAL_THRESHOLD } from '../../../src/platform/core/limits';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createGatewayHarness } from './gateway-harness';

describe('gateway intents and audience (CONTRACT §4)', () => {
  it('dispatches a guild event only to sessions that asked for its intent', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot();
    const withGuilds = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const without = await h.identify(h.world.botAuth, { intents: INTENTS.GUILD_MESSAGES });
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'news', type: 0 });
    await withGuilds.waitForDispatch('CHANNEL_CREATE');
    await h.flush();
    expect(without.dispatches('CHANNEL_CREATE')).toEqual([]);
  });

  it('dispatches a guild event only to users in the guild', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot();
    const other = await h.api.post('/sandbox/applications', { name: 'Other' });
    const outsider = await h.identify(`Bot ${other.body.bot_token}`, { intents: INTENTS.GUILDS });
    const insider = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'news', type: 0 });
    await insider.waitForDispatch('CHANNEL_CREATE');
    await h.flush();
    expect(outsider.dispatches('CHANNEL_CREATE')).toEqual([]);
  });

  it('lobby events reach every session of the lobby members whatever their intents, and no one else', async () => {
    const h = await createGatewayHarness();
    const alice = await h.identify(h.world.aliceAuth, { intents: 0 });
    const bob = await h.identify(h.world.bobAuth);
    const bot = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | INTENTS.DIRECT_MESSAGES,
    });
    const lobby = (await h.api.put('/api/v10/lobbies', { secret: 'abc' }, h.world.aliceAuth)).body;
    await h.api.put('/api/v10/lobbies', { secret: 'abc' }, h.world.bobAuth);
    await h.api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'hi' }, h.world.aliceAuth);
    const toAlice = await alice.waitForDispatch('LOBBY_MESSAGE_CREATE');
    const toBob = await bob.waitForDispatch('LOBBY_MESSAGE_CREATE');
    expect(toAlice.d.content).toBe('hi');
    expect(toBob.d.id).toBe(toAlice.d.id);
    expect(bot.dispatches().filter((p) => p.t?.startsWith('LOBBY_'))).toEqual([]);
  });

  it('an event for one application does not reach sessions of another application', async () => {
    const h = await createGatewayHarness();
    const other = (await h.api.post('/sandbox/applications', { name: 'Other' })).body;
    const token = (
      await h.api.post('/sandbox/tokens', {
        application_id: other.application.id,
        user_id: h.world.alice.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body;
    const aliceElsewhere = await h.identify(`Bearer ${token.access_token}`);
    const alice = await h.identify(h.world.aliceAuth);
    await h.api.put('/api/v10/lobbies', { secret: 'abc' }, h.world.aliceAuth);
    await alice.waitForDispatch('LOBBY_CREATE');
    await h.flush();
    expect(aliceElsewhere.dispatches('LOBBY_CREATE')).toEqual([]);
  });

  it("a GUILD_MEMBER_UPDATE about the session's own user needs no GUILD_MEMBERS intent; others' do", async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot({ bob: true });
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    await h.api.put(`/sandbox/guilds/${guild.id}/members/${h.world.bob.id}`, { nick: 'bobby' });
    await h.api.put(`/sandbox/guilds/${guild.id}/members/${h.world.bot.id}`, { nick: 'botty' });
    const update = await bot.waitForDispatch('GUILD_MEMBER_UPDATE');
    expect(update.d.user.id).toBe(h.world.bot.id);
    expect(bot.dispatches('GUILD_MEMBER_UPDATE')).toHaveLength(1);
  });

  it('an OAuth2 session gets guild events only with the guilds scope', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot({ bob: true });
    const noGuilds = (
      await h.api.post('/sandbox/tokens', {
        application_id: h.world.application.id,
        user_id: h.world.bob.id,
        scopes: 'identify',
      })
    ).body;
    const bobNarrow = await h.identify(`Bearer ${noGuilds.access_token}`, { intents: INTENTS.GUILDS });
    const bobWide = await h.identify(h.world.bobAuth, { intents: INTENTS.GUILDS });
    expect(bobNarrow.ready.guilds).toEqual([]);
    expect(bobWide.ready.guilds).toEqual([{ id: guild.id, unavailable: true }]);
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, { name: 'news', type: 0 });
    await bobWide.waitForDispatch('CHANNEL_CREATE');
    expect(bobNarrow.dispatches('CHANNEL_CREATE')).toEqual([]);
  });

  it('a shard gets only the guilds (guild_id >> 22) % num_shards = shard_id', async () => {
    const h = await createGatewayHarness();
    const { guild } = await h.guildWithBot();
    const shardOf = Number((BigInt(guild.id) >> 22n) % 2n);
    const mine = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS, shard: [shardOf, 2] });
    const theirs = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS, shard: [1 - shardOf, 2] });
    expect(mine.ready.guilds).toHaveLength(1);
    expect(theirs.ready.guilds).toHaveLength(0);
  });
});

describe('privileged intents (spec, Limits: toggle below 10,000 accessible users, approval from 10,000)', () => {
  async function withAccessibleUsers(installs: number) {
    const h = await createGatewayHarness();
    await h.updateApplication({
      approximate_user_install_count: installs,
      flags: String(APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED),
    });
    return h;
  }

  it('below 10,000 accessible users the toggle (GATEWAY_GUILD_MEMBERS_LIMITED) grants GUILD_MEMBERS', async () => {
    const h = await withAccessibleUsers(PRIVILEGED_INTENTS_APPROVAL_THRESHOLD - 1);
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILD_MEMBERS });
    expect(bot.closed).toBeNull();
  });

  it('from 10,000 accessible users the toggle is not enough: 4014', async () => {
    const h = await withAccessibleUsers(PRIVILEGED_INTENTS_APPROVAL_THRESHOLD);
    const client = h.connect();
    client.send({ op: 2, d: { token: h.world.botAuth, intents: INTENTS.GUILD_MEMBERS, properties: {} } });
    expect((await client.waitForClose()).code).toBe(4014);
  });

  it("from 10,000 accessible users the platform's grant (GATEWAY_GUILD_MEMBERS) grants it", async () => {
    const h = await withAccessibleUsers(PRIVILEGED_INTENTS_APPROVAL_THRESHOLD);
    await h.updateApplication({ flags: String(APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS) });
    expect((await h.identify(h.world.botAuth, { intents: INTENTS.GUILD_MEMBERS })).closed).toBeNull();
  });

  it('from 10,000 accessible users an approval lets the toggled intents count, and only those', async () => {
    const h = await withAccessibleUsers(PRIVILEGED_INTENTS_APPROVAL_THRESHOLD);
    await h.updateApplication({
      approvals: { identify_premium: false, sdk_terms_accepted: false, privileged_intents_approved: true },
    });
    expect((await h.identify(h.world.botAuth, { intents: INTENTS.GUILD_MEMBERS })).closed).toBeNull();
    // MESSAGE_CONTENT's toggle is off: the approval does not turn it on.
    const client = h.connect();
    client.send({
      op: 2,
      d: { token: h.world.botAuth, intents: INTENTS.GUILD_MEMBERS | INTENTS.MESSAGE_CONTENT, properties: {} },
    });
    expect((await client.waitForClose()).code).toBe(4014);
  });

  it('an approval turns on no intent whose toggle is off, below 10,000 users either', async () => {
    const h = await createGatewayHarness();
    await h.updateApplication({
      flags: '0',
      approvals: { identify_premium: false, sdk_terms_accepted: false, privileged_intents_approved: true },
    });
    const client = h.connect();
    client.send({ op: 2, d: { token: h.world.botAuth, intents: INTENTS.GUILD_PRESENCES, properties: {} } });
    expect((await client.waitForClose()).code).toBe(4014);
  });

  it("counts the members of the bot's guilds as accessible users", async () => {
    const h = await createGatewayHarness();
    await h.guildWithBot({ bob: true });
    await h.updateApplication({
      approximate_user_install_count: PRIVILEGED_INTENTS_APPROVAL_THRESHOLD - 2,
      flags: String(APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED),
    });
    // alice and bob share the guild with the bot: 9,998 + 2 reaches the threshold.
    const client = h.connect();
    client.send({ op: 2, d: { token: h.world.botAuth, intents: INTENTS.MESSAGE_CONTENT, properties: {} } });
    expect((await client.waitForClose()).code).toBe(4014);
  });
});
