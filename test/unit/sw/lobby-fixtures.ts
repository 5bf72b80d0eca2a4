/**
 * Fixtures for the lobby API tests: the harness's world plus a third user and a second
 * application, and readers for what the store holds.
 */
import { expect } from 'vitest';
import type { EventRecord } from '../../../src/store/schema';
import { createTestClient, createWorld, type JsonReply, type TestClient } from '../app-harness';

/** A client with alice and bob (Bearer tokens of the game), carol, the game's bot and another game. */
export async function lobbyWorld(scopes?: string) {
  const client = await createTestClient();
  const world = await createWorld(client, scopes);
  const carol = (await client.post('/sandbox/users', { username: 'carol' })).body.user;
  const carolToken = (
    await client.post('/sandbox/tokens', {
      application_id: world.application.id,
      user_id: carol.id,
      scopes: 'openid sdk.social_layer',
    })
  ).body;
  const other = (await client.post('/sandbox/applications', { name: 'Other Game' })).body;
  const aliceOther = (
    await client.post('/sandbox/tokens', {
      application_id: other.application.id,
      user_id: world.alice.id,
      scopes: 'openid sdk.social_layer',
    })
  ).body;
  return {
    client,
    ...world,
    carol,
    carolAuth: `Bearer ${carolToken.access_token}`,
    otherApplication: other.application,
    otherBotAuth: `Bot ${other.bot_token}`,
    aliceOtherAuth: `Bearer ${aliceOther.access_token}`,
    /** Every secret handed out, to prove none reaches the event log. */
    secrets: [
      world.aliceTokens.access_token,
      world.bobTokens.access_token,
      carolToken.access_token,
      other.bot_token,
      world.botAuth.slice(4),
    ] as string[],
  };
}

/** How many records the lobby stores and the event log hold. */
export async function storeCounts(client: TestClient) {
  const db = client.db;
  const [lobbies, members, messages, events] = await Promise.all([
    db.count('lobbies'),
    db.count('lobby_members'),
    db.count('lobby_messages'),
    db.count('events'),
  ]);
  return { lobbies, members, messages, events };
}

/** The events in the log, oldest first; only those of `type` when given. */
export async function loggedEvents(client: TestClient, type?: string): Promise<EventRecord[]> {
  const all = await client.db.getAll('events');
  return type ? all.filter((e) => e.type === type) : all;
}

/** Asserts a 400 50035 whose field errors name `path` (dotted). */
export function expectInvalidField(reply: JsonReply, path: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.code).toBe(50035);
  let node = reply.body.errors;
  for (const part of path.split('.')) {
    expect(node, `errors name ${path}: ${JSON.stringify(reply.body.errors)}`).toHaveProperty(part);
    node = node[part];
  }
  expect(node._errors[0].message).toBeTypeOf('string');
}

/** Asserts an API error by status and code. */
export function expectError(reply: JsonReply, status: number, code: number): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.code).toBe(code);
}

/** Metadata whose keys and values add up to exactly `chars` characters. */
export function metadataOfLength(chars: number): Record<string, string> {
  return { k: 'v'.repeat(chars - 1) };
}
