/**
 * Webhook test fixtures: a fake endpoint standing in for the network, which checks signatures
 * with node's own crypto (independently of the platform's WebCrypto code), and helpers to
 * configure an application's event webhooks and to authorize it as a new user.
 */
import { createPublicKey, verify } from 'node:crypto';
import { expect } from 'vitest';
import type { FetchLike } from '../../../src/platform/oauth2/oidc';
import { createTestClient, createWorld, type TestClient } from '../app-harness';

/** One request the fake endpoint received. */
export interface Received {
  url: string;
  payload: any;
  body: string;
  signature: string | null;
  timestamp: string | null;
  signatureValid: boolean;
  answered: number;
}

/** Ed25519 over `timestamp + body`, checked with node:crypto against the hex `verify_key`. */
export function nodeVerify(
  verifyKey: string,
  signature: string | null,
  timestamp: string | null,
  body: string,
): boolean {
  if (!signature || !timestamp) return false;
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(verifyKey, 'hex').toString('base64url') },
    format: 'jwk',
  });
  return verify(null, Buffer.from(timestamp + body), key, Buffer.from(signature, 'hex'));
}

/**
 * A correct endpoint: 401 to a bad signature, else what `answer` says (204 by default). `down`
 * makes every request fail as a network error does offline.
 */
export function fakeEndpoint(answer: (payload: any) => number = () => 204) {
  const received: Received[] = [];
  const state = { verifyKey: '', down: false };
  const fetch: FetchLike = async (url, init = {}) => {
    if (state.down) throw new TypeError('Failed to fetch');
    const headers = new Headers(init.headers);
    const body = String(init.body);
    const signature = headers.get('x-signature-ed25519');
    const timestamp = headers.get('x-signature-timestamp');
    const signatureValid = nodeVerify(state.verifyKey, signature, timestamp, body);
    const payload = JSON.parse(body);
    const answered = signatureValid ? answer(payload) : 401;
    received.push({ url, payload, body, signature, timestamp, signatureValid, answered });
    return new Response(null, { status: answered });
  };
  return {
    fetch,
    received,
    state,
    /** The Event requests (type 1) it received. */
    events: () => received.filter((r) => r.payload.type === 1),
  };
}

/** A fake endpoint, an app using it, and a world whose application's verify_key the endpoint trusts. */
export async function webhookWorld(answer?: (payload: any) => number) {
  const endpoint = fakeEndpoint(answer);
  const client = await createTestClient({ webhookFetch: endpoint.fetch });
  const world = await createWorld(client);
  const settings = (await client.get(`/sandbox/applications/${world.application.id}/event-webhooks`)).body;
  endpoint.state.verifyKey = settings.verify_key;
  return { client, world, endpoint, verifyKey: settings.verify_key as string };
}

export const HOOK_URL = 'https://game.example/webhooks';

/** Sets the application's event webhooks; expects success. */
export async function enableWebhooks(
  client: TestClient,
  applicationId: string,
  types: string[] = ['APPLICATION_AUTHORIZED', 'APPLICATION_DEAUTHORIZED'],
  url = HOOK_URL,
) {
  const res = await client.put(`/sandbox/applications/${applicationId}/event-webhooks`, { url, types, enabled: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A new user who authorizes the application at the consent step (a first authorization). */
export async function authorizeNewUser(client: TestClient, applicationId: string, username = 'carol') {
  const user = (await client.post('/sandbox/users', { username })).body.user;
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: applicationId,
    scope: 'identify guilds',
    integration_type: '1',
  });
  const res = await client.post(`/oauth2/authorize?${query}`, { authorize: true, user_id: user.id });
  expect(res.status).toBe(200);
  await client.app.webhooks.settled();
  return user;
}

/** The sandbox's deliveries list. */
export async function deliveries(client: TestClient, query = ''): Promise<any[]> {
  await client.app.webhooks.settled();
  const res = await client.get(`/sandbox/webhook-deliveries${query}`);
  expect(res.status).toBe(200);
  return res.body.deliveries;
}

/** Freezes the sandbox clock at `iso`, lets the outbox run, and resolves once it is done. */
export async function setClock(client: TestClient, iso: string | number): Promise<void> {
  const now = typeof iso === 'number' ? new Date(iso).toISOString() : iso;
  expect((await client.put('/sandbox/clock', { now })).status).toBe(200);
  await client.app.webhooks.settled();
}
