// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  WEBHOOK_DELIVERY_ATTEMPTS_MAX,
  WEBHOOK_FAILED_DELIVERIES_BEFORE_DISABLE,
  WEBHOOK_RETRY_BASE_MS,
} from '../../../src/platform/core/limits';
import { write } from '../../../src/store/write';
import type { TestClient } from '../app-harness';
import {
  authorizeNewUser,
  deliveries,
  enableWebhooks,
  HOOK_URL,
  nodeVerify,
  setClock,
  webhookWorld,
} from './webhook-fixtures';
import { placeholderEvent } from '../store/placeholder-events';
import { countTransactions } from '../store/count-transactions';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');

/** Emits a webhook event for `applicationId` as a domain write would (monetization has none yet). */
async function emitWebhookEvent(client: TestClient, applicationId: string, type: string, data: unknown = {}) {
  await write(client.app.ctx, [], async (_tx, emit) => {
    emit(placeholderEvent(type, data, { application_id: applicationId }, ['gateway', 'webhook']));
  });
  // A domain write happens inside a request: the next request's end runs the outbox.
  await client.get('/sandbox/clock');
  await client.app.webhooks.settled();
}

describe('webhook outbox: events delivered from the log (ARCHITECTURE rule 3)', () => {
  it('APPLICATION_AUTHORIZED is delivered after the first authorization: {version: 1, application_id, type: 1, event: {type, timestamp, data}}', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await setClock(client, T0);
    await enableWebhooks(client, world.application.id);
    const carol = await authorizeNewUser(client, world.application.id);
    const [sent] = endpoint.events();
    expect(sent.url).toBe(HOOK_URL);
    expect(sent.payload).toEqual({
      version: 1,
      application_id: world.application.id,
      type: 1,
      event: {
        type: 'APPLICATION_AUTHORIZED',
        timestamp: new Date(T0).toISOString(),
        data: {
          integration_type: 1,
          scopes: ['identify', 'guilds'],
          user: expect.objectContaining({ id: carol.id, username: 'carol' }),
        },
      },
    });
    const [delivery] = await deliveries(client);
    expect(delivery).toMatchObject({
      event_type: 'APPLICATION_AUTHORIZED',
      status: 'delivered',
      attempts: 1,
      last_status: 204,
    });
    // A repeated authorization is not a new one: nothing more is sent.
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: world.application.id,
      scope: 'identify',
      integration_type: '1',
    });
    await client.post(`/oauth2/authorize?${query}`, { authorize: true, user_id: carol.id });
    expect(await deliveries(client)).toHaveLength(1);
  });

  it("a delivery's signature verifies with the verify_key: Ed25519 over X-Signature-Timestamp + the exact body", async () => {
    const { client, world, endpoint, verifyKey } = await webhookWorld();
    await enableWebhooks(client, world.application.id);
    await authorizeNewUser(client, world.application.id);
    const [sent] = endpoint.events();
    expect(sent.signatureValid).toBe(true);
    expect(nodeVerify(verifyKey, sent.signature, sent.timestamp, sent.body)).toBe(true);
    expect(nodeVerify(verifyKey, sent.signature, String(Number(sent.timestamp) + 1), sent.body)).toBe(false);
    expect(sent.signature).toMatch(/^[0-9a-f]{128}$/);
  });

  it('APPLICATION_DEAUTHORIZED is delivered after a ban (POST /sandbox/users/{id}/ban) with the serialized user and no token', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id);
    expect((await client.post(`/sandbox/users/${world.alice.id}/ban`, {})).status).toBe(204);
    await client.app.webhooks.settled();
    const [sent] = endpoint.events();
    expect(sent.payload.event).toMatchObject({
      type: 'APPLICATION_DEAUTHORIZED',
      data: { user: { id: world.alice.id, username: 'alice' } },
    });
    for (const secret of [
      world.aliceTokens.access_token,
      world.aliceTokens.refresh_token,
      world.bobTokens.access_token,
      world.clientSecret,
      world.botAuth.slice(4),
    ]) {
      expect(sent.body).not.toContain(secret);
      expect(JSON.stringify(await deliveries(client))).not.toContain(secret);
    }
  });

  it('tokens are never in a payload: APPLICATION_AUTHORIZED after an OAuth2 code exchange carries the user but no token string', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id);
    const carol = await authorizeNewUser(client, world.application.id);
    const codeRes = await client.post(
      `/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: world.application.id, scope: 'identify' })}`,
      { authorize: true, user_id: carol.id },
    );
    const code = new URL(codeRes.body.location ?? `http://x/?code=${codeRes.body.code}`).searchParams.get('code')!;
    const tokens = await client.request('POST', '/oauth2/token', {
      raw: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: world.application.id,
        client_secret: world.clientSecret,
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(tokens.status).toBe(200);
    await client.app.webhooks.settled();
    const bodies = endpoint.received.map((r) => r.body).join('\n') + JSON.stringify(await deliveries(client));
    expect(bodies).toContain(carol.id);
    for (const secret of [code, tokens.body.access_token, tokens.body.refresh_token, world.clientSecret])
      expect(bodies).not.toContain(secret);
  });

  it('ENTITLEMENT_CREATE (the only monetization event by webhook) and QUEST_USER_ENROLLMENT are delivered when emitted and subscribed', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id, ['ENTITLEMENT_CREATE', 'QUEST_USER_ENROLLMENT']);
    await emitWebhookEvent(client, world.application.id, 'ENTITLEMENT_CREATE', {
      id: '1',
      sku_id: '2',
      user_id: world.alice.id,
      type: 4,
    });
    await emitWebhookEvent(client, world.application.id, 'QUEST_USER_ENROLLMENT', { user_id: world.alice.id });
    expect(endpoint.events().map((r) => r.payload.event.type)).toEqual(['ENTITLEMENT_CREATE', 'QUEST_USER_ENROLLMENT']);
    expect(endpoint.events()[0].payload.event.data).toEqual({ id: '1', sku_id: '2', user_id: world.alice.id, type: 4 });
  });

  it('is not delivered when the application does not subscribe to the type, or its events are disabled', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id, ['APPLICATION_DEAUTHORIZED']);
    await authorizeNewUser(client, world.application.id, 'carol');
    await client.put(`/sandbox/applications/${world.application.id}/event-webhooks`, {
      url: HOOK_URL,
      types: ['APPLICATION_AUTHORIZED'],
      enabled: false,
    });
    await authorizeNewUser(client, world.application.id, 'dave');
    // Enabling again starts from now: what happened while disabled stays undelivered.
    await enableWebhooks(client, world.application.id, ['APPLICATION_AUTHORIZED']);
    expect(endpoint.events()).toEqual([]);
    expect(await deliveries(client)).toEqual([]);
  });

  it("gateway-only events and other applications' events are not delivered; events from before webhooks were enabled are not either", async () => {
    const { client, world, endpoint } = await webhookWorld();
    await authorizeNewUser(client, world.application.id, 'before');
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body;
    await enableWebhooks(client, world.application.id);
    await authorizeNewUser(client, other.application.id, 'elsewhere');
    await client.post('/sandbox/guilds', { name: 'Guild', owner_id: world.alice.id });
    await client.app.webhooks.settled();
    expect(endpoint.events()).toEqual([]);
  });

  it('with no application listening, later writes do not make the outbox read the store; enabling webhooks wakes it for what follows', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await authorizeNewUser(client, world.application.id, 'first');
    await client.app.webhooks.settled();
    const read = countTransactions(client.app.ctx.db, { store: 'event_webhooks' });
    await authorizeNewUser(client, world.application.id, 'second');
    await client.app.webhooks.settled();
    expect(read()).toBe(0);
    await enableWebhooks(client, world.application.id);
    await authorizeNewUser(client, world.application.id, 'third');
    await client.app.webhooks.settled();
    expect(read()).toBeGreaterThan(0);
    expect(endpoint.events().map((e) => e.payload.event.data.user.username)).toEqual(['third']);
  });

  it('a failed delivery is retried with exponential backoff by the sandbox clock, then ends failed after the last attempt', async () => {
    const { client, world, endpoint } = await webhookWorld((payload) => (payload.type === 0 ? 204 : 500));
    await setClock(client, T0);
    await enableWebhooks(client, world.application.id);
    await authorizeNewUser(client, world.application.id);
    let [delivery] = await deliveries(client);
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status: 500,
      next_attempt_at: new Date(T0 + WEBHOOK_RETRY_BASE_MS).toISOString(),
    });
    let now = T0;
    for (let attempt = 2; attempt <= WEBHOOK_DELIVERY_ATTEMPTS_MAX; attempt++) {
      const wait = WEBHOOK_RETRY_BASE_MS * 2 ** (attempt - 2);
      // Not due a millisecond early.
      await setClock(client, now + wait - 1);
      expect((await deliveries(client))[0].attempts).toBe(attempt - 1);
      now += wait;
      await setClock(client, now);
      [delivery] = await deliveries(client);
      expect(delivery.attempts).toBe(attempt);
    }
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: WEBHOOK_DELIVERY_ATTEMPTS_MAX,
      next_attempt_at: null,
      last_error: 'The endpoint answered 500.',
    });
    expect(endpoint.events()).toHaveLength(WEBHOOK_DELIVERY_ATTEMPTS_MAX);
    await setClock(client, now + 3_600_000);
    expect(endpoint.events()).toHaveLength(WEBHOOK_DELIVERY_ATTEMPTS_MAX);
  });

  it('offline, a delivery to another origin fails with a network error, is retried, and the list shows it', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await setClock(client, T0);
    await enableWebhooks(client, world.application.id);
    endpoint.state.down = true;
    await authorizeNewUser(client, world.application.id);
    expect((await deliveries(client))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status: null,
      last_error: expect.stringContaining('network error'),
    });
    endpoint.state.down = false;
    await setClock(client, T0 + WEBHOOK_RETRY_BASE_MS);
    expect((await deliveries(client))[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
      last_status: 204,
      last_error: null,
    });
  });

  it(`the platform disables an application's events (status 3) after ${WEBHOOK_FAILED_DELIVERIES_BEFORE_DISABLE} failed deliveries in a row, and sends it nothing more`, async () => {
    const { client, world, endpoint } = await webhookWorld((payload) => (payload.type === 0 ? 204 : 503));
    await setClock(client, T0);
    await enableWebhooks(client, world.application.id, ['ENTITLEMENT_CREATE']);
    for (let i = 0; i < WEBHOOK_FAILED_DELIVERIES_BEFORE_DISABLE; i++)
      await emitWebhookEvent(client, world.application.id, 'ENTITLEMENT_CREATE', { id: String(i) });
    // Each step of an hour makes every pending retry due at once.
    for (let step = 1; step < WEBHOOK_DELIVERY_ATTEMPTS_MAX; step++) await setClock(client, T0 + step * 3_600_000);
    expect((await deliveries(client)).map((d) => [d.status, d.attempts])).toEqual(
      Array(WEBHOOK_FAILED_DELIVERIES_BEFORE_DISABLE).fill(['failed', WEBHOOK_DELIVERY_ATTEMPTS_MAX]),
    );
    expect(
      (await client.get(`/sandbox/applications/${world.application.id}/event-webhooks`)).body.event_webhooks_status,
    ).toBe(3);
    const sent = endpoint.events().length;
    await emitWebhookEvent(client, world.application.id, 'ENTITLEMENT_CREATE', { id: 'later' });
    expect(endpoint.events()).toHaveLength(sent);
    expect(await deliveries(client)).toHaveLength(WEBHOOK_FAILED_DELIVERIES_BEFORE_DISABLE);
    // Configuring the URL again (a PING that passes) enables it again.
    expect((await enableWebhooks(client, world.application.id, ['ENTITLEMENT_CREATE'])).event_webhooks_status).toBe(2);
  });

  it('a pending retry of an application whose events were disabled meanwhile ends failed unsent', async () => {
    const { client, world, endpoint } = await webhookWorld((payload) => (payload.type === 0 ? 204 : 500));
    await setClock(client, T0);
    await enableWebhooks(client, world.application.id);
    await authorizeNewUser(client, world.application.id);
    await client.put(`/sandbox/applications/${world.application.id}/event-webhooks`, { url: HOOK_URL, enabled: false });
    await setClock(client, T0 + WEBHOOK_RETRY_BASE_MS);
    expect((await deliveries(client))[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: expect.stringContaining('disabled'),
    });
    expect(endpoint.events()).toHaveLength(1);
  });
});

