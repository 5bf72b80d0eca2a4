import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerPlatformWorker, resetSandbox } from './harness';

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

/** Polls the deliveries list until `done` holds (the outbox runs after the answer, in the worker). */
async function deliveriesWhen(done: (list: any[]) => boolean): Promise<any[]> {
  for (let i = 0; i < 100; i++) {
    const list = (await call('GET', '/sandbox/webhook-deliveries')).body.deliveries;
    if (done(list)) return list;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the deliveries never got there');
}

async function appAndUser() {
  const owner = (await call('POST', '/sandbox/users', { username: 'owner' })).body.user;
  const app = (await call('POST', '/sandbox/applications', { name: 'Game', owner_id: owner.id })).body.application;
  const carol = (await call('POST', '/sandbox/users', { username: 'carol' })).body.user;
  return { app, carol };
}

async function authorize(applicationId: string, userId: string): Promise<void> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: applicationId,
    scope: 'identify',
    integration_type: '1',
  });
  expect((await call('POST', `/oauth2/authorize?${query}`, { authorize: true, user_id: userId })).status).toBe(200);
}

describe('webhook events in the service worker (Chromium: Ed25519 keys in IndexedDB, waitUntil, same-origin sinks)', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);

  it('a sandbox sink on this origin is configured (PING), receives APPLICATION_AUTHORIZED, and its signature verifies with the verify_key in the page', async () => {
    const { app, carol } = await appAndUser();
    const sink = (await call('POST', '/sandbox/webhook-sinks', {})).body;
    expect(new URL(sink.url).origin).toBe(location.origin);
    const settings = await call('PUT', `/sandbox/applications/${app.id}/event-webhooks`, {
      url: sink.url,
      types: ['APPLICATION_AUTHORIZED'],
      enabled: true,
    });
    expect(settings.status).toBe(200);
    await authorize(app.id, carol.id);
    const [delivery] = await deliveriesWhen((list) => list[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ event_type: 'APPLICATION_AUTHORIZED', attempts: 1, url: sink.url });
    const [received] = (await call('GET', `/sandbox/webhook-sinks/${sink.id}`)).body.requests;
    expect(received).toMatchObject({
      signature_valid: true,
      answered: 204,
      body: { type: 1, event: { type: 'APPLICATION_AUTHORIZED' } },
    });
    // Independently of the worker: the page's own WebCrypto checks Ed25519 over timestamp + body.
    const hex = (s: string) => new Uint8Array(s.match(/../g)!.map((b) => parseInt(b, 16)));
    const key = await crypto.subtle.importKey('raw', hex(settings.body.verify_key), { name: 'Ed25519' }, false, [
      'verify',
    ]);
    const signed = new TextEncoder().encode(received.headers['x-signature-timestamp'] + JSON.stringify(received.body));
    expect(
      await crypto.subtle.verify({ name: 'Ed25519' }, key, hex(received.headers['x-signature-ed25519']), signed),
    ).toBe(true);
  });

  it('a URL on an origin that does not answer is refused (its PING cannot be delivered), and the settings keep the sink that works', async () => {
    const { app, carol } = await appAndUser();
    const sink = (await call('POST', '/sandbox/webhook-sinks', {})).body;
    await call('PUT', `/sandbox/applications/${app.id}/event-webhooks`, {
      url: sink.url,
      types: ['APPLICATION_AUTHORIZED'],
      enabled: true,
    });
    const refused = await call('PUT', `/sandbox/applications/${app.id}/event-webhooks`, {
      url: 'http://127.0.0.1:9/hooks',
      enabled: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.event_webhooks_url._errors[0].message).toContain('could not be delivered');
    await authorize(app.id, carol.id);
    expect((await deliveriesWhen((list) => list[0]?.status === 'delivered'))[0].url).toBe(sink.url);
  });
});
