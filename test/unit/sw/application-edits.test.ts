// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld } from '../app-harness';

async function world() {
  const client = await createTestClient();
  return { client, w: await createWorld(client) };
}

describe('PATCH /applications/@me and /applications/{id}', () => {
  it('edits the description, tags, install URLs and install params; GET answers them after', async () => {
    const { client, w } = await world();
    const res = await client.patch(
      '/api/v10/applications/@me',
      {
        description: 'Rolls dice',
        tags: ['dice', 'games'],
        custom_install_url: 'https://game.example/install',
        role_connections_verification_url: 'https://game.example/verify',
        install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
      },
      w.botAuth,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: w.application.id,
      description: 'Rolls dice',
      tags: ['dice', 'games'],
      custom_install_url: 'https://game.example/install',
      role_connections_verification_url: 'https://game.example/verify',
      install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
    });
    const again = await client.patch(`/api/v10/applications/${w.application.id}`, { tags: null }, w.botAuth);
    expect(again.body).not.toHaveProperty('tags');
    expect((await client.get('/api/v10/applications/@me', w.botAuth)).body.description).toBe('Rolls dice');
  });

  it('limits: description 400 characters, at most 5 tags of 20 characters (50035, nothing stored)', async () => {
    const { client, w } = await world();
    const before = await client.db.get('applications', w.application.id);
    for (const [body, field] of [
      [{ description: 'd'.repeat(401) }, 'description'],
      [{ tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'tags'],
      [{ tags: ['t'.repeat(21)] }, 'tags'],
      [{ install_params: { scopes: ['identify'], permissions: '0' } }, 'install_params'],
    ] as const) {
      const res = await client.patch('/api/v10/applications/@me', body, w.botAuth);
      expect([res.status, res.body.code], field).toEqual([400, 50035]);
      expect(res.body.errors, field).toHaveProperty(field);
    }
    expect((await client.patch('/api/v10/applications/@me', { description: 'd'.repeat(400) }, w.botAuth)).status).toBe(
      200,
    );
    expect((await client.db.get('applications', w.application.id))!.flags).toBe(before!.flags);
  });

  it('only the limited intent flags can change (others 50035); the other stored flags are kept', async () => {
    const { client, w } = await world();
    const limited = (1 << 13) | (1 << 15) | (1 << 19);
    const res = await client.patch('/api/v10/applications/@me', { flags: limited }, w.botAuth);
    expect(res.body.flags & limited).toBe(limited);
    expect((await client.patch('/api/v10/applications/@me', { flags: 1 << 12 }, w.botAuth)).body.errors).toHaveProperty(
      'flags',
    );
    expect((await client.patch('/api/v10/applications/@me', { flags: 0 }, w.botAuth)).body.flags & limited).toBe(0);
  });

  it('another application’s id is 403 (50001), an unknown one 404 (10002); a user’s token cannot edit', async () => {
    const { client, w } = await world();
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body.application;
    expect((await client.patch(`/api/v10/applications/${other.id}`, { description: 'x' }, w.botAuth)).body.code).toBe(
      50001,
    );
    expect((await client.patch('/api/v10/applications/123', { description: 'x' }, w.botAuth)).body.code).toBe(10002);
    expect((await client.patch('/api/v10/applications/@me', { description: 'x' }, w.aliceAuth)).status).toBe(403);
  });

  it('an interactions endpoint URL that does not answer the signed PING is refused (50035), as on the platform', async () => {
    const { client, w } = await world();
    const res = await client.patch(
      '/api/v10/applications/@me',
      { interactions_endpoint_url: 'http://127.0.0.1:9/nothing' },
      w.botAuth,
    );
    expect(res.body.errors).toHaveProperty('interactions_endpoint_url');
    expect((await client.get('/api/v10/applications/@me', w.botAuth)).body.interactions_endpoint_url).toBeNull();
  });
});
