import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerPlatformWorker, resetSandbox, servedByWorker } from './harness';

/** A JSON request to the platform, answered by the service worker. */
async function call(method: string, path: string, body?: unknown, auth?: string) {
  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { response, status: response.status, body: text ? JSON.parse(text) : null };
}

async function world() {
  const alice = (await call('POST', '/sandbox/users', { username: 'alice' })).body.user;
  const bob = (await call('POST', '/sandbox/users', { username: 'bob' })).body.user;
  const app = (await call('POST', '/sandbox/applications', { name: 'Game' })).body;
  const token = async (userId: string) =>
    `Bearer ${(await call('POST', '/sandbox/tokens', { application_id: app.application.id, user_id: userId, scopes: 'openid sdk.social_layer' })).body.access_token}`;
  return {
    alice,
    bob,
    botAuth: `Bot ${app.bot_token}`,
    aliceAuth: await token(alice.id),
    bobAuth: await token(bob.id),
  };
}

describe('lobby API in the service worker, on real IndexedDB', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);

  it('two users join one lobby by secret; the worker answers', async () => {
    const w = await world();
    const created = await call('PUT', '/api/v10/lobbies', { secret: 'browser-match' }, w.aliceAuth);
    expect(servedByWorker(created.response)).toBe(true);
    const joined = await call('PUT', '/.proxy/api/v10/lobbies', { secret: 'browser-match' }, w.bobAuth);
    expect(joined.body.id).toBe(created.body.id);
    expect(joined.body.members.map((m: { id: string }) => m.id)).toEqual([w.alice.id, w.bob.id]);
  });

  it('50 concurrent posts are all stored with distinct ids, and the fetch answers the newest first with the limit asked for', async () => {
    const w = await world();
    const lobby = (await call('PUT', '/api/v10/lobbies', { secret: 'chat' }, w.aliceAuth)).body;
    await call('PUT', '/api/v10/lobbies', { secret: 'chat' }, w.bobAuth);
    const path = `/api/v10/lobbies/${lobby.id}/messages`;
    const posted = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call('POST', path, { content: `m${i}` }, i % 2 ? w.aliceAuth : w.bobAuth)),
    );
    expect(posted.every((p) => p.status === 201)).toBe(true);
    expect(new Set(posted.map((p) => p.body.id)).size).toBe(50);
    const all = (await call('GET', `${path}?limit=200`, undefined, w.bobAuth)).body as { id: string }[];
    expect(all.length).toBe(50);
    const ids = all.map((m) => BigInt(m.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i - 1] > ids[i]).toBe(true);
    const newest = (await call('GET', `${path}?limit=5`, undefined, w.aliceAuth)).body as { id: string }[];
    expect(newest.map((m) => m.id)).toEqual(all.slice(0, 5).map((m) => m.id));
    expect((await call('GET', `${path}?limit=201`, undefined, w.aliceAuth)).body.code).toBe(50035);
  });

  it('an empty lobby is gone once the sandbox clock passes its idle timeout', async () => {
    const w = await world();
    const start = Date.parse('2026-07-01T00:00:00Z');
    await call('PUT', '/sandbox/clock', { now: new Date(start).toISOString() });
    const lobby = (await call('POST', '/api/v10/lobbies', { idle_timeout_seconds: 5 }, w.botAuth)).body;
    expect((await call('GET', `/api/v10/lobbies/${lobby.id}`, undefined, w.botAuth)).status).toBe(200);
    await call('PUT', '/sandbox/clock', { now: new Date(start + 5_000).toISOString() });
    const gone = await call('GET', `/api/v10/lobbies/${lobby.id}`, undefined, w.botAuth);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(10031);
    await call('DELETE', '/sandbox/clock');
  });
});
