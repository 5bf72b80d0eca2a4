/**
 * Fixtures for the relationship, direct-message and moderation tests: the lobby world (alice,
 * bob and carol have played the game; the game's bot; another game where alice plays too) plus
 * dave, who never played the game, provisional accounts of the game, and readers of the store.
 */
import { expect } from 'vitest';
import type { TestClient } from '../app-harness';
import { lobbyWorld } from './lobby-fixtures';
import { keyRange } from '../../../src/store/port';

export { expectError, expectInvalidField, loggedEvents } from './lobby-fixtures';

export const API = '/api/v10';

/** The lobby world, dave (no token of the game) and a maker of provisional accounts. */
export async function socialWorld(scopes?: string) {
  const w = await lobbyWorld(scopes);
  const dave = (await w.client.post('/sandbox/users', { username: 'dave' })).body.user;
  /** A provisional account of the game (the bot token endpoint), with its Bearer header. */
  const provisional = async (externalUserId: string) => {
    const tokens = (
      await w.client.post(`${API}/partner-sdk/token/bot`, { external_user_id: externalUserId }, w.botAuth)
    ).body;
    const auth = `Bearer ${tokens.access_token}`;
    const user = (await w.client.get(`${API}/users/@me`, auth)).body;
    return { user, auth, token: tokens.access_token as string };
  };
  /** A Bearer token of the game for `userId` with `scope`. */
  const token = async (userId: string, scope: string) =>
    `Bearer ${(await w.client.post('/sandbox/tokens', { application_id: w.application.id, user_id: userId, scopes: scope })).body.access_token}`;
  /** Sets a pair directly through the sandbox. */
  const relate = async (userId: string, otherId: string, type: number, applicationId?: string) => {
    const reply = await w.client.put(`/sandbox/users/${userId}/relationships/${otherId}`, {
      type,
      ...(applicationId ? { application_id: applicationId } : {}),
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body;
  };
  return { ...w, dave, provisional, token, relate };
}

/** How many records the relationship and DM stores and the event log hold. */
export async function socialCounts(client: TestClient) {
  const db = client.db;
  const [relationships, channels, messages, lobbyMessages, events] = await Promise.all([
    db.count('relationships'),
    db.count('dm_channels'),
    db.count('dm_messages'),
    db.count('lobby_messages'),
    db.count('events'),
  ]);
  return { relationships, channels, messages, lobbyMessages, events };
}

/** The `[type, id, relationship type]` of every relationship event after `after` (a log position), oldest first, with its audience. */
export async function relationshipEvents(client: TestClient, after = 0) {
  const events = await client.db.getAll('events', keyRange.lowerBound(after, true));
  return events
    .filter((e) => e.type.includes('RELATIONSHIP'))
    .map((e) => ({
      type: e.type,
      to: e.audience.user_ids,
      app: e.audience.application_id,
      id: (e.data as any).id,
      kind: (e.data as any).type,
    }));
}

/** The newest log position. */
export async function logPosition(client: TestClient): Promise<number> {
  const keys = await client.db.getAllKeys('events');
  return keys.length ? keys[keys.length - 1] : 0;
}
