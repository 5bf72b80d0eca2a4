// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { SandboxClient } from '../../../src/components/sandbox-client';
import type { FetchLike } from '../../../src/platform/oauth2/oidc';
import { createTestClient, createWorld } from '../app-harness';
import { authorizeNewUser, deliveries, enableWebhooks, HOOK_URL, nodeVerify, webhookWorld } from './webhook-fixtures';

describe('event webhooks configuration (webhook events: PING on the URL, Ed25519 verify_key)', () => {
  it('every application has an Ed25519 verify_key (32 bytes, hex) and starts disabled with no URL and no types', async () => {
    const { client, world, verifyKey } = await webhookWorld();
    expect(verifyKey).toMatch(/^[0-9a-f]{64}$/);
    const settings = (await client.get(`/sandbox/applications/${world.application.id}/event-webhooks`)).body;
    expect(settings).toEqual({
      application_id: world.application.id,
      event_webhooks_url: null,
      event_webhooks_status: 1,
      event_webhooks_types: [],
      verify_key: verifyKey,
    });
  });

  it('the private key never leaves the store: answers carry only the verify_key, and the stored key is not extractable', async () => {
    const { client, world } = await webhookWorld();
    const res = await enableWebhooks(client, world.application.id);
    expect(Object.keys(res).sort()).toEqual([
      'application_id',
      'event_webhooks_status',
      'event_webhooks_types',
      'event_webhooks_url',
      'verify_key',
    ]);
    const stored = (await client.app.ctx.db.get('event_webhooks', world.application.id))!;
    expect(stored.private_key.extractable).toBe(false);
    expect(stored.private_key.type).toBe('private');
  });

  it('setting the URL sends a signed PING first ({version: 1, application_id, type: 0}); a 204 acknowledges it and the settings are stored', async () => {
    const { client, world, endpoint } = await webhookWorld();
    const res = await client.put(`/sandbox/applications/${world.application.id}/event-webhooks`, {
      url: HOOK_URL,
      types: ['APPLICATION_AUTHORIZED'],
      enabled: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      event_webhooks_url: HOOK_URL,
      event_webhooks_status: 2,
      event_webhooks_types: ['APPLICATION_AUTHORIZED'],
    });
    const [ping] = endpoint.received;
    expect(ping.url).toBe(HOOK_URL);
    expect(ping.payload).toEqual({ version: 1, application_id: world.application.id, type: 0 });
    expect(ping.signatureValid).toBe(true);
    expect(ping.answered).toBe(204);
    expect(
      (await client.get(`/sandbox/applications/${world.application.id}/event-webhooks`)).body.event_webhooks_status,
    ).toBe(2);
  });

  it('the platform also sends a PING with an invalid signature, which a correct endpoint refuses with 401', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id);
    expect(endpoint.received.map((r) => [r.payload.type, r.signatureValid, r.answered])).toEqual([
      [0, true, 204],
      [0, false, 401],
    ]);
  });

  it('a URL that answers the PING with anything but 204 is refused with 50035 naming event_webhooks_url, and nothing is stored', async () => {
    const { client, world, endpoint } = await webhookWorld(() => 200);
    const before = await client.app.ctx.db.get('event_webhooks', world.application.id);
    const res = await client.put(`/sandbox/applications/${world.application.id}/event-webhooks`, {
      url: HOOK_URL,
      types: ['APPLICATION_AUTHORIZED'],
      enabled: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
    expect(res.body.errors.event_webhooks_url._errors[0].message).toContain('204');
    expect(JSON.stringify(res.body)).not.toContain('game.example');
    expect(await client.app.ctx.db.get('event_webhooks', world.application.id)).toEqual(before);
    expect(endpoint.received).toHaveLength(1);
    // Refused settings deliver nothing.
    await authorizeNewUser(client, world.application.id);
    expect(await deliveries(client)).toEqual([]);
  });

  it('a URL that accepts a PING with an invalid signature (does not verify X-Signature-Ed25519) is refused', async () => {
    const client = await createTestClient({ webhookFetch: async () => new Response(null, { status: 204 }) });
    const world = await createWorld(client);
    const res = await client.put(`/sandbox/applications/${world.application.id}/event-webhooks`, {
      url: HOOK_URL,
      types: [],
      enabled: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.event_webhooks_url._errors[0].message).toContain('invalid signature');
    expect(
      (await client.get(`/sandbox/applications/${world.application.id}/event-webhooks`)).body.event_webhooks_url,
    ).toBeNull();
  });

  it('a URL that cannot be reached (offline) is refused', async () => {
    const { client, world, endpoint } = await webhookWorld();
    endpoint.state.down = true;
    const res = await client.put(`/sandbox/applications/${world.application.id}/event-webhooks`, {
      url: HOOK_URL,
      enabled: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.event_webhooks_url._errors[0].message).toContain('could not be delivered');
  });

  it('the PING signature verifies with the verify_key: Ed25519 over X-Signature-Timestamp + body, the timestamp in seconds by the platform clock', async () => {
    const { client, world, endpoint, verifyKey } = await webhookWorld();
    await client.put('/sandbox/clock', { now: '2026-03-01T12:00:00.000Z' });
    await enableWebhooks(client, world.application.id);
    const [ping] = endpoint.received;
    expect(ping.timestamp).toBe(String(Date.parse('2026-03-01T12:00:00.000Z') / 1000));
    expect(nodeVerify(verifyKey, ping.signature, ping.timestamp, ping.body)).toBe(true);
    expect(nodeVerify(verifyKey, ping.signature, ping.timestamp, ping.body + ' ')).toBe(false);
  });

  it('refuses unknown event types, enabling without a URL, non-http URLs, and unknown applications', async () => {
    const { client, world } = await webhookWorld();
    const put = (body: unknown, id = world.application.id) =>
      client.put(`/sandbox/applications/${id}/event-webhooks`, body);
    const unknownType = await put({ url: HOOK_URL, types: ['GUILD_CREATE'] });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.errors.types).toBeDefined();
    const noUrl = await put({ url: null, enabled: true });
    expect(noUrl.body.errors.event_webhooks_url._errors[0].message).toContain('without a URL');
    expect((await put({ url: 'ftp://game.example/x' })).body.errors.event_webhooks_url).toBeDefined();
    expect((await put({ url: HOOK_URL }, '123')).status).toBe(404);
  });

  it('url null removes the URL and disables events without a PING', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id);
    const pings = endpoint.received.length;
    const res = await client.put(`/sandbox/applications/${world.application.id}/event-webhooks`, { url: null });
    expect(res.body).toMatchObject({ event_webhooks_url: null, event_webhooks_status: 1 });
    expect(endpoint.received).toHaveLength(pings);
  });
});

