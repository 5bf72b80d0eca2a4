// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createGatewayHarness, type FakeClient, type GatewayHarness } from './gateway-harness';

const PRIVILEGED = String(APPLICATION_FLAGS.GATEWAY_PRESENCE_LIMITED | APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED);
const online = (id: string) => ({ user: { id }, status: 'online', activities: [], client_status: { web: 'online' } });

/** Alice's guild with the bot and bob (offline), alice online; the bot may ask for the privileged intents. */
async function setup() {
  const h = await createGatewayHarness();
  await h.updateApplication({ flags: PRIVILEGED });
  const { guild } = await h.guildWithBot({ bob: true });
  await h.identify(h.world.aliceAuth);
  return { h, guild, alice: h.world.alice.id as string, bob: h.world.bob.id as string, bot: h.world.bot.id as string };
}

/** A user of the harness with a token of the world's application. */
async function user(h: GatewayHarness, username: string, scopes = 'openid sdk.social_layer') {
  const created = (await h.api.post('/sandbox/users', { username })).body.user;
  const token = (
    await h.api.post('/sandbox/tokens', { application_id: h.world.application.id, user_id: created.id, scopes })
  ).body;
  return { id: created.id as string, auth: `Bearer ${token.access_token}` };
}

/** The PRESENCE_UPDATEs about `userId` the client was sent. */
const about = (client: FakeClient, userId: string) =>
  client.dispatches('PRESENCE_UPDATE').filter((p) => p.d.user.id === userId);

describe('presences in GUILD_CREATE and Guild Members Chunk', () => {
  it('GUILD_CREATE carries the presences of online members (and those members) for a session with GUILD_PRESENCES', async () => {
    const { h, alice, bot } = await setup();
    const session = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_PRESENCES });
    const created = (await session.waitForDispatch('GUILD_CREATE')).d;
    expect(created.presences).toHaveLength(2);
    expect(created.presences).toEqual(expect.arrayContaining([online(alice), online(bot)]));
    // Without GUILD_MEMBERS the list holds the session's own member and the online ones.
    expect(created.members.map((m: any) => m.user.id).sort()).toEqual([alice, bot].sort());
  });

  it("GUILD_CREATE lists only members' presences also when more users are online than the guild has members", async () => {
    const { h, guild, alice, bot } = await setup();
    const small = (await h.api.post('/sandbox/guilds', { name: 'Small', owner_id: alice })).body.guild;
    await h.api.put(`/sandbox/guilds/${small.id}/members/${bot}`, {});
    // Five users online (dan, eve, fay among them, members of neither guild): more than either guild has members.
    for (const name of ['dan', 'eve', 'fay']) await h.identify((await user(h, name)).auth);
    const session = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_PRESENCES });
    await session.waitFor((p) => p.t === 'GUILD_CREATE' && p.d.id === small.id);
    const byGuild = new Map(
      session.dispatches('GUILD_CREATE').map((p) => [p.d.id, p.d.presences.map((x: any) => x.user.id).sort()]),
    );
    expect(byGuild.get(small.id)).toEqual([alice, bot].sort());
    expect(byGuild.get(guild.id)).toEqual([alice, bot].sort());
  });

  it('GUILD_CREATE carries no presences without GUILD_PRESENCES', async () => {
    const { h } = await setup();
    const session = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MEMBERS });
    const created = (await session.waitForDispatch('GUILD_CREATE')).d;
    expect(created.presences).toEqual([]);
    expect(created.members).toHaveLength(3);
  });

  it("Request Guild Members with presences: true answers the online members' presences in each chunk", async () => {
    const { h, guild, alice, bot } = await setup();
    const session = await h.identify(h.world.botAuth, {
      intents: INTENTS.GUILDS | INTENTS.GUILD_MEMBERS | INTENTS.GUILD_PRESENCES,
    });
    const from = session.received.length;
    session.send({ op: 8, d: { guild_id: guild.id, query: '', limit: 0, presences: true } });
    session.send({ op: 8, d: { guild_id: guild.id, user_ids: [h.world.bob.id], presences: true } });
    await session.waitFor(() => session.dispatches('GUILD_MEMBERS_CHUNK').length === 2, from);
    const [all, bobOnly] = session.dispatches('GUILD_MEMBERS_CHUNK');
    expect(all.d.members).toHaveLength(3);
    expect(all.d.presences).toEqual(expect.arrayContaining([online(alice), online(bot)]));
    expect(all.d.presences).toHaveLength(2);
    expect(bobOnly.d.presences).toEqual([]);
  });

  it("without GUILD_PRESENCES, presences: true is taken as false (the platform's rule): the chunks carry no presences", async () => {
    const { h, guild } = await setup();
    const session = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MEMBERS });
    session.send({ op: 8, d: { guild_id: guild.id, query: '', limit: 0, presences: true } });
    const chunk = await session.waitForDispatch('GUILD_MEMBERS_CHUNK');
    expect(chunk.d.members).toHaveLength(3);
    expect(chunk.d).not.toHaveProperty('presences');
    expect(session.closed).toBeNull();
  });
});

