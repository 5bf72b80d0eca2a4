// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { createGatewayHarness, type GatewayHarness } from './gateway-harness';

const SCOPES = 'identify guilds messages.read messages.write sdk.social_layer';
const TYPING = INTENTS.GUILDS | INTENTS.GUILD_MESSAGE_TYPING;

/** A token of `userId` for the harness's application with the message scopes. */
async function tokenFor(h: GatewayHarness, userId: string): Promise<string> {
  const token = (
    await h.api.post('/sandbox/tokens', { application_id: h.world.application.id, user_id: userId, scopes: SCOPES })
  ).body;
  return `Bearer ${token.access_token}`;
}

/** Alice's guild with bob and chen in it, a private channel only alice sees, and each user's token. */
async function setup() {
  const h = await createGatewayHarness();
  const chen = (await h.api.post('/sandbox/users', { username: 'chen' })).body.user;
  const { guild, channels } = await h.guildWithBot({ bob: true });
  await h.api.put(`/sandbox/guilds/${guild.id}/members/${chen.id}`, {});
  const general = channels.find((c: { type: number }) => c.type === 0);
  const hidden = (
    await h.api.post(`/sandbox/guilds/${guild.id}/channels`, {
      name: 'hidden',
      type: 0,
      permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: String(PERMISSIONS.VIEW_CHANNEL) }],
    })
  ).body.channel;
  const auth = {
    alice: await tokenFor(h, h.world.alice.id),
    bob: await tokenFor(h, h.world.bob.id),
    chen: await tokenFor(h, chen.id),
  };
  return { h, guild, general, hidden, chen, auth };
}