describe('sandbox webhook sinks (deliveries seen offline)', () => {
  /** A network that is never there: anything a sink receives came straight from the app. */
  const offline: FetchLike = async () => {
    throw new TypeError('Failed to fetch');
  };

  it('POST /sandbox/webhook-sinks answers {url} on the same origin; the outbox delivers to it by calling the app directly, and the sink records the verified request', async () => {
    const client = await createTestClient({ webhookFetch: offline });
    const world = await createWorld(client);
    const sink = await client.post('/sandbox/webhook-sinks', {});
    expect(sink.status).toBe(201);
    expect(sink.body.url).toBe(`http://platform.test/sandbox/webhook-sinks/${sink.body.id}`);
    await enableWebhooks(client, world.application.id, ['APPLICATION_AUTHORIZED'], sink.body.url);
    const carol = await authorizeNewUser(client, world.application.id);
    const [delivery] = await deliveries(client);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, url: sink.body.url });
    const seen = (await client.get(`/sandbox/webhook-sinks/${sink.body.id}`)).body;
    // Newest first: the event, then the two PINGs of the configuration (the forged one refused).
    expect(seen.requests.map((r: any) => [r.body.type, r.signature_valid, r.answered])).toEqual([
      [1, true, 204],
      [0, false, 401],
      [0, true, 204],
    ]);
    expect(seen.requests[0].body.event).toMatchObject({
      type: 'APPLICATION_AUTHORIZED',
      data: { user: { id: carol.id } },
    });
    expect(seen.requests[0].application_id).toBe(world.application.id);
    expect(seen.requests[0].headers['x-signature-ed25519']).toMatch(/^[0-9a-f]{128}$/);
  });

  it('a sink path is accepted as the URL and also works under /.proxy', async () => {
    const client = await createTestClient({ webhookFetch: offline });
    const world = await createWorld(client);
    const sink = (await client.post('/.proxy/sandbox/webhook-sinks', {})).body;
    const res = await enableWebhooks(
      client,
      world.application.id,
      ['APPLICATION_AUTHORIZED'],
      `/.proxy/sandbox/webhook-sinks/${sink.id}`,
    );
    expect(res.event_webhooks_url).toBe(`http://platform.test/.proxy/sandbox/webhook-sinks/${sink.id}`);
    await authorizeNewUser(client, world.application.id);
    expect((await deliveries(client))[0].status).toBe('delivered');
  });

  it('a sink told to answer 500 acknowledges the PING but fails events, which are retried; an unknown sink is 404', async () => {
    const client = await createTestClient({ webhookFetch: offline });
    const world = await createWorld(client);
    const failing = (await client.post('/sandbox/webhook-sinks', { respond_with: 500 })).body;
    expect(failing.respond_with).toBe(500);
    await enableWebhooks(client, world.application.id, ['APPLICATION_AUTHORIZED'], failing.url);
    await authorizeNewUser(client, world.application.id);
    expect((await deliveries(client))[0]).toMatchObject({ status: 'pending', attempts: 1, last_status: 500 });
    expect((await client.get(`/sandbox/webhook-sinks/${failing.id}`)).body.requests[0]).toMatchObject({
      signature_valid: true,
      answered: 500,
    });
    expect((await client.get('/sandbox/webhook-sinks/1')).status).toBe(404);
    expect((await client.post('/sandbox/webhook-sinks', { respond_with: 99 })).status).toBe(400);
  });

  it("the page's SandboxClient reaches the same routes: sinks, settings and deliveries", async () => {
    const client = await createTestClient({ webhookFetch: offline });
    const world = await createWorld(client);
    const sandbox = new SandboxClient('http://platform.test', (request) => client.app.fetch(request));
    const sink = await sandbox.createWebhookSink();
    expect(
      (await sandbox.setEventWebhooks(world.application.id, { url: sink.url, types: ['APPLICATION_AUTHORIZED'] }))
        .event_webhooks_status,
    ).toBe(2);
    expect((await sandbox.eventWebhooks(world.application.id)).event_webhooks_url).toBe(sink.url);
    await authorizeNewUser(client, world.application.id);
    expect(
      (await sandbox.webhookDeliveries({ application_id: world.application.id, limit: 5 })).deliveries,
    ).toHaveLength(1);
    expect((await sandbox.webhookSink(sink.id)).requests).toHaveLength(3);
  });
});