describe('GET /sandbox/webhook-deliveries (CONTRACT §3)', () => {
  it('answers {deliveries: [{id, event_type, url, status, attempts, payload, ...}]} newest first, filtered by application_id, at most limit', async () => {
    const { client, world } = await webhookWorld();
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body;
    await enableWebhooks(client, world.application.id);
    await authorizeNewUser(client, world.application.id, 'carol');
    await authorizeNewUser(client, world.application.id, 'dave');
    const list = await deliveries(client);
    expect(list).toHaveLength(2);
    for (const d of list) {
      expect(d).toEqual(
        expect.objectContaining({
          id: expect.stringMatching(/^\d+$/),
          event_type: 'APPLICATION_AUTHORIZED',
          url: HOOK_URL,
          status: 'delivered',
          attempts: 1,
          payload: expect.objectContaining({ version: 1, type: 1 }),
        }),
      );
    }
    expect(list.map((d) => d.payload.event.data.user.username)).toEqual(['dave', 'carol']);
    expect(BigInt(list[0].id) > BigInt(list[1].id)).toBe(true);
    expect(await deliveries(client, '?limit=1')).toHaveLength(1);
    expect(await deliveries(client, `?application_id=${other.application.id}`)).toEqual([]);
    expect((await client.get('/sandbox/webhook-deliveries?limit=0')).status).toBe(400);
  });

  it("POST /sandbox/reset clears deliveries, sinks and every application's event webhooks settings", async () => {
    const { client, world } = await webhookWorld();
    await enableWebhooks(client, world.application.id);
    await authorizeNewUser(client, world.application.id);
    const sink = (await client.post('/sandbox/webhook-sinks', {})).body;
    expect(await deliveries(client)).toHaveLength(1);
    expect((await client.post('/sandbox/reset')).status).toBe(204);
    await client.app.webhooks.settled();
    expect(await deliveries(client)).toEqual([]);
    expect((await client.get(`/sandbox/webhook-sinks/${sink.id}`)).status).toBe(404);
    expect(await client.app.ctx.db.count('event_webhooks')).toBe(0);
    expect(await client.app.ctx.db.count('webhook_outbox')).toBe(0);
  });
});
