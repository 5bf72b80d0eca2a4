// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { createGatewayHarness } from '../gateway/gateway-harness';
import { deny, eventsOf, expectError, expectInvalidField, messageWorld, type MessageWorld } from './messages-fixtures';

/** A poll the bot posts in `channelId` (general unless named), with its paths. */
async function polled(w: MessageWorld, options: { allow_multiselect?: boolean; channelId?: string } = {}) {
  const channelId = options.channelId ?? w.general.id;
  const poll = {
    question: { text: 'Map?' },
    answers: [{ poll_media: { text: 'Dust' } }, { poll_media: { text: 'Nuke' } }, { poll_media: { text: 'Inferno' } }],
    duration: 1,
    allow_multiselect: options.allow_multiselect ?? false,
  };
  const message = (await w.client.post(w.messages(channelId), { poll }, w.botAuth)).body;
  return {
    message,
    vote: (userId: string, answer_ids: number[]) =>
      w.client.put(`/sandbox/channels/${channelId}/polls/${message.id}/votes/${userId}`, { answer_ids }),
    voters: (answerId: number | string, query = '') =>
      w.client.get(`/api/v10/channels/${channelId}/polls/${message.id}/answers/${answerId}${query}`, w.botAuth),
    expire: (auth: string) =>
      w.client.post(`/api/v10/channels/${channelId}/polls/${message.id}/expire`, undefined, auth),
    get: (auth: string) => w.client.get(`${w.messages(channelId)}/${message.id}`, auth),
  };
}

describe('polls: votes (sandbox control), GET .../polls/{id}/answers/{answer_id}, POST .../polls/{id}/expire', () => {
  it('votes count in the poll’s results (answer_counts with me_voted for the reader); a user’s votes are set whole', async () => {
    const w = await messageWorld();
    const p = await polled(w, { allow_multiselect: true });
    expect(p.message.poll.results).toEqual({ is_finalized: false, answer_counts: [] });
    expect((await p.vote(w.alice.id, [1, 3])).body).toEqual({ answer_ids: [1, 3] });
    expect((await p.vote(w.bob.id, [1])).status).toBe(200);
    const asAlice = (await p.get(w.aliceAuth)).body.poll.results;
    expect(asAlice).toEqual({
      is_finalized: false,
      answer_counts: [
        { id: 1, count: 2, me_voted: true },
        { id: 3, count: 1, me_voted: true },
      ],
    });
    expect((await p.get(w.bobAuth)).body.poll.results.answer_counts[1].me_voted).toBe(false);
    await p.vote(w.alice.id, [2]);
    expect((await p.get(w.aliceAuth)).body.poll.results.answer_counts).toEqual([
      { id: 1, count: 1, me_voted: false },
      { id: 2, count: 1, me_voted: true },
    ]);
    const kinds = [
      ...(await eventsOf(w.client, 'MESSAGE_POLL_VOTE_ADD')),
      ...(await eventsOf(w.client, 'MESSAGE_POLL_VOTE_REMOVE')),
    ];
    expect(kinds).toHaveLength(6);
    const [added] = await eventsOf(w.client, 'MESSAGE_POLL_VOTE_ADD');
    expect(added.data).toEqual({
      user_id: w.alice.id,
      channel_id: w.general.id,
      message_id: p.message.id,
      guild_id: w.guild.id,
      answer_id: 1,
    });
    expect(added.audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILD_MESSAGE_POLLS });
  });

  it('a single-choice poll takes one answer; unknown answers and bots are 400 50035 naming answer_ids; nothing stored', async () => {
    const w = await messageWorld();
    const p = await polled(w);
    expectInvalidField(await p.vote(w.alice.id, [1, 2]), 'answer_ids');
    expectInvalidField(await p.vote(w.alice.id, [4]), 'answer_ids');
    expectInvalidField(await p.vote(w.bot.id, [1]), 'answer_ids');
    expect(await w.client.db.count('poll_votes')).toBe(0);
    expect(await eventsOf(w.client, 'MESSAGE_POLL_VOTE_ADD')).toEqual([]);
  });

  it('GET .../answers/{answer_id} answers {users} in user id order, after a user id, 1 to 100; READ_MESSAGE_HISTORY needed', async () => {
    const w = await messageWorld();
    const p = await polled(w);
    await p.vote(w.alice.id, [2]);
    await p.vote(w.bob.id, [2]);
    const ids = [w.alice.id, w.bob.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect((await p.voters(2)).body.users.map((u: any) => u.id)).toEqual(ids);
    expect((await p.voters(2, `?after=${ids[0]}`)).body.users.map((u: any) => u.id)).toEqual([ids[1]]);
    expect((await p.voters(1)).body).toEqual({ users: [] });
    expectInvalidField(await p.voters(2, '?limit=101'), 'limit');
    expectInvalidField(await p.voters(9), 'answer_id');
    const plain = (await w.client.post(w.messages(), { content: 'no poll' }, w.botAuth)).body;
    expectError(
      await w.client.get(`/api/v10/channels/${w.general.id}/polls/${plain.id}/answers/1`, w.botAuth),
      400,
      520006,
    );
    const closed = await w.channel({ permission_overwrites: [deny(w.bob.id, PERMISSIONS.READ_MESSAGE_HISTORY, 1)] });
    const q = await polled(w, { channelId: closed.id });
    expectError(
      await w.client.get(`/api/v10/channels/${closed.id}/polls/${q.message.id}/answers/1`, w.bobAuth),
      403,
      50013,
    );
    expectError(await q.vote(w.bob.id, [1]), 403, 50013);
  });

  it('the author ends the poll: the message answers is_finalized, MESSAGE_UPDATE is logged; others are 403 50013; again is 400 520001; votes after it are 400 520001', async () => {
    const w = await messageWorld();
    const p = await polled(w);
    await p.vote(w.alice.id, [1]);
    expectError(await p.expire(w.aliceAuth), 403, 50013);
    const ended = await p.expire(w.botAuth);
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.poll.results).toEqual({
      is_finalized: true,
      answer_counts: [{ id: 1, count: 1, me_voted: false }],
    });
    const [update] = await eventsOf(w.client, 'MESSAGE_UPDATE');
    expect((update.data as any).poll.results.is_finalized).toBe(true);
    expectError(await p.expire(w.botAuth), 400, 520001);
    expectError(await p.vote(w.bob.id, [1]), 400, 520001);
    const plain = (await w.client.post(w.messages(), { content: 'no poll' }, w.botAuth)).body;
    expectError(
      await w.client.post(`/api/v10/channels/${w.general.id}/polls/${plain.id}/expire`, undefined, w.botAuth),
      400,
      520006,
    );
  });

  it('past its expiry by the platform clock a poll is finalized and takes no votes', async () => {
    const w = await messageWorld();
    await w.client.put('/sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
    const p = await polled(w);
    await w.client.put('/sandbox/clock', { now: '2026-03-01T01:00:01.000Z' });
    expect((await p.get(w.aliceAuth)).body.poll.results.is_finalized).toBe(true);
    expectError(await p.vote(w.alice.id, [1]), 400, 520001);
  });
});