describe('Trigger Typing Indicator (POST /channels/{channel.id}/typing, the public API; spec: not shown)', () => {
  it('answers 204 and sends TYPING_START {channel_id, guild_id, user_id, timestamp in seconds, member} to sessions with GUILD_MESSAGE_TYPING', async () => {
    const { h, guild, general, auth } = await setup();
    await h.api.put('/sandbox/clock', { now: '2026-05-01T10:00:00.000Z' });
    const bob = await h.identify(auth.bob, { intents: TYPING });
    const res = await h.api.post(`/api/v10/channels/${general.id}/typing`, undefined, auth.alice);
    expect(res.status).toBe(204);
    const typing = await bob.waitForDispatch('TYPING_START');
    expect(typing.d).toMatchObject({
      channel_id: general.id,
      guild_id: guild.id,
      user_id: h.world.alice.id,
      timestamp: Date.parse('2026-05-01T10:00:00.000Z') / 1000,
      member: { user: { id: h.world.alice.id }, roles: [] },
    });
  });

  it('reaches only sessions that asked for GUILD_MESSAGE_TYPING and can view the channel', async () => {
    const { h, general, hidden, auth } = await setup();
    const noIntent = await h.identify(auth.bob, { intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES });
    const chen = await h.identify(auth.chen, { intents: TYPING });
    // Alice owns the guild, so she may write in the channel @everyone cannot view.
    await h.api.post(`/api/v10/channels/${hidden.id}/typing`, undefined, auth.alice);
    await h.api.post(`/api/v10/channels/${general.id}/typing`, undefined, auth.alice);
    await chen.waitFor((p) => p.t === 'TYPING_START');
    await h.flush();
    expect(chen.dispatches('TYPING_START').map((p) => p.d.channel_id)).toEqual([general.id]);
    expect(noIntent.dispatches('TYPING_START')).toEqual([]);
  });

  it('needs VIEW_CHANNEL and SEND_MESSAGES (403) and the messages.write scope; an unknown channel is 404 10003; a refusal logs nothing', async () => {
    const { h, hidden, general, auth } = await setup();
    const before = (await h.api.db.getAll('events')).length;
    expect((await h.api.post(`/api/v10/channels/${hidden.id}/typing`, undefined, auth.bob)).body.code).toBe(50001);
    expect((await h.api.post('/api/v10/channels/1/typing', undefined, auth.bob)).body.code).toBe(10003);
    const narrow = (
      await h.api.post('/sandbox/tokens', {
        application_id: h.world.application.id,
        user_id: h.world.bob.id,
        scopes: 'identify guilds',
      })
    ).body.access_token;
    expect((await h.api.post(`/api/v10/channels/${general.id}/typing`, undefined, `Bearer ${narrow}`)).status).toBe(
      403,
    );
    expect((await h.api.db.getAll('events')).length).toBe(before);
  });

  it('in a DM channel it reaches the other user only, and a user who is not one of the two gets 404 10003', async () => {
    const { h, auth } = await setup();
    await h.api.put(`/sandbox/users/${h.world.alice.id}/relationships/${h.world.bob.id}`, { type: 1 });
    await h.api.put(`/sandbox/users/${h.world.bob.id}/relationships/${h.world.alice.id}`, { type: 1 });
    const sent = await h.api.post(`/api/v10/users/@me/dms/${h.world.bob.id}/messages`, { content: 'hi' }, auth.alice);
    const dmChannel = sent.body.channel_id as string;
    const bob = await h.identify(auth.bob, { intents: 0 });
    const alice = await h.identify(auth.alice, { intents: 0 });
    expect((await h.api.post(`/api/v10/channels/${dmChannel}/typing`, undefined, auth.alice)).status).toBe(204);
    const typing = await bob.waitForDispatch('TYPING_START');
    expect(typing.d).toEqual({ channel_id: dmChannel, user_id: h.world.alice.id, timestamp: expect.any(Number) });
    await h.flush();
    expect(alice.dispatches('TYPING_START')).toEqual([]);
    expect((await h.api.post(`/api/v10/channels/${dmChannel}/typing`, undefined, auth.chen)).body.code).toBe(10003);
  });
  it('takes the scope of the channel at hand: messages.write in a guild channel, dm_channels.messages.write in a DM (403 50001 naming it otherwise)', async () => {
    const { h, general, auth } = await setup();
    await h.api.put(`/sandbox/users/${h.world.alice.id}/relationships/${h.world.bob.id}`, { type: 1 });
    await h.api.put(`/sandbox/users/${h.world.bob.id}/relationships/${h.world.alice.id}`, { type: 1 });
    const dmChannel = (
      await h.api.post(`/api/v10/users/@me/dms/${h.world.bob.id}/messages`, { content: 'hi' }, auth.alice)
    ).body.channel_id as string;
    const tokenWith = async (scopes: string) =>
      `Bearer ${
        (
          await h.api.post('/sandbox/tokens', {
            application_id: h.world.application.id,
            user_id: h.world.alice.id,
            scopes: `identify ${scopes}`,
          })
        ).body.access_token
      }`;
    const dmOnly = await tokenWith('dm_channels.messages.write');
    const guildOnly = await tokenWith('messages.write');
    expect((await h.api.post(`/api/v10/channels/${dmChannel}/typing`, undefined, dmOnly)).status).toBe(204);
    expect((await h.api.post(`/api/v10/channels/${general.id}/typing`, undefined, guildOnly)).status).toBe(204);
    const wrongInGuild = await h.api.post(`/api/v10/channels/${general.id}/typing`, undefined, dmOnly);
    expect([wrongInGuild.status, wrongInGuild.body.code, wrongInGuild.body.message]).toEqual([
      403,
      50001,
      'Missing OAuth2 scope: messages.write',
    ]);
    const wrongInDm = await h.api.post(`/api/v10/channels/${dmChannel}/typing`, undefined, guildOnly);
    expect([wrongInDm.status, wrongInDm.body.code, wrongInDm.body.message]).toEqual([
      403,
      50001,
      'Missing OAuth2 scope: dm_channels.messages.write',
    ]);
  });
});
