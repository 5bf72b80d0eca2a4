// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { REACTIONS_PER_MESSAGE_MAX } from '../../../src/platform/core/limits';
import { createGatewayHarness } from '../gateway/gateway-harness';
import { API, socialWorld } from './social-fixtures';
import {
  deny,
  eventsOf,
  expectError,
  expectInvalidField,
  MESSAGE_SCOPES,
  messageWorld,
  type MessageWorld,
} from './messages-fixtures';

const THUMBS = encodeURIComponent('👍');
const HEART = encodeURIComponent('❤️');
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A message alice sent in `channelId` (general unless named), and the paths of its reactions. */
async function reacted(w: MessageWorld, channelId: string = w.general.id) {
  const message = (await w.client.post(w.messages(channelId), { content: 'react to me' }, w.aliceAuth)).body;
  const base = `${w.messages(channelId)}/${message.id}/reactions`;
  return {
    message,
    base,
    mine: (emoji: string) => `${base}/${emoji}/@me`,
    get: () => w.client.get(`${w.messages(channelId)}/${message.id}`, w.aliceAuth),
  };
}

/** How many reaction records the store holds. */
const storedReactions = (w: MessageWorld) => w.client.db.count('message_reactions');

describe('reactions: PUT/DELETE .../reactions/{emoji}/@me, GET .../reactions/{emoji}, the message object’s reactions', () => {
  it('reacting adds to the message’s reactions (count, count_details, me, me_burst, burst_colors, emoji) in first-added order; me is the reader’s own', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    expect((await w.client.put(m.mine(THUMBS), undefined, w.botAuth)).status).toBe(204);
    expect((await w.client.put(m.mine(HEART), undefined, w.aliceAuth)).status).toBe(204);
    expect((await w.client.put(m.mine(THUMBS), undefined, w.aliceAuth)).status).toBe(204);
    const seen = (await m.get()).body.reactions;
    expect(seen).toEqual([
      {
        emoji: { id: null, name: '👍' },
        count: 2,
        count_details: { burst: 0, normal: 2 },
        burst_colors: [],
        me: true,
        me_burst: false,
      },
      {
        emoji: { id: null, name: '❤️' },
        count: 1,
        count_details: { burst: 0, normal: 1 },
        burst_colors: [],
        me: true,
        me_burst: false,
      },
    ]);
    const asBot = (await w.client.get(`${w.messages()}/${m.message.id}`, w.botAuth)).body.reactions;
    expect(asBot.map((r: any) => [r.emoji.name, r.me])).toEqual([
      ['👍', true],
      ['❤️', false],
    ]);
    const history = (await w.client.get(w.messages(), w.aliceAuth)).body;
    expect(history[0].reactions).toHaveLength(2);
  });

  it('a message nobody reacted to has no reactions field; reacting twice changes nothing and logs one MESSAGE_REACTION_ADD', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    expect((await m.get()).body).not.toHaveProperty('reactions');
    await w.client.put(m.mine(THUMBS), undefined, w.botAuth);
    await w.client.put(m.mine(THUMBS), undefined, w.botAuth);
    expect((await m.get()).body.reactions[0].count).toBe(1);
    expect(await eventsOf(w.client, 'MESSAGE_REACTION_ADD')).toHaveLength(1);
    expect(await storedReactions(w)).toBe(1);
  });

  it('removing one’s own reaction lowers the count; the last one removes the emoji; removing what is not there changes nothing', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    await w.client.put(m.mine(THUMBS), undefined, w.botAuth);
    await w.client.put(m.mine(THUMBS), undefined, w.aliceAuth);
    expect((await w.client.delete(m.mine(THUMBS), w.botAuth)).status).toBe(204);
    expect((await m.get()).body.reactions).toMatchObject([{ count: 1, me: true }]);
    expect((await w.client.delete(m.mine(THUMBS), w.aliceAuth)).status).toBe(204);
    expect((await m.get()).body).not.toHaveProperty('reactions');
    expect((await w.client.delete(m.mine(THUMBS), w.aliceAuth)).status).toBe(204);
    expect(await eventsOf(w.client, 'MESSAGE_REACTION_REMOVE')).toHaveLength(2);
    expect(await storedReactions(w)).toBe(0);
  });

  it('GET .../reactions/{emoji} lists the users in user id order, after a user id, 1 to 100 (25 unless asked); type=1 (burst) lists none', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    for (const auth of [w.bobAuth, w.aliceAuth, w.botAuth]) await w.client.put(m.mine(THUMBS), undefined, auth);
    const ids = [w.alice.id, w.bob.id, w.bot.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const all = await w.client.get(`${m.base}/${THUMBS}`, w.botAuth);
    expect(all.status).toBe(200);
    expect(all.body.map((u: any) => u.id)).toEqual(ids);
    expect(all.body[0]).toHaveProperty('username');
    const page = (await w.client.get(`${m.base}/${THUMBS}?after=${ids[0]}&limit=1`, w.botAuth)).body;
    expect(page.map((u: any) => u.id)).toEqual([ids[1]]);
    expect((await w.client.get(`${m.base}/${THUMBS}?type=1`, w.botAuth)).body).toEqual([]);
    expect((await w.client.get(`${m.base}/${HEART}`, w.botAuth)).body).toEqual([]);
    expectInvalidField(await w.client.get(`${m.base}/${THUMBS}?limit=101`, w.botAuth), 'limit');
    expectInvalidField(await w.client.get(`${m.base}/${THUMBS}?type=2`, w.botAuth), 'type');
  });

  it('an unknown emoji is 404 10014: text that is no emoji, an unknown custom id, a custom emoji of a guild the caller is not in', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    expectError(await w.client.put(m.mine('notanemoji'), undefined, w.botAuth), 404, 10014);
    expectError(await w.client.put(m.mine(encodeURIComponent('x:123')), undefined, w.botAuth), 404, 10014);
    const other = (await w.client.post('/sandbox/guilds', { name: 'Other', owner_id: w.bob.id })).body.guild;
    await w.client.db.put('emojis', {
      id: '4242',
      guild_id: other.id,
      name: 'theirs',
      roles: [],
      user_id: w.bob.id,
      animated: false,
      created_at: 0,
    });
    expectError(await w.client.put(m.mine(encodeURIComponent('theirs:4242')), undefined, w.botAuth), 404, 10014);
    expect((await w.client.put(m.mine(encodeURIComponent('theirs:4242')), undefined, w.bobAuth)).status).toBe(204);
    expect(await storedReactions(w)).toBe(1);
  });

  it('a custom emoji is name:id (URL-encoded): the application’s own emoji, answered with its id, name and animated', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    const emoji = (
      await w.client.post(`/api/v10/applications/${w.application.id}/emojis`, { name: 'gg', image: PNG }, w.botAuth)
    ).body;
    const path = m.mine(encodeURIComponent(`gg:${emoji.id}`));
    expect((await w.client.put(path, undefined, w.botAuth)).status).toBe(204);
    expect((await m.get()).body.reactions[0].emoji).toEqual({ id: emoji.id, name: 'gg', animated: false });
    const users = await w.client.get(`${m.base}/${encodeURIComponent(`gg:${emoji.id}`)}`, w.botAuth);
    expect(users.body.map((u: any) => u.id)).toEqual([w.bot.id]);
    expect((await w.client.delete(path, w.botAuth)).status).toBe(204);
    expect(await storedReactions(w)).toBe(0);
  });

  it(`a message holds at most ${REACTIONS_PER_MESSAGE_MAX} distinct emoji: a new one is 400 30010, joining an existing one still works`, async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    const emoji = [...'😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙😚🙂🤗🤩'];
    for (const e of emoji.slice(0, REACTIONS_PER_MESSAGE_MAX))
      expect((await w.client.put(m.mine(encodeURIComponent(e)), undefined, w.botAuth)).status).toBe(204);
    expectError(
      await w.client.put(m.mine(encodeURIComponent(emoji[REACTIONS_PER_MESSAGE_MAX])), undefined, w.aliceAuth),
      400,
      30010,
    );
    expect((await w.client.put(m.mine(encodeURIComponent(emoji[0])), undefined, w.aliceAuth)).status).toBe(204);
    expect((await m.get()).body.reactions).toHaveLength(REACTIONS_PER_MESSAGE_MAX);
    expect(await storedReactions(w)).toBe(REACTIONS_PER_MESSAGE_MAX + 1);
  });

  it('ADD_REACTIONS is needed only for a new emoji, not to join an existing reaction (403 50013 and nothing stored)', async () => {
    const w = await messageWorld();
    const channel = await w.channel({ permission_overwrites: [deny(w.bob.id, PERMISSIONS.ADD_REACTIONS, 1)] });
    const m = await reacted(w, channel.id);
    expectError(await w.client.put(m.mine(THUMBS), undefined, w.bobAuth), 403, 50013);
    expect(await storedReactions(w)).toBe(0);
    expect(await eventsOf(w.client, 'MESSAGE_REACTION_ADD')).toEqual([]);
    await w.client.put(m.mine(THUMBS), undefined, w.aliceAuth);
    expect((await w.client.put(m.mine(THUMBS), undefined, w.bobAuth)).status).toBe(204);
    expect((await m.get()).body.reactions[0].count).toBe(2);
  });

  it('READ_MESSAGE_HISTORY is needed to react and to list reactions; VIEW_CHANNEL to reach the channel (403 50001)', async () => {
    const w = await messageWorld();
    const channel = await w.channel({ permission_overwrites: [deny(w.bob.id, PERMISSIONS.READ_MESSAGE_HISTORY, 1)] });
    const m = await reacted(w, channel.id);
    expectError(await w.client.put(m.mine(THUMBS), undefined, w.bobAuth), 403, 50013);
    await w.client.put(m.mine(THUMBS), undefined, w.aliceAuth);
    expectError(await w.client.get(`${m.base}/${THUMBS}`, w.bobAuth), 403, 50013);
    const hidden = await w.channel({ permission_overwrites: [deny(w.bob.id, PERMISSIONS.VIEW_CHANNEL, 1)] });
    const h = await reacted(w, hidden.id);
    expectError(await w.client.put(h.mine(THUMBS), undefined, w.bobAuth), 403, 50001);
    expectError(
      await w.client.put(`${m.base.replace(m.message.id, '123')}/${THUMBS}/@me`, undefined, w.aliceAuth),
      404,
      10008,
    );
  });

  it('removing another user’s reaction, one emoji’s or all needs MANAGE_MESSAGES (403 50013, nothing changed)', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    await w.client.put(m.mine(THUMBS), undefined, w.aliceAuth);
    await w.client.put(m.mine(HEART), undefined, w.aliceAuth);
    expectError(await w.client.delete(`${m.base}/${THUMBS}/${w.alice.id}`, w.bobAuth), 403, 50013);
    expectError(await w.client.delete(`${m.base}/${THUMBS}`, w.bobAuth), 403, 50013);
    expectError(await w.client.delete(m.base, w.bobAuth), 403, 50013);
    expect(await storedReactions(w)).toBe(2);
    await w.grant(w.bob.id, PERMISSIONS.MANAGE_MESSAGES);
    expect((await w.client.delete(`${m.base}/${THUMBS}/${w.alice.id}`, w.bobAuth)).status).toBe(204);
    expect((await m.get()).body.reactions.map((r: any) => r.emoji.name)).toEqual(['❤️']);
    const [removed] = await eventsOf(w.client, 'MESSAGE_REACTION_REMOVE');
    expect(removed.data).toEqual({
      user_id: w.alice.id,
      channel_id: w.general.id,
      message_id: m.message.id,
      guild_id: w.guild.id,
      emoji: { id: null, name: '👍' },
      burst: false,
      type: 0,
    });
  });

  it('DELETE .../reactions/{emoji} removes one emoji (MESSAGE_REACTION_REMOVE_EMOJI); DELETE .../reactions removes all (MESSAGE_REACTION_REMOVE_ALL)', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    for (const auth of [w.aliceAuth, w.bobAuth]) await w.client.put(m.mine(THUMBS), undefined, auth);
    await w.client.put(m.mine(HEART), undefined, w.aliceAuth);
    expect((await w.client.delete(`${m.base}/${THUMBS}`, w.aliceAuth)).status).toBe(204);
    expect((await m.get()).body.reactions.map((r: any) => r.emoji.name)).toEqual(['❤️']);
    expect(await storedReactions(w)).toBe(1);
    const [emojiEvent] = await eventsOf(w.client, 'MESSAGE_REACTION_REMOVE_EMOJI');
    expect(emojiEvent.data).toEqual({
      channel_id: w.general.id,
      message_id: m.message.id,
      guild_id: w.guild.id,
      emoji: { id: null, name: '👍' },
    });
    expect((await w.client.delete(m.base, w.aliceAuth)).status).toBe(204);
    expect((await m.get()).body).not.toHaveProperty('reactions');
    expect(await storedReactions(w)).toBe(0);
    const [all] = await eventsOf(w.client, 'MESSAGE_REACTION_REMOVE_ALL');
    expect(all.data).toEqual({ channel_id: w.general.id, message_id: m.message.id, guild_id: w.guild.id });
    expect(all.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MESSAGE_REACTIONS });
  });

  it('MESSAGE_REACTION_ADD carries user_id, channel_id, message_id, guild_id, member, emoji, message_author_id, burst, burst_colors, type (GUILD_MESSAGE_REACTIONS)', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    await w.client.put(m.mine(THUMBS), undefined, w.bobAuth);
    const [added] = await eventsOf(w.client, 'MESSAGE_REACTION_ADD');
    expect(added.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MESSAGE_REACTIONS });
    expect(added.data).toMatchObject({
      user_id: w.bob.id,
      channel_id: w.general.id,
      message_id: m.message.id,
      guild_id: w.guild.id,
      member: { user: { id: w.bob.id }, roles: [] },
      emoji: { id: null, name: '👍' },
      message_author_id: w.alice.id,
      burst: false,
      burst_colors: [],
      type: 0,
    });
  });

  it('deleting a message deletes its reactions', async () => {
    const w = await messageWorld();
    const m = await reacted(w);
    await w.client.put(m.mine(THUMBS), undefined, w.bobAuth);
    expect((await w.client.delete(`${w.messages()}/${m.message.id}`, w.aliceAuth)).status).toBe(204);
    expect(await storedReactions(w)).toBe(0);
  });
});