describe('a deleted poll message takes its votes with it', () => {
  it('deleting the message deletes its votes', async () => {
    const w = await messageWorld();
    const p = await polled(w);
    await p.vote(w.alice.id, [1]);
    expect(await w.client.db.count('poll_votes')).toBe(1);
    expect((await w.client.delete(`${w.messages()}/${p.message.id}`, w.botAuth)).status).toBe(204);
    expect(await w.client.db.count('poll_votes')).toBe(0);
  });
});

describe('poll vote events on the gateway (GUILD_MESSAGE_POLLS)', () => {
  it('a bot session gets MESSAGE_POLL_VOTE_ADD / REMOVE only with GUILD_MESSAGE_POLLS', async () => {
    const h = await createGatewayHarness();
    const { channels } = await h.guildWithBot({ bob: true });
    const general = channels.find((c: any) => c.name === 'general');
    const polls = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGE_POLLS });
    const without = await h.identify(h.world.botAuth, { intents: INTENTS.GUILDS | INTENTS.GUILD_MESSAGES });
    const poll = { question: { text: 'Map?' }, answers: [{ poll_media: { text: 'Dust' } }], duration: 1 };
    const message = (await h.api.post(`/api/v10/channels/${general.id}/messages`, { poll }, h.world.botAuth)).body;
    const votes = `/sandbox/channels/${general.id}/polls/${message.id}/votes/${h.world.bob.id}`;
    expect((await h.api.put(votes, { answer_ids: [1] })).status).toBe(200);
    expect((await h.api.put(votes, { answer_ids: [] })).status).toBe(200);
    const removed = await polls.waitForDispatch('MESSAGE_POLL_VOTE_REMOVE');
    expect(removed.d).toEqual({
      user_id: h.world.bob.id,
      channel_id: general.id,
      message_id: message.id,
      guild_id: expect.any(String),
      answer_id: 1,
    });
    expect(polls.dispatches('MESSAGE_POLL_VOTE_ADD')).toHaveLength(1);
    expect(without.dispatches('MESSAGE_POLL_VOTE_ADD')).toEqual([]);
    expect(without.dispatches('MESSAGE_POLL_VOTE_REMOVE')).toEqual([]);
  });
});
