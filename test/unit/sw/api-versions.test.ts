// @vitest-environment node
/**
 * CONTRACT §1, §2: `/api/v9`, `/api/v10` and `/api` serve the same API (older libraries still
 * speak v9); a version the platform no longer serves is an unknown route.
 */
import { describe, expect, it } from 'vitest';
import { withoutApiVersion } from '../../../sw/paths';
import { createTestClient, createWorld } from '../app-harness';

describe('the API answers under /api/v9, /api/v10 and /api (CONTRACT §2)', () => {
  it('a read under /api/v9 answers what /api/v10 and /api answer', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const answers = await Promise.all(
      ['/api/v9', '/api/v10', '/api'].map((base) => client.get(`${base}/users/@me`, w.aliceAuth)),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[1].body);
    }
    expect(answers[0].body.id).toBe(w.alice.id);
  });

  it('a write under /api/v9 is the same write: a lobby created there is read under /api/v10', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const created = await client.put('/api/v9/lobbies', { secret: 'v9' }, w.aliceAuth);
    expect(created.status).toBe(200);
    const read = await client.get(`/api/v10/lobbies/${created.body.id}`, w.aliceAuth);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(created.body.id);
  });

  it('a version the platform does not serve (v8, v11) is an unknown route: 404 code 0', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    for (const base of ['/api/v8', '/api/v11', '/api/v90']) {
      const answer = await client.get(`${base}/users/@me`, w.aliceAuth);
      expect(answer.status, base).toBe(404);
      expect(answer.body).toEqual({ message: '404: Not Found', code: 0 });
    }
  });

  it('withoutApiVersion folds v9 and v10 (and only them) into /api', () => {
    expect(withoutApiVersion('/api/v9')).toBe('/api');
    expect(withoutApiVersion('/api/v9/users/@me')).toBe('/api/users/@me');
    expect(withoutApiVersion('/api/v10/lobbies/1')).toBe('/api/lobbies/1');
    expect(withoutApiVersion('/api/v100/lobbies')).toBe('/api/v100/lobbies');
    expect(withoutApiVersion('/api/v9x/lobbies')).toBe('/api/v9x/lobbies');
  });
});
