// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createPlatformApp } from '../../../sw/app';
import { createTestClient, createWorld, itInProcess } from '../app-harness';
import { openTestStorage } from '../store/test-storage';

const ME = '/api/v10/users/@me';

describe('HTTP rate limits (CONTRACT §7: off in a new sandbox, one setting turns them on)', () => {
  it('a new sandbox is not rate limited and sends no X-RateLimit headers', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    expect((await client.get('/sandbox/rate-limits')).body.enabled).toBe(false);
    for (let i = 0; i < 12; i++) {
      const res = await client.get(ME, botAuth);
      expect(res.status).toBe(200);
      expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
    }
  });

  it('a route bucket counts down in X-RateLimit-* and answers 429 with retry_after and global: false when empty', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    const put = await client.put('/sandbox/rate-limits', { enabled: true, route_limit: 2, route_window_seconds: 30 });
    expect(put.body).toEqual({ enabled: true, route_limit: 2, route_window_seconds: 30, global_per_second: 50 });
    const first = await client.get(ME, botAuth);
    expect(first.status).toBe(200);
    expect(first.headers.get('X-RateLimit-Limit')).toBe('2');
    expect(first.headers.get('X-RateLimit-Remaining')).toBe('1');
    expect(Number(first.headers.get('X-RateLimit-Reset-After'))).toBeGreaterThan(29);
    expect(Number(first.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(Date.now() / 1000);
    const bucket = first.headers.get('X-RateLimit-Bucket');
    expect(bucket).toMatch(/^[0-9a-f]{16}$/);
    expect((await client.get(ME, botAuth)).headers.get('X-RateLimit-Remaining')).toBe('0');
    const limited = await client.get(ME, botAuth);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('You are being rate limited.');
    expect(limited.body.global).toBe(false);
    expect(limited.body.retry_after).toBeGreaterThan(29);
    expect(Number(limited.headers.get('Retry-After'))).toBe(Math.ceil(limited.body.retry_after));
    expect(limited.headers.get('X-RateLimit-Scope')).toBe('user');
    expect(limited.headers.get('X-RateLimit-Bucket')).toBe(bucket);
  });

  it('the sandbox clock drives the windows: moving it past X-RateLimit-Reset refills the bucket', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    await client.put('/sandbox/clock', { now: '2026-11-20T12:00:00.000Z' });
    await client.put('/sandbox/rate-limits', { enabled: true, route_limit: 1, route_window_seconds: 60 });
    const first = await client.get(ME, botAuth);
    expect(Number(first.headers.get('X-RateLimit-Reset'))).toBe(Date.parse('2026-11-20T12:01:00.000Z') / 1000);
    expect((await client.get(ME, botAuth)).status).toBe(429);
    await client.put('/sandbox/clock', { now: '2026-11-20T12:00:59.000Z' });
    expect((await client.get(ME, botAuth)).body.retry_after).toBe(1);
    await client.put('/sandbox/clock', { now: '2026-11-20T12:01:00.000Z' });
    expect((await client.get(ME, botAuth)).status).toBe(200);
  });

  it('buckets are split by the major parameter (channel_id) and by caller', async () => {
    const client = await createTestClient();
    const { botAuth, aliceAuth } = await createWorld(client);
    await client.put('/sandbox/rate-limits', { enabled: true, route_limit: 1 });
    expect((await client.get('/api/v10/channels/100', botAuth)).headers.get('X-RateLimit-Remaining')).toBe('0');
    expect((await client.get('/api/v10/channels/200', botAuth)).headers.get('X-RateLimit-Remaining')).toBe('0');
    expect((await client.get('/api/v10/channels/100', botAuth)).status).toBe(429);
    expect((await client.get(ME, aliceAuth)).status).toBe(200);
    expect((await client.get(ME, botAuth)).status).toBe(200);
  });

  it('the global limit per bot answers 429 with global: true, X-RateLimit-Global and scope global', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    await client.put('/sandbox/clock', { now: '2026-11-20T12:00:00.000Z' });
    await client.put('/sandbox/rate-limits', { enabled: true, global_per_second: 2 });
    expect((await client.get(ME, botAuth)).status).toBe(200);
    expect((await client.get('/api/v10/channels/1', botAuth)).status).toBe(404);
    const limited = await client.get('/api/v10/channels/2', botAuth);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ global: true, retry_after: 1 });
    expect(limited.headers.get('X-RateLimit-Global')).toBe('true');
    expect(limited.headers.get('X-RateLimit-Scope')).toBe('global');
  });

  it('the control API is never rate limited', async () => {
    const client = await createTestClient();
    await client.put('/sandbox/rate-limits', { enabled: true, route_limit: 1, global_per_second: 1 });
    for (let i = 0; i < 5; i++) expect((await client.get('/sandbox/clock')).status).toBe(200);
  });

  it('bad input is 400 50035 naming the field, and changes nothing', async () => {
    const client = await createTestClient();
    for (const [body, field] of [
      [{ enabled: 'yes' }, 'enabled'],
      [{ enabled: true, route_limit: 0 }, 'route_limit'],
      [{ enabled: true, route_window_seconds: 0.01 }, 'route_window_seconds'],
      [{ enabled: true, global_per_second: 1.5 }, 'global_per_second'],
    ] as const) {
      const res = await client.put('/sandbox/rate-limits', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(50035);
      expect(res.body.errors[field]._errors[0].message).toBeTypeOf('string');
    }
    expect((await client.get('/sandbox/rate-limits')).body.enabled).toBe(false);
  });

  it('a reset turns limits off again and refills every bucket', async () => {
    const client = await createTestClient();
    await client.put('/sandbox/rate-limits', { enabled: true, route_limit: 1 });
    expect((await client.post('/sandbox/reset')).status).toBe(204);
    const { botAuth } = await createWorld(client);
    expect((await client.get('/sandbox/rate-limits')).body.enabled).toBe(false);
    expect((await client.get(ME, botAuth)).headers.get('X-RateLimit-Limit')).toBeNull();
  });

  itInProcess('the setting is stored: a restarted worker keeps limits on', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    await client.put('/sandbox/rate-limits', { enabled: true, route_limit: 3 });
    const restarted = await createPlatformApp({ db: await openTestStorage(client.dbName) });
    const res = await restarted.fetch(
      new Request(`http://platform.test${ME}`, { headers: { Authorization: botAuth } }),
    );
    expect(res.headers.get('X-RateLimit-Limit')).toBe('3');
  });
});