describe('reactions in DM channels (DIRECT_MESSAGE_REACTIONS)', () => {
  /** The bot's DM channel with alice, and a message the bot sent there. */
  async function dm(w: MessageWorld) {
    const channel = (await w.client.post('/api/v10/users/@me/channels', { recipient_id: w.alice.id }, w.botAuth)).body;
    const message = (await w.client.post(w.messages(channel.id), { content: 'hello' }, w.botAuth)).body;
    return { channel, message, base: `${w.messages(channel.id)}/${message.id}/reactions` };
  }

  it('either user reacts; the events go to both users, bots with DIRECT_MESSAGE_REACTIONS, without guild_id or member', async () => {
    const w = await messageWorld();
    const d = await dm(w);
    expect((await w.client.put(`${d.base}/${THUMBS}/@me`, undefined, w.botAuth)).status).toBe(204);
    const [added] = await eventsOf(w.client, 'MESSAGE_REACTION_ADD');
    expect(added.audience).toEqual({
      user_ids: expect.arrayContaining([w.bot.id, w.alice.id]),
      bot_intent: INTENTS.DIRECT_MESSAGE_REACTIONS,
    });
    expect(added.data).not.toHaveProperty('guild_id');
    expect(added.data).not.toHaveProperty('member');
    expect(added.data).toMatchObject({ channel_id: d.channel.id, message_author_id: w.bot.id });
    const users = await w.client.get(`${d.base}/${THUMBS}`, w.botAuth);
    expect(users.body.map((u: any) => u.id)).toEqual([w.bot.id]);
    expect((await w.client.delete(`${d.base}/${THUMBS}/@me`, w.botAuth)).status).toBe(204);
    expect(await storedReactions(w)).toBe(0);
  });

  it('in a DM channel nobody removes another’s reactions: 403 50003; an outsider is 404 10003', async () => {
    const w = await messageWorld();
    const d = await dm(w);
    await w.client.put(`${d.base}/${THUMBS}/@me`, undefined, w.botAuth);
    expectError(await w.client.delete(`${d.base}/${THUMBS}/${w.alice.id}`, w.botAuth), 403, 50003);
    expectError(await w.client.delete(d.base, w.botAuth), 403, 50003);
    expectError(await w.client.delete(`${d.base}/${THUMBS}`, w.botAuth), 403, 50003);
    expectError(await w.client.put(`${d.base}/${THUMBS}/@me`, undefined, w.readerAuth), 404, 10003);
    expect(await storedReactions(w)).toBe(1);
  });
});