describe('presences in READY', () => {
  it("a user's READY lists their online friends' presences; a bot's READY has none", async () => {
    const { h, alice, bob } = await setup();
    const chen = await user(h, 'chen');
    await h.api.put(`/sandbox/users/${bob}/relationships/${alice}`, { type: 1 });
    await h.api.put(`/sandbox/users/${bob}/relationships/${chen.id}`, { type: 1 });
    const session = await h.identify(h.world.bobAuth);
    // Alice is online, chen has no session: only alice is listed.
    expect(session.ready.presences).toEqual([online(alice)]);
    const bot = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    expect(bot.ready).not.toHaveProperty('presences');
  });
});

describe('PRESENCE_UPDATE audience', () => {
  it('per guild only to sessions in the guild that asked for GUILD_PRESENCES', async () => {
    const { h, guild, bob } = await setup();
    const watching = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_PRESENCES });
    const notWatching = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS });
    const other = (
      await h.api.post('/sandbox/applications', {
        name: 'Elsewhere',
        flags: APPLICATION_FLAGS.GATEWAY_PRESENCE_LIMITED,
      })
    ).body;
    const outsider = await h.identify(`Bot ${other.bot_token}`, { intents: INTENTS.GUILDS | INTENTS.GUILD_PRESENCES });
    await h.identify(h.world.bobAuth);
    const update = await watching.waitFor((p) => p.t === 'PRESENCE_UPDATE' && p.d.user.id === bob);
    expect(update.d.guild_id).toBe(guild.id);
    await h.flush();
    expect(about(notWatching, bob)).toEqual([]);
    expect(about(outsider, bob)).toEqual([]);
    // A bot hears of guild presences only, never the user copy meant for friends.
    expect(about(watching, bob).filter((p) => p.d.guild_id === undefined)).toEqual([]);
  });

  it("without guild_id to the user's own sessions, their friends and their lobby co-members, whatever their intents; not to others", async () => {
    const { h, alice, bob } = await setup();
    const chen = await user(h, 'chen');
    const dana = await user(h, 'dana');
    await h.api.put(`/sandbox/users/${bob}/relationships/${alice}`, { type: 1 });
    await h.api.put('/api/v10/lobbies', { secret: 'table' }, h.world.bobAuth);
    await h.api.put('/api/v10/lobbies', { secret: 'table' }, chen.auth);
    const aliceSession = await h.identify(h.world.aliceAuth, { intents: 0 });
    const chenSession = await h.identify(chen.auth, { intents: 0 });
    const danaSession = await h.identify(dana.auth, { intents: 0 });
    const bobSession = await h.identify(h.world.bobAuth, { intents: 0 });
    for (const session of [aliceSession, chenSession]) {
      const update = await session.waitFor((p) => p.t === 'PRESENCE_UPDATE' && p.d.user.id === bob);
      expect(update.d).toEqual(online(bob));
    }
    // The session that identifies sees itself in what it read; the user's other sessions hear of changes.
    const bobElsewhere = await h.identify(h.world.bobAuth, { intents: 0 });
    bobElsewhere.send({ op: 3, d: { since: null, activities: [], status: 'dnd', afk: false } });
    expect((await bobSession.waitFor((p) => p.t === 'PRESENCE_UPDATE' && p.d.user.id === bob)).d.status).toBe('dnd');
    await h.flush();
    expect(about(danaSession, bob)).toEqual([]);
  });
});
