// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { RelationshipType } from '../../../src/sdk/client-relationships';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
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

/** Alice and bob Ready, each recording relationship callbacks as `[created|deleted, userId, isDiscord]`. */
async function twoClients() {
  h = await createSdkHarness();
  const alice = (await h.readyClient(h.world.alice)).client;
  const bob = (await h.readyClient(h.world.bob)).client;
  const heard = { alice: [] as [string, string, boolean][], bob: [] as [string, string, boolean][] };
  for (const [name, client] of [
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    client.setRelationshipCreatedCallback((userId, isDiscord) => heard[name].push(['created', userId, isDiscord]));
    client.setRelationshipDeletedCallback((userId, isDiscord) => heard[name].push(['deleted', userId, isDiscord]));
  }
  return { alice, bob, heard, aliceId: h.world.alice.id as string, bobId: h.world.bob.id as string };
}

describe('Client: platform-wide friends', () => {
  it('sendDiscordFriendRequestById, then acceptDiscordFriendRequest: both clients hear RelationshipCreated and their handles follow', async () => {
    const { alice, bob, heard, aliceId, bobId } = await twoClients();
    await alice.sendDiscordFriendRequestById(bobId);
    await h.until(() => heard.bob.length === 1 && heard.alice.length === 1, 'the request at both clients');
    expect(heard.bob).toEqual([['created', aliceId, true]]);
    expect(bob.getRelationshipHandle(aliceId)).toMatchObject({
      discordRelationshipType: RelationshipType.PendingIncoming,
      gameRelationshipType: RelationshipType.None,
    });
    expect(alice.getRelationshipHandle(bobId)?.discordRelationshipType).toBe(RelationshipType.PendingOutgoing);

    await bob.acceptDiscordFriendRequest(aliceId);
    await h.until(() => heard.alice.length === 2, 'the acceptance at alice');
    expect(heard.alice).toEqual([
      ['created', bobId, true],
      ['created', bobId, true],
    ]);
    const [handle] = await alice.getRelationships();
    expect(handle).toEqual({
      id: bobId,
      discordRelationshipType: RelationshipType.Friend,
      gameRelationshipType: RelationshipType.None,
      user: expect.objectContaining({ id: bobId, username: 'bob' }),
    });
  });

  it("sendDiscordFriendRequest by username; an unknown username is an HTTPError with the platform's code 80004", async () => {
    const { alice, bob, aliceId } = await twoClients();
    await alice.sendDiscordFriendRequest('bob');
    expect((await bob.getRelationships()).map((r) => [r.id, r.discordRelationshipType])).toEqual([
      [aliceId, RelationshipType.PendingIncoming],
    ]);
    const error = await rejection(alice.sendDiscordFriendRequest('nobody-here'));
    expect(error).toMatchObject({ type: ErrorType.HTTPError, status: 400, code: 80004 });
  });

  it('accept, reject, cancel and unblock with nothing of that kind are ValidationErrors and send nothing that changes anything', async () => {
    const { alice, bob, aliceId, bobId } = await twoClients();
    await h.api.put(`/sandbox/users/${h.world.alice.id}/relationships/${h.world.bob.id}`, { type: 1 });
    await alice.getRelationships();
    const before = h.requests.filter((r) => r.method !== 'GET').length;
    for (const attempt of [
      alice.acceptDiscordFriendRequest(bobId),
      alice.rejectDiscordFriendRequest(bobId),
      alice.cancelDiscordFriendRequest(bobId),
      alice.unblockUser(bobId),
      alice.acceptGameFriendRequest(bobId),
      alice.cancelGameFriendRequest(bobId),
    ]) {
      expect((await rejection(attempt)).type).toBe(ErrorType.ValidationError);
    }
    expect(h.requests.filter((r) => r.method !== 'GET').length).toBe(before);
    // The friendship is intact: a "reject" never removes a friend.
    expect((await bob.getRelationships())[0]).toMatchObject({
      id: aliceId,
      discordRelationshipType: RelationshipType.Friend,
    });
    expect((await rejection(alice.sendDiscordFriendRequestById('not-an-id'))).type).toBe(ErrorType.ValidationError);
  });

  it('rejectDiscordFriendRequest and cancelDiscordFriendRequest remove both sides, with RelationshipDeleted at both clients', async () => {
    const { alice, bob, heard, aliceId, bobId } = await twoClients();
    await alice.sendDiscordFriendRequestById(bobId);
    await h.until(() => heard.bob.length === 1, 'the request at bob');
    await bob.rejectDiscordFriendRequest(aliceId);
    await h.until(() => heard.alice.length === 2, 'the rejection at alice');
    expect(heard.alice[1]).toEqual(['deleted', bobId, true]);
    expect(alice.getRelationshipHandle(bobId)).toBeUndefined();

    await alice.sendDiscordFriendRequestById(bobId);
    await h.until(() => alice.getRelationshipHandle(bobId) !== undefined, 'the second request at alice');
    await alice.cancelDiscordFriendRequest(bobId);
    await h.until(() => bob.getRelationshipHandle(aliceId) === undefined, 'the cancellation at bob');
  });
});

describe('Client: game friends, removal and blocks', () => {
  it('sendGameFriendRequest and acceptGameFriendRequest make game friends (isDiscordRelationshipUpdate false)', async () => {
    const { alice, bob, heard, aliceId, bobId } = await twoClients();
    await alice.sendGameFriendRequest('bob');
    await h.until(() => heard.bob.length === 1, 'the game request at bob');
    expect(heard.bob).toEqual([['created', aliceId, false]]);
    await bob.acceptGameFriendRequest(aliceId);
    await h.until(
      () => alice.getRelationshipHandle(bobId)?.gameRelationshipType === RelationshipType.Friend,
      'game friends at alice',
    );
    expect(alice.getRelationshipHandle(bobId)?.discordRelationshipType).toBe(RelationshipType.None);
  });

  it('a game friend request to someone who never played the game is an HTTPError 80000', async () => {
    const { alice } = await twoClients();
    const dave = (await h.api.post('/sandbox/users', { username: 'dave' })).body.user;
    expect(await rejection(alice.sendGameFriendRequestById(dave.id))).toMatchObject({
      type: ErrorType.HTTPError,
      code: 80000,
    });
  });

  it('removeGameFriend keeps the platform friendship; removeDiscordAndGameFriend ends both', async () => {
    const { alice, bob, aliceId, bobId } = await twoClients();
    await h.api.put(`/sandbox/users/${aliceId}/relationships/${bobId}`, { type: 1 });
    await h.api.put(`/sandbox/users/${aliceId}/relationships/${bobId}`, {
      type: 1,
      application_id: h.world.application.id,
    });
    await alice.getRelationships();
    await alice.removeGameFriend(bobId);
    expect((await bob.getRelationships())[0]).toMatchObject({
      discordRelationshipType: RelationshipType.Friend,
      gameRelationshipType: RelationshipType.None,
    });
    await h.api.put(`/sandbox/users/${aliceId}/relationships/${bobId}`, {
      type: 1,
      application_id: h.world.application.id,
    });
    await alice.removeDiscordAndGameFriend(bobId);
    expect(await bob.getRelationships()).toEqual([]);
  });

  it('blockUser ends the friendship (bob hears RelationshipDeleted); unblockUser lifts the block and restores nothing', async () => {
    const { alice, bob, heard, aliceId, bobId } = await twoClients();
    await h.api.put(`/sandbox/users/${aliceId}/relationships/${bobId}`, { type: 1 });
    await h.until(() => heard.bob.length === 1, 'the friendship at bob');
    await alice.blockUser(bobId);
    await h.until(() => heard.bob.length === 2, 'the block at bob');
    expect(heard.bob[1]).toEqual(['deleted', aliceId, true]);
    expect(alice.getRelationshipHandle(bobId)?.discordRelationshipType).toBe(RelationshipType.Blocked);
    expect(await rejection(bob.sendDiscordFriendRequestById(aliceId))).toMatchObject({ code: 80000 });
    await alice.unblockUser(bobId);
    expect(await alice.getRelationships()).toEqual([]);
  });

  it('after a disconnect the cache is empty and a check reads the platform again', async () => {
    const { alice, bobId } = await twoClients();
    await h.api.put(`/sandbox/users/${h.world.alice.id}/relationships/${bobId}`, { type: 4 });
    await alice.getRelationships();
    await alice.disconnect();
    expect(alice.getRelationshipHandle(bobId)).toBeUndefined();
    await alice.cancelDiscordFriendRequest(bobId);
    expect((await h.api.get('/api/v10/users/@me/relationships', h.world.aliceAuth)).body).toEqual([]);
  });
});
