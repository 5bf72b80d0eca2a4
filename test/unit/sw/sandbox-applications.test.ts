// @vitest-environment node
/**
 * CONTRACT §3: `POST /sandbox/applications` takes the developer's own `id` and `client_secret`
 * (their `.env`), so an activity runs against the sandbox unchanged; a taken id is 400 50035.
 * `GET` and `PATCH /sandbox/applications/{id}` let a page find it again and change its secret.
 */
import { describe, expect, it } from 'vitest';
import { createTestClient, type TestClient } from '../app-harness';

const OWN_ID = '1234567890123456789';
const OWN_SECRET = 'my-own-secret_0123456789abcdef';

/** Client credentials issue a token for the application's owner: it needs one. */
async function ownerOf(client: TestClient): Promise<string> {
  return (await client.post('/sandbox/users', { username: 'dev' })).body.user.id;
}

function clientCredentials(client: TestClient, id: string, secret: string) {
  return client.request('POST', '/api/oauth2/token', {
    raw: new URLSearchParams({ grant_type: 'client_credentials', scope: 'identify' }).toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${btoa(`${id}:${secret}`)}`,
    },
  });
}

describe('sandbox applications with the developer’s own id and client secret (CONTRACT §3, §6)', () => {
  it('keeps the given id and client secret: the secret authenticates the application at /oauth2/token', async () => {
    const client = await createTestClient();
    const owner = await ownerOf(client);
    const created = await client.post('/sandbox/applications', {
      name: 'My Activity',
      id: OWN_ID,
      client_secret: OWN_SECRET,
      owner_id: owner,
    });
    expect(created.status).toBe(201);
    expect(created.body.application.id).toBe(OWN_ID);
    expect(created.body.client_secret).toBe(OWN_SECRET);
    const token = await clientCredentials(client, OWN_ID, OWN_SECRET);
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.token_type).toBe('Bearer');
    expect((await clientCredentials(client, OWN_ID, 'not-the-secret')).status).toBe(401);
  });

  it('a taken id is 400 50035 naming id, and stores nothing more', async () => {
    const client = await createTestClient();
    await client.post('/sandbox/applications', { name: 'First', id: OWN_ID });
    const users = await client.app.ctx.db.count('users');
    const again = await client.post('/sandbox/applications', { name: 'Second', id: OWN_ID });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(50035);
    expect(again.body.errors.id._errors[0].message).toMatch(/taken/);
    expect(await client.app.ctx.db.count('applications')).toBe(1);
    expect(await client.app.ctx.db.count('users')).toBe(users);
  });

  it('an id that is no snowflake, or a secret with spaces or too short, is 400 50035 naming the field', async () => {
    const client = await createTestClient();
    for (const [body, field] of [
      [{ name: 'A', id: 'my-app' }, 'id'],
      // A number is an id as the platform takes it (CONTRACT §2), but not a fraction.
      [{ name: 'A', id: 42.5 }, 'id'],
      [{ name: 'A', client_secret: 'has spaces in it' }, 'client_secret'],
      [{ name: 'A', client_secret: 'short' }, 'client_secret'],
    ] as const) {
      const reply = await client.post('/sandbox/applications', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.code).toBe(50035);
      expect(Object.keys(reply.body.errors)).toEqual([field]);
    }
    expect(await client.app.ctx.db.count('applications')).toBe(0);
  });

  it('GET /sandbox/applications/{id} finds it, and answers 404 after a reset', async () => {
    const client = await createTestClient();
    await client.post('/sandbox/applications', { name: 'My Activity', id: OWN_ID });
    const found = await client.get(`/sandbox/applications/${OWN_ID}`);
    expect(found.status).toBe(200);
    expect(found.body.application).toMatchObject({ id: OWN_ID, name: 'My Activity' });
    await client.post('/sandbox/reset');
    const gone = await client.get(`/sandbox/applications/${OWN_ID}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(10002);
  });

  it('PATCH /sandbox/applications/{id} with client_secret replaces the secret: the old one no longer authenticates', async () => {
    const client = await createTestClient();
    const owner = await ownerOf(client);
    await client.post('/sandbox/applications', { name: 'A', id: OWN_ID, client_secret: OWN_SECRET, owner_id: owner });
    const patched = await client.patch(`/sandbox/applications/${OWN_ID}`, { client_secret: 'the-new-secret-1234' });
    expect(patched.status).toBe(200);
    expect(JSON.stringify(patched.body)).not.toContain('the-new-secret-1234');
    expect((await clientCredentials(client, OWN_ID, 'the-new-secret-1234')).status).toBe(200);
    expect((await clientCredentials(client, OWN_ID, OWN_SECRET)).status).toBe(401);
  });
});
