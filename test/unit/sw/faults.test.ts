// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createPlatformApp } from '../../../sw/app';
import { WEBHOOK_RETRY_BASE_MS } from '../../../src/platform/core/limits';
import { createTestClient, createWorld, itInProcess, ON_SERVER } from '../app-harness';
import { openTestStorage } from '../store/test-storage';
import { authorizeNewUser, deliveries, enableWebhooks, setClock, webhookWorld } from './webhook-fixtures';

const ME = '/api/v10/users/@me';

describe('HTTP faults on demand (POST /sandbox/faults)', () => {
  it('the next N requests matching the method and pattern answer 502, then the route answers again', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    const res = await client.post('/sandbox/faults', {
      type: 'http_error',
      method: 'GET',
      path: ME,
      status: 502,
      count: 2,
    });
    expect(res.status).toBe(201);
    expect(res.body.fault).toMatchObject({ type: 'http_error', status: 502, count: 2, remaining: 2 });
    expect((await client.post('/api/v10/users/@me/channels', { recipient_id: '1' }, botAuth)).status).not.toBe(502);
    const failed = await client.get(ME, botAuth);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ message: '502: Bad Gateway', code: 0 });
    expect((await client.get(ME, botAuth)).status).toBe(502);
    expect((await client.get(ME, botAuth)).status).toBe(200);
    expect((await client.get('/sandbox/faults')).body.pending).toEqual([]);
  });

  it('a pattern takes * for one segment and any API version, and 500 and 503 answer as asked', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    await client.post('/sandbox/faults', { type: 'http_error', path: '/api/channels/*', status: 503 });
    await client.post('/sandbox/faults', { type: 'http_error', path: '/api/v9/channels/*', status: 500 });
    expect((await client.get('/api/v10/channels/5', botAuth)).status).toBe(503);
    expect((await client.get('/.proxy/api/channels/6', botAuth)).status).toBe(500);
    expect((await client.get('/api/v10/channels/7', botAuth)).status).toBe(404);
  });

  it('a 429 fault carries the platform rate-limit body and headers', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    await client.post('/sandbox/faults', { type: 'http_error', path: ME, status: 429, retry_after: 2.5 });
    const limited = await client.get(ME, botAuth);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'You are being rate limited.', retry_after: 2.5, global: false, code: 0 });
    expect(limited.headers.get('Retry-After')).toBe('3');
    expect(limited.headers.get('X-RateLimit-Scope')).toBe('user');
    // As the platform's edge answers it (discord.py waits only for a 429 that passed a proxy).
    expect(limited.headers.get('Via')).toBe('1.1 google');
  });

  it('a delay fault holds the request for the time asked, then the route answers', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    await client.post('/sandbox/faults', { type: 'http_delay', path: ME, delay_ms: 150 });
    const started = performance.now();
    const res = await client.get(ME, botAuth);
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('bad input is 400 50035 naming the field, and injects nothing', async () => {
    const client = await createTestClient();
    for (const [body, field] of [
      [{ type: 'meteor_strike' }, 'type'],
      [{}, 'type'],
      [{ type: 'http_error', path: '/api/v10/nothing/here', status: 502 }, 'path'],
      [{ type: 'http_error', method: 'DELETE', path: ME, status: 502 }, 'path'],
      [{ type: 'http_error', path: '/sandbox/reset', status: 502 }, 'path'],
      [{ type: 'http_error', path: ME, status: 404 }, 'status'],
      [{ type: 'http_error', path: ME, status: 502, count: 0 }, 'count'],
      [{ type: 'http_error', path: ME, status: 502, count: 101 }, 'count'],
      [{ type: 'http_delay', path: ME, delay_ms: 60_001 }, 'delay_ms'],
      [{ type: 'close', code: 1006 }, 'code'],
      [{ type: 'hold_dispatches', duration_ms: 0 }, 'duration_ms'],
      [{ type: 'reconnect', user_id: '1', application_id: '2' }, 'application_id'],
      [{ type: 'webhook_failure', application_id: 'x' }, 'application_id'],
    ] as const) {
      const res = await client.post('/sandbox/faults', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(50035);
      expect(res.body.errors[field]._errors[0].message, JSON.stringify(body)).toBeTypeOf('string');
    }
    expect((await client.get('/sandbox/faults')).body).toEqual({ pending: [], history: [] });
  });

  it('stopping the shared worker or the service worker is a browser host fault only; a reset forgets it', async () => {
    const client = await createTestClient();
    for (const type of ['stop_shared_worker', 'stop_service_worker']) {
      const res = await client.post('/sandbox/faults', { type });
      expect(res.status, type).toBe(ON_SERVER ? 400 : 201);
      if (ON_SERVER) expect(res.body.errors.type._errors[0].message).toMatch(/browser host/);
      // Applied once, at once: nothing stays pending, the history shows it.
      else expect(res.body.fault).toMatchObject({ type, remaining: null });
    }
    const listed = (await client.get('/sandbox/faults')).body;
    expect(listed.pending).toEqual([]);
    expect(listed.history.map((f: { type: string }) => f.type)).toEqual(
      ON_SERVER ? [] : ['stop_shared_worker', 'stop_service_worker'],
    );
    await client.post('/sandbox/reset');
    expect((await client.get('/sandbox/faults')).body).toEqual({ pending: [], history: [] });
  });

  it('DELETE /sandbox/faults and a reset clear pending faults', async () => {
    const client = await createTestClient();
    await client.post('/sandbox/faults', { type: 'http_error', path: ME, status: 502, count: 5 });
    expect((await client.delete('/sandbox/faults')).status).toBe(204);
    const { botAuth } = await createWorld(client);
    expect((await client.get(ME, botAuth)).status).toBe(200);
    await client.post('/sandbox/faults', { type: 'http_error', path: ME, status: 502, count: 5 });
    await client.post('/sandbox/reset');
    const again = await createWorld(client);
    expect((await client.get(ME, again.botAuth)).status).toBe(200);
    expect((await client.get('/sandbox/faults')).body).toEqual({ pending: [], history: [] });
  });

  itInProcess('an injected fault is announced (the event stream shows it) and kept in the history', async () => {
    const client = await createTestClient();
    const fault = (await client.post('/sandbox/faults', { type: 'reconnect' })).body.fault;
    expect(client.announcements).toContainEqual({ type: 'fault', fault });
    expect((await client.get('/sandbox/faults')).body.history).toEqual([fault]);
  });

  itInProcess(
    "a fault injected from a page (a request with the page's client id, applied once) takes effect at once",
    async () => {
      const client = await createTestClient();
      const { botAuth } = await createWorld(client);
      // The app has read its (empty) faults before: what it keeps of them must follow the injection.
      expect((await client.get('/sandbox/faults')).body.pending).toEqual([]);
      const fromPage = (request: Request) =>
        client.app.fetch(request, { waitUntil: () => undefined, clientId: 'page-1' });
      const injected = await fromPage(
        new Request('http://platform.test/sandbox/faults', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ type: 'http_error', path: ME, status: 502 }),
        }),
      );
      expect(injected.status).toBe(201);
      expect((await client.get('/sandbox/faults')).body.pending).toHaveLength(1);
      expect((await client.get(ME, botAuth)).status).toBe(502);
      const limits = await fromPage(
        new Request('http://platform.test/sandbox/rate-limits', {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ enabled: true }),
        }),
      );
      expect(limits.status).toBe(200);
      expect((await client.get(ME, botAuth)).headers.get('X-RateLimit-Limit')).toBe('5');
    },
  );

  itInProcess('a fault is stored: a worker restarted after the injection still applies it', async () => {
    const client = await createTestClient();
    const { botAuth } = await createWorld(client);
    await client.post('/sandbox/faults', { type: 'http_error', path: ME, status: 503 });
    const restarted = await createPlatformApp({ db: await openTestStorage(client.dbName) });
    const res = await restarted.fetch(
      new Request(`http://platform.test${ME}`, { headers: { Authorization: botAuth } }),
    );
    expect(res.status).toBe(503);
  });

  itInProcess(
    'webhook_failure: the next N deliveries of an application fail unsent, and the outbox retries them',
    async () => {
      const { client, world, endpoint } = await webhookWorld();
      const t0 = Date.parse('2026-03-01T12:00:00.000Z');
      await setClock(client, t0);
      await enableWebhooks(client, world.application.id);
      const res = await client.post('/sandbox/faults', {
        type: 'webhook_failure',
        application_id: world.application.id,
        status: 503,
      });
      expect(res.status).toBe(201);
      await authorizeNewUser(client, world.application.id);
      expect(endpoint.events()).toHaveLength(0);
      expect((await deliveries(client))[0]).toMatchObject({ status: 'pending', attempts: 1, last_status: 503 });
      await setClock(client, t0 + WEBHOOK_RETRY_BASE_MS);
      expect((await deliveries(client))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
      expect(endpoint.events()).toHaveLength(1);
    },
  );
});
