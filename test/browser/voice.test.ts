import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewaySocket } from '../../src/sockets/gateway-socket';
import { VoiceGatewaySocket } from '../../src/sockets/voice-gateway-socket';
import { type Call } from '../../src/sdk/call';
import { CallStatus } from '../../src/sdk/call-status';
import { Client } from '../../src/sdk/client';
import { AuthorizationTokenType } from '../../src/sdk/types';
import { registerPlatformWorker, resetSandbox } from './harness';

/** A JSON request to the platform, answered by the service worker. */
async function call(method: string, path: string, body?: unknown, auth?: string) {
  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let hubCounter = 0;
/** A hub of its own per test: a fresh shared worker. */
const freshHub = () => `platformpp-hub-voice-${Date.now()}-${++hubCounter}`;

const clients: Client[] = [];

/** A Ready SDK client of `userId` whose gateway and voice sockets go through the hub `hubName`. */
async function readyClient(applicationId: string, userId: string, hubName: string): Promise<Client> {
  const tokens = (
    await call('POST', '/sandbox/tokens', {
      application_id: applicationId,
      user_id: userId,
      scopes: 'openid sdk.social_layer',
    })
  ).body;
  const client = new Client({
    applicationId,
    userId,
    socketFactory: (url) => new GatewaySocket(url, undefined, { hubName }),
    voiceSocketFactory: (url) => new VoiceGatewaySocket(url, undefined, { hubName }),
  });
  clients.push(client);
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.access_token);
  await client.connect();
  return client;
}

describe('voice calls in real Chromium: the voice gateway in the shared worker', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.destroy()));
  });

  it('the hub serves the voice gateway at /voice: a version is required (4020 without one), Hello with one', async () => {
    const hubName = freshHub();
    const refused = new VoiceGatewaySocket('/voice', undefined, { hubName });
    const closed = await new Promise<CloseEvent>((resolve) =>
      refused.addEventListener('close', (event) => resolve(event as CloseEvent)),
    );
    expect(closed.code).toBe(4020);
    const accepted = new VoiceGatewaySocket('/voice?v=8', undefined, { hubName });
    const hello = await new Promise<MessageEvent>((resolve) =>
      accepted.addEventListener('message', (event) => resolve(event as MessageEvent)),
    );
    expect(JSON.parse(hello.data)).toEqual({ op: 8, d: { heartbeat_interval: expect.any(Number) } });
    accepted.close(1000);
  });

  it('two users join one lobby call through the shared worker and each sees the other connect', async () => {
    const alice = (await call('POST', '/sandbox/users', { username: 'alice' })).body.user;
    const bob = (await call('POST', '/sandbox/users', { username: 'bob' })).body.user;
    const app = (await call('POST', '/sandbox/applications', { name: 'Arena' })).body.application;
    const hubName = freshHub();
    const aliceClient = await readyClient(app.id, alice.id, hubName);
    const bobClient = await readyClient(app.id, bob.id, hubName);
    const lobby = await aliceClient.createOrJoinLobby('voice-room');
    await bobClient.createOrJoinLobby('voice-room');

    const aliceCall: Call = aliceClient.startCall(lobby.id);
    const aliceSaw: string[] = [];
    aliceCall.setParticipantChangedCallback((userId, added) => added && aliceSaw.push(userId));
    await waitFor(() => aliceCall.getStatus() === CallStatus.Connected, 'alice Connected');
    const bobCall: Call = bobClient.startCall(lobby.id);
    await waitFor(() => bobCall.getStatus() === CallStatus.Connected, 'bob Connected');
    await waitFor(() => aliceCall.getParticipants().includes(bob.id), 'alice to see bob connect');
    expect(aliceSaw).toContain(bob.id);
    expect(bobCall.getParticipants().sort()).toEqual([alice.id, bob.id].sort());

    await bobClient.endCall(lobby.id);
    await waitFor(() => !aliceCall.getParticipants().includes(bob.id), 'alice to see bob disconnect');
    expect(aliceCall.getStatus()).toBe(CallStatus.Connected);
  });
});
