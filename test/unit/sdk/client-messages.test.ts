// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
import type { LobbyMessage } from '../../../src/sdk/types';
import { createSdkHarness, type SdkHarness } from './sdk-harness';

let h: SdkHarness;
afterEach(async () => {
  await h?.close();
});

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

/** Alice and bob Ready, recording created and updated messages. */
async function twoClients(friends: boolean) {
  h = await createSdkHarness();
  const aliceId = h.world.alice.id as string;
  const bobId = h.world.bob.id as string;
  if (friends) await h.api.put(`/sandbox/users/${aliceId}/relationships/${bobId}`, { type: 1 });
  const alice = (await h.readyClient(h.world.alice)).client;
  const bob = (await h.readyClient(h.world.bob)).client;
  const heard = { alice: [] as LobbyMessage[], bob: [] as LobbyMessage[], updated: [] as LobbyMessage[] };
  alice.setMessageCreatedCallback((_id, m) => heard.alice.push(m));
  bob.setMessageCreatedCallback((_id, m) => heard.bob.push(m));
  bob.setMessageUpdatedCallback((_id, m) => heard.updated.push(m));
  return { alice, bob, heard, aliceId, bobId };
}

describe('Client: direct messages', () => {
  it('sendUserMessage to a friend: both clients hear it (MessageCreated), it is kept, and getUserMessagesWithLimit reads it newest first', async () => {
    const { alice, bob, heard, aliceId, bobId } = await twoClients(true);
    const sent = await alice.sendUserMessage(bobId, 'ready to queue?', { mode: 'duo' });
    await bob.sendUserMessage(aliceId, 'yes');
    await h.until(() => heard.alice.length === 2 && heard.bob.length === 2, 'both messages at both clients');
    expect(heard.bob[0]).toEqual(sent);
    expect(heard.bob[0]).toMatchObject({ recipient_id: bobId, author: { id: aliceId }, metadata: { mode: 'duo' } });
    expect(heard.bob[1].channel_id).toBe(sent.channel_id);
    expect((await alice.getUserMessagesWithLimit(bobId, 10)).map((m) => m.content)).toEqual(['yes', 'ready to queue?']);
    expect(await bob.getUserMessageSummaries()).toEqual([{ userId: aliceId, lastMessageId: heard.bob[1].id }]);
  });

  it('to a non-friend the message is delivered in the game only: channel_id is the other user, nothing is kept', async () => {
    const { alice, heard, aliceId, bobId } = await twoClients(false);
    const sent = await alice.sendUserMessage(bobId, 'gg');
    expect(sent.channel_id).toBe(bobId);
    await h.until(() => heard.bob.length === 1, 'the message at bob');
    expect(heard.bob[0]).toMatchObject({ id: sent.id, content: 'gg', channel_id: aliceId, recipient_id: bobId });
    expect(await alice.getUserMessagesWithLimit(bobId, 0)).toEqual([]);
  });

  it('getUserMessagesWithLimit: 0 or less asks for all the platform keeps (200); above 200 or not whole is refused before any request', async () => {
    const { alice, bobId } = await twoClients(true);
    const before = h.requests.length;
    for (const limit of [201, 2.5, Number.NaN]) {
      const error = await rejection(alice.getUserMessagesWithLimit(bobId, limit));
      expect(error.type).toBe(ErrorType.ValidationError);
      expect(error.message).toMatch(/200.*72 hours/);
    }
    expect((await rejection(alice.getUserMessagesWithLimit('bob', 10))).type).toBe(ErrorType.ValidationError);
    expect((await rejection(alice.sendUserMessage(bobId, ''))).type).toBe(ErrorType.ValidationError);
    expect(h.requests.length).toBe(before);
    await alice.getUserMessagesWithLimit(bobId, -1);
    expect(new URL(h.requests.at(-1)!.url).searchParams.get('limit')).toBe('200');
  });

  it('GetUserMessagesWithLimit returns at most 200 messages, the newest', async () => {
    const { alice, bobId } = await twoClients(true);
    for (let i = 0; i < 205; i++)
      await h.api.post(`/api/v10/users/@me/dms/${bobId}/messages`, { content: `m${i}` }, h.world.aliceAuth);
    const messages = await alice.getUserMessagesWithLimit(bobId, 0);
    expect(messages).toHaveLength(200);
    expect(messages[0].content).toBe('m204');
    expect(messages.at(-1)!.content).toBe('m5');
  });

  it("the platform's refusals come back as HTTPErrors with its code: a blocked user is 50007", async () => {
    const { alice, aliceId, bobId } = await twoClients(true);
    await h.api.put(`/sandbox/users/${bobId}/relationships/${aliceId}`, { type: 2 });
    expect(await rejection(alice.sendUserMessage(bobId, 'hello?'))).toMatchObject({
      type: ErrorType.HTTPError,
      status: 403,
      code: 50007,
    });
  });

  it("moderation metadata set by the game's server reaches the client as MessageUpdated, for direct and lobby messages", async () => {
    const { alice, bob, heard, aliceId, bobId } = await twoClients(true);
    const dm = await alice.sendUserMessage(bobId, 'some words');
    await h.fetch(
      new Request(
        `http://platform.test/api/v10/partner-sdk/dms/${aliceId}/${bobId}/messages/${dm.id}/moderation-metadata`,
        {
          method: 'PUT',
          headers: { Authorization: h.world.botAuth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ verdict: 'ok' }),
        },
      ),
    );
    const lobby = await alice.createOrJoinLobby('mod-room');
    await bob.createOrJoinLobby('mod-room');
    const said = await alice.sendLobbyMessage(lobby.id, 'in the lobby');
    await h.fetch(
      new Request(`http://platform.test/api/v10/lobbies/${lobby.id}/messages/${said.id}/moderation-metadata`, {
        method: 'PUT',
        headers: { Authorization: h.world.botAuth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ verdict: 'hide' }),
      }),
    );
    await h.until(() => heard.updated.length === 2, 'both updates at bob');
    expect(heard.updated.map((m) => [m.id, m.moderation_metadata])).toEqual([
      [dm.id, { verdict: 'ok' }],
      [said.id, { verdict: 'hide' }],
    ]);
  });
});
