// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createPlatformApp } from '../../../sw/app';
import { isInvalidRequest } from '../../../sw/invalid-requests';
import { rateLimitedResponse } from '../../../sw/rate-limits';
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
    expect(put.body).toEqual({
      enabled: true,
      route_limit: 2,
      route_window_seconds: 30,
      global_per_second: 50,
      invalid_request_limit: 10_000,
      invalid_request_window_seconds: 600,
    });
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
      [{ enabled: true, invalid_request_limit: 0 }, 'invalid_request_limit'],
      [{ enabled: true, invalid_request_window_seconds: 3601 }, 'invalid_request_window_seconds'],
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

describe('the invalid-request limit (the platform: 10,000 answers of 401, 403 or 429 per 10 minutes restrict an IP)', () => {
  const BAD = 'Bot not-a-token';

  it('a sandbox with rate limits on counts the platform numbers by default: 10,000 per 600 s', async () => {
    const client = await createTestClient();
    const put = await client.put('/sandbox/rate-limits', { enabled: true });
    expect(put.body).toMatchObject({ invalid_request_limit: 10_000, invalid_request_window_seconds: 600 });
  });

  it('401, 403 and 429 answers count; once the window holds the limit every API request is refused at the edge (429, text, Retry-After, no Via) until the sandbox clock passes the window', async () => {
    const client = await createTestClient();
    const { botAuth, aliceAuth } = await createWorld(client);
    await client.put('/sandbox/clock', { now: '2026-11-20T12:00:00.000Z' });
    await client.put('/sandbox/rate-limits', {
      enabled: true,
      route_limit: 1,
      invalid_request_limit: 3,
      invalid_request_window_seconds: 60,
    });
    expect((await client.get(ME, BAD)).status).toBe(401);
    // A route bucket's own 429 is an invalid request too.
    expect((await client.get(ME, botAuth)).status).toBe(200);
    expect((await client.get(ME, botAuth)).status).toBe(429);
    // Not yet restricted: another caller is answered, and answered well (200 does not count).
    expect((await client.get(ME, aliceAuth)).status).toBe(200);
    await client.put('/sandbox/clock', { now: '2026-11-20T12:00:30.000Z' });
    expect((await client.get(ME, BAD)).status).toBe(401);

    const restricted = await client.get(ME, aliceAuth);
    expect(restricted.status).toBe(429);
    expect(restricted.body).toBe('error code: 1015');
    expect(restricted.headers.get('Retry-After')).toBe('30');
    expect(restricted.headers.get('Via')).toBeNull();
    expect(restricted.headers.get('X-RateLimit-Limit')).toBeNull();
    // Every caller of the sandbox (one IP), every API route, while the window lasts.
    expect((await client.get('/api/v10/channels/1', botAuth)).status).toBe(429);
    // The control API stays open: a test can always move the clock or reset.
    expect((await client.get('/sandbox/clock')).status).toBe(200);

    await client.put('/sandbox/clock', { now: '2026-11-20T12:00:59.000Z' });
    expect((await client.get(ME, aliceAuth)).headers.get('Retry-After')).toBe('1');
    await client.put('/sandbox/clock', { now: '2026-11-20T12:01:00.000Z' });
    expect((await client.get(ME, aliceAuth)).status).toBe(200);
  });

  it('the rule: 401, 403 and 429 are invalid, a 429 of scope shared is not, nor is any other status', () => {
    const status = (code: number) => isInvalidRequest(new Response(null, { status: code }));
    expect([401, 403, 429].map(status)).toEqual([true, true, true]);
    expect([200, 204, 400, 404, 405, 413, 500, 502].map(status)).toEqual(Array(8).fill(false));
    expect(isInvalidRequest(rateLimitedResponse(1, { global: false, scope: 'shared' }))).toBe(false);
    expect(isInvalidRequest(rateLimitedResponse(1, { global: true }))).toBe(true);
  });

  it('a 404 does not count; an injected 429 does, as the platform counts its own', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    await client.put('/sandbox/clock', { now: '2026-11-20T12:00:00.000Z' });
    await client.put('/sandbox/rate-limits', {
      enabled: true,
      invalid_request_limit: 2,
      invalid_request_window_seconds: 60,
    });
    for (let i = 0; i < 3; i++) expect((await client.get('/api/v10/channels/1', botAuth)).status).toBe(404);
    expect((await client.get(ME, botAuth)).status).toBe(200);
    await client.post('/sandbox/faults', { type: 'http_error', status: 429, path: ME, count: 2 });
    expect((await client.get(ME, botAuth)).status).toBe(429);
    expect((await client.get(ME, botAuth)).status).toBe(429);
    const restricted = await client.get(ME, botAuth);
    expect([restricted.status, restricted.body]).toEqual([429, 'error code: 1015']);
  });

  it('with rate limits off (a new sandbox) nothing is counted nor refused', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    for (let i = 0; i < 20; i++) expect((await client.get(ME, BAD)).status).toBe(401);
    expect((await client.get(ME, botAuth)).status).toBe(200);
  });

  it('a reset lifts a restriction', async () => {
    const client = await createTestClient();
    await client.put('/sandbox/rate-limits', { enabled: true, invalid_request_limit: 1 });
    expect((await client.get(ME, BAD)).status).toBe(401);
    expect((await client.get(ME, BAD)).body).toBe('error code: 1015');
    await client.post('/sandbox/reset');
    await client.put('/sandbox/rate-limits', { enabled: true, invalid_request_limit: 1 });
    const { botAuth } = await createWorld(client);
    expect((await client.get(ME, botAuth)).status).toBe(200);
  });
});
