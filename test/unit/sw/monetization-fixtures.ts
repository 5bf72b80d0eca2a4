/**
 * Monetization test fixtures: a world (alice, bob, an application with its bot, another
 * application) with the platform clock frozen, SKUs made through the sandbox, purchases, and
 * readers of the event log.
 */
import { expect } from 'vitest';
import type { FetchLike } from '../../../src/platform/oauth2/oidc';
import { createTestClient, createWorld, type JsonReply, type TestClient } from '../app-harness';

/** When the tests' clock starts. */
export const T0 = Date.parse('2026-03-10T12:00:00.000Z');

/** The monetization event types. */
export const MONETIZATION_EVENTS = [
  'ENTITLEMENT_CREATE',
  'ENTITLEMENT_UPDATE',
  'ENTITLEMENT_DELETE',
  'SUBSCRIPTION_CREATE',
  'SUBSCRIPTION_UPDATE',
  'SUBSCRIPTION_DELETE',
];

/** Freezes the sandbox clock at `at` (epoch ms or ISO). */
export async function setClock(client: TestClient, at: number | string): Promise<void> {
  const now = typeof at === 'number' ? new Date(at).toISOString() : at;
  expect((await client.put('/sandbox/clock', { now })).status).toBe(200);
}

/**
 * A world with the clock at {@link T0}: alice and bob, the application (its bot, and tokens for
 * both users with `applications.entitlements`), and another application with its own bot.
 */
export async function monetizationWorld(options: { webhookFetch?: FetchLike } = {}) {
  const client = await createTestClient(options);
  await setClock(client, T0);
  const world = await createWorld(client, 'identify applications.entitlements');
  const other = (await client.post('/sandbox/applications', { name: 'Other game' })).body;
  return { client, ...world, otherApplication: other.application, otherBotAuth: `Bot ${other.bot_token}` };
}

/** Creates a SKU through the sandbox; expects 201. */
export async function createSku(client: TestClient, applicationId: string, body: Record<string, unknown>) {
  const res = await client.post(`/sandbox/applications/${applicationId}/skus`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { sku: any; group: any };
}

/** A user subscription SKU (priced), a durable and a consumable one of `applicationId`. */
export async function catalog(client: TestClient, applicationId: string) {
  const premium = (
    await createSku(client, applicationId, { name: 'Premium', type: 5, price: { amount: 499, currency: 'usd' } })
  ).sku;
  const durable = (
    await createSku(client, applicationId, { name: 'Soundtrack', type: 2, price: { amount: 299, currency: 'usd' } })
  ).sku;
  const consumable = (
    await createSku(client, applicationId, { name: 'Gold Pack', type: 3, price: { amount: 99, currency: 'usd' } })
  ).sku;
  return { premium, durable, consumable };
}

/** Completes a sandbox purchase; expects 201. */
export async function purchase(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post('/sandbox/purchases', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { entitlement: any; subscription: any };
}

/** The logged events of `types` (all monetization events unless given), oldest first. */
export async function loggedEvents(client: TestClient, types: string[] = MONETIZATION_EVENTS) {
  return (await client.db.getAll('events')).filter((e) => types.includes(e.type));
}

/** Expects a 400 / 50035 naming `field`. */
export function expectInvalidField(res: JsonReply, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(50035);
  let node = res.body.errors;
  for (const part of field.split('.')) node = node?.[part];
  expect(node?._errors?.length, JSON.stringify(res.body)).toBeGreaterThan(0);
}

/** Expects an error answer with this status and code. */
export function expectError(res: JsonReply, status: number, code: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
}

/** How many records each monetization store holds (a failed request changes none). */
export async function monetizationCounts(client: TestClient) {
  const db = client.db;
  return {
    skus: await db.count('skus'),
    entitlements: await db.count('entitlements'),
    subscriptions: await db.count('subscriptions'),
    events: await db.count('events'),
  };
}
