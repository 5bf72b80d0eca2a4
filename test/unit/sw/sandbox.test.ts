// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld, EXPECTED_SERVED_BY } from '../app-harness';

describe('sandbox control API (CONTRACT §3)', () => {
  it('creates users, applications and tokens that authenticate', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    expect(world.bot.bot).toBe(true);
    const me = await client.get('/api/v10/users/@me', world.aliceAuth);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(world.alice.id);
    const botMe = await client.get('/api/users/@me', world.botAuth);
    expect(botMe.body.id).toBe(world.bot.id);
  });

  it('creates a guild whose @everyone role id equals the guild id', async () => {
    const client = await createTestClient();
    const { alice } = await createWorld(client);
    const res = await client.post('/sandbox/guilds', { name: 'Guild', owner_id: alice.id });
    expect(res.status).toBe(201);
    expect(res.body.roles[0].id).toBe(res.body.guild.id);
    expect(res.body.roles[0].name).toBe('@everyone');
    expect(res.body.channels.length).toBeGreaterThan(0);
  });

  it('freezes the clock and returns to real time', async () => {
    const client = await createTestClient();
    const put = await client.put('/sandbox/clock', { now: '2026-11-16T00:00:00.000Z' });
    expect(put.body).toEqual({ now: '2026-11-16T00:00:00.000Z', frozen: true });
    expect((await client.get('/sandbox/clock')).body.now).toBe('2026-11-16T00:00:00.000Z');
    const del = await client.delete('/sandbox/clock');
    expect(del.body.frozen).toBe(false);
  });

  it('refuses a bad body with 50035 naming the field, and stores nothing', async () => {
    const client = await createTestClient();
    const res = await client.post('/sandbox/users', { username: 5 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
    expect(res.body.errors.username._errors[0].message).toBeTypeOf('string');
    expect(await client.app.ctx.db.count('users')).toBe(0);
  });

  it('answers invalid JSON with 50109', async () => {
    const client = await createTestClient();
    const res = await client.request('POST', '/sandbox/users', {
      raw: '{nope',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50109);
  });

  it('answers /.proxy/ paths identically', async () => {
    const client = await createTestClient();
    const a = await client.get('/sandbox/clock');
    const b = await client.get('/.proxy/sandbox/clock');
    expect(b.status).toBe(a.status);
    expect(b.headers.get('X-Served-By')).toBe(EXPECTED_SERVED_BY);
  });

  it('unknown route is 404 code 0, wrong method 405', async () => {
    const client = await createTestClient();
    expect((await client.get('/sandbox/nothing')).body).toEqual({ code: 0, message: '404: Not Found' });
    const wrong = await client.request('PATCH', '/sandbox/clock');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('Allow')).toContain('PUT');
  });

  it('missing or unknown token is 401 {"message": "401: Unauthorized", "code": 0}', async () => {
    const client = await createTestClient();
    for (const token of [undefined, 'Bot nope', 'Bearer nope']) {
      const res = await client.get('/api/v10/users/@me', token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401: Unauthorized', code: 0 });
    }
  });
});
