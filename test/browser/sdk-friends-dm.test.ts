import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/sdk/client';
import { RelationshipType } from '../../src/sdk/client-relationships';
import { AuthorizationTokenType, type LobbyMessage } from '../../src/sdk/types';
import { registerPlatformWorker, resetSandbox, servedByWorker } from './harness';

/** A sandbox fixture call, answered by the service worker. */
async function sandbox(path: string, body: unknown) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return response.json();
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const clients: Client[] = [];

/** A Ready client of the page's defaults (fetch through the service worker, the shared-worker GatewaySocket) for `userId`. */
async function readyClient(applicationId: string, userId: string): Promise<{ client: Client; token: string }> {
  const tokens = await sandbox('/sandbox/tokens', {
    application_id: applicationId,
    user_id: userId,
    scopes: 'openid sdk.social_layer',
  });
  const client = new Client({ applicationId, userId });
  clients.push(client);
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.access_token);
  await client.connect();
  return { client, token: tokens.access_token };
}

describe('the game SDK in real Chromium: friends and direct messages over the service worker and the shared-worker gateway', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.destroy()));
  });

  it('alice asks bob to be friends, bob accepts, and they exchange direct messages each sees live', async () => {
    const alice = (await sandbox('/sandbox/users', { username: 'alice' })).user;
    const bob = (await sandbox('/sandbox/users', { username: 'bob' })).user;
    const appId = (await sandbox('/sandbox/applications', { name: 'Arena' })).application.id;
    const { client: aliceClient, token: aliceToken } = await readyClient(appId, alice.id);
    const { client: bobClient } = await readyClient(appId, bob.id);

    const created = { alice: [] as string[], bob: [] as string[] };
    aliceClient.setRelationshipCreatedCallback((userId) => created.alice.push(userId));
    bobClient.setRelationshipCreatedCallback((userId) => created.bob.push(userId));
    const heard = { alice: [] as LobbyMessage[], bob: [] as LobbyMessage[] };
    aliceClient.setMessageCreatedCallback((_id, message) => heard.alice.push(message));
    bobClient.setMessageCreatedCallback((_id, message) => heard.bob.push(message));

    await aliceClient.sendDiscordFriendRequest('bob');
    await waitFor(() => created.bob.includes(alice.id), 'the friend request at bob');
    expect(bobClient.getRelationshipHandle(alice.id)?.discordRelationshipType).toBe(RelationshipType.PendingIncoming);
    await bobClient.acceptDiscordFriendRequest(alice.id);
    await waitFor(
      () => aliceClient.getRelationshipHandle(bob.id)?.discordRelationshipType === RelationshipType.Friend,
      'the friendship at alice',
    );

    const sent = await aliceClient.sendUserMessage(bob.id, 'ready to queue?');
    await waitFor(() => heard.bob.length === 1, "alice's message at bob");
    expect(heard.bob[0]).toMatchObject({
      id: sent.id,
      content: 'ready to queue?',
      author: { id: alice.id },
      recipient_id: bob.id,
    });
    await bobClient.sendUserMessage(alice.id, 'always');
    await waitFor(() => heard.alice.length === 2, 'both messages at alice');
    expect(heard.alice.map((m) => [m.content, m.author.id])).toEqual([
      ['ready to queue?', alice.id],
      ['always', bob.id],
    ]);
    expect(heard.alice[1].channel_id).toBe(sent.channel_id);

    expect((await bobClient.getUserMessagesWithLimit(alice.id, 0)).map((m) => m.content)).toEqual([
      'always',
      'ready to queue?',
    ]);
    // The service worker answered: the DM channel is in the browser's IndexedDB.
    const channels = await fetch('/api/v10/users/@me/channels', { headers: { Authorization: `Bearer ${aliceToken}` } });
    expect(servedByWorker(channels)).toBe(true);
    expect(
      (await channels.json()).map((c: { id: string; recipients: { id: string }[] }) => [c.id, c.recipients[0].id]),
    ).toEqual([[sent.channel_id, bob.id]]);
  });
});