describe('reaction events on the gateway (GUILD_MESSAGE_REACTIONS, channel visibility)', () => {
  it('a bot session gets MESSAGE_REACTION_ADD / REMOVE only with GUILD_MESSAGE_REACTIONS, and none of a channel it cannot view', async () => {
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
    const alice = `Bearer ${(await h.api.post('/sandbox/tokens', { application_id: h.world.application.id, user_id: h.world.alice.id, scopes: MESSAGE_SCOPES })).body.access_token}`;
    const reactions = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGE_REACTIONS });
    const without = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES });
    for (const channel of [hidden, general]) {
      const id = (await h.api.post(`/api/v10/channels/${channel.id}/messages`, { content: 'x' }, alice)).body.id;
      const path = `/api/v10/channels/${channel.id}/messages/${id}/reactions/${THUMBS}/@me`;
      expect((await h.api.put(path, undefined, alice)).status).toBe(204);
      expect((await h.api.delete(path, alice)).status).toBe(204);
    }
    const removed = await reactions.waitForDispatch('MESSAGE_REACTION_REMOVE');
    expect(removed.d).toMatchObject({ channel_id: general.id, user_id: h.world.alice.id, emoji: { name: '👍' } });
    expect(reactions.dispatches('MESSAGE_REACTION_ADD').map((p) => p.d.channel_id)).toEqual([general.id]);
    expect(reactions.dispatches('MESSAGE_REACTION_ADD')[0].d.member.user.id).toBe(h.world.alice.id);
    expect(without.dispatches('MESSAGE_REACTION_ADD')).toEqual([]);
    expect(without.dispatches('MESSAGE_REACTION_REMOVE')).toEqual([]);
  });
});

describe('reactions on direct messages between users (the game’s DMs)', () => {
  it('a user reacts to a kept direct message; the history answers its reactions with me for the reader', async () => {
    const w = await socialWorld();
    await w.relate(w.alice.id, w.bob.id, 1);
    const sent = (await w.client.post(`${API}/users/@me/dms/${w.bob.id}/messages`, { content: 'gg' }, w.aliceAuth))
      .body;
    const path = `${API}/channels/${sent.channel_id}/messages/${sent.id}/reactions/${THUMBS}/@me`;
    const reacted = await w.client.put(path, undefined, w.bobAuth);
    expect(reacted.status, JSON.stringify(reacted.body)).toBe(204);
    const history = (who: string, auth: string) => w.client.get(`${API}/users/@me/dms/${who}/messages`, auth);
    expect((await history(w.alice.id, w.bobAuth)).body[0].reactions).toMatchObject([{ count: 1, me: true }]);
    expect((await history(w.bob.id, w.aliceAuth)).body[0].reactions).toMatchObject([{ count: 1, me: false }]);
  });
});
