import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { AuthorizationArgs } from '../../src/sdk/authorization-args';
import { postAuthorizeRequest } from '../../src/sdk/authorize-requests';
import { Client } from '../../src/sdk/client';
import { ErrorType, SdkError } from '../../src/sdk/errors';
import { LoggingSeverity } from '../../src/sdk/logger';
import { Status } from '../../src/sdk/status';
import { AuthorizationTokenType, type LobbyMessage } from '../../src/sdk/types';
import { registerPlatformWorker, resetSandbox } from './harness';

/** A sandbox fixture call, answered by the service worker. */
async function sandbox(path: string, body: unknown) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return response.json();
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const clients: Client[] = [];
/** A client of the page's defaults: fetch (the service worker), GatewaySocket, the consent dialog. */
function pageClient(applicationId: string, userId: string): Client {
  const client = new Client({ applicationId, userId, build: 'debug' });
  clients.push(client);
  return client;
}

/**
 * The whole account flow in the page: authorize (the test clicks "Authorize" in the consent
 * dialog), getToken with the PKCE verifier, updateToken, connect. Answers the tokens.
 */
async function signIn(client: Client, applicationId: string) {
  const { challenge, verifier } = await client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.setScopes(Client.getDefaultCommunicationScopes());
  args.setCodeChallenge(challenge);
  const authorizing = client.authorize(args);
  await expect.element(page.getByRole('heading', { name: 'Authorize Arena' })).toBeVisible();
  await page.getByRole('button', { name: 'Authorize' }).click();
  const { code, redirectUri } = await authorizing;
  const tokens = await client.getToken(applicationId, code, verifier, redirectUri);
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await client.connect();
  return tokens;
}

describe('the game SDK Client in real Chromium (service worker + shared-worker gateway)', () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.destroy()));
    document.body.replaceChildren();
  });

  it('two users authorize through the consent dialog, join one lobby and exchange messages through the gateway', async () => {
    const alice = (await sandbox('/sandbox/users', { username: 'alice' })).user;
    const bob = (await sandbox('/sandbox/users', { username: 'bob' })).user;
    const appId = (await sandbox('/sandbox/applications', { name: 'Arena' })).application.id;

    const aliceClient = pageClient(appId, alice.id);
    const bobClient = pageClient(appId, bob.id);
    const lines: string[] = [];
    aliceClient.addLogCallback((line) => lines.push(line), LoggingSeverity.Verbose);
    const statuses: Status[] = [];
    aliceClient.setStatusChangedCallback((status) => statuses.push(status));
    expect(aliceClient.getCurrentUserV2()).toBeUndefined();

    const aliceTokens = await signIn(aliceClient, appId);
    expect(statuses).toEqual([Status.HttpWait, Status.Connecting, Status.Connected, Status.Ready]);
    expect(aliceClient.getCurrentUserV2()).toMatchObject({ id: alice.id, username: 'alice' });
    const bobTokens = await signIn(bobClient, appId);
    expect(bobClient.getCurrentUserV2()?.id).toBe(bob.id);
    expect(document.querySelector('pp-consent-dialog')).toBeNull();

    const heard = { alice: [] as LobbyMessage[], bob: [] as LobbyMessage[] };
    aliceClient.setMessageCreatedCallback((_id, message) => heard.alice.push(message));
    bobClient.setMessageCreatedCallback((_id, message) => heard.bob.push(message));
    const joined: string[] = [];
    aliceClient.setLobbyMemberAddedCallback((_lobby, memberId) => joined.push(memberId));

    const lobby = await aliceClient.createOrJoinLobby('arena-1', { map: 'dust' });
    expect((await bobClient.createOrJoinLobby('arena-1')).id).toBe(lobby.id);
    await waitFor(() => joined.includes(bob.id), 'LOBBY_MEMBER_ADD of bob at alice');

    await aliceClient.sendLobbyMessage(lobby.id, 'hello bob');
    await bobClient.sendLobbyMessage(lobby.id, 'hi alice');
    await waitFor(() => heard.alice.length === 2 && heard.bob.length === 2, 'both messages at both clients');
    for (const messages of [heard.alice, heard.bob]) {
      expect(messages.map((m) => [m.content, m.author.id])).toEqual([
        ['hello bob', alice.id],
        ['hi alice', bob.id],
      ]);
    }
    expect((await bobClient.getLobbyMessagesWithLimit(lobby.id, 200)).map((m) => m.content)).toEqual([
      'hi alice',
      'hello bob',
    ]);

    // The debug log of a whole session carries no token.
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [aliceTokens.accessToken, aliceTokens.refreshToken!, bobTokens.accessToken]) {
      for (const line of lines) expect(line).not.toContain(secret);
    }

    await aliceClient.disconnect();
    expect(statuses.slice(-2)).toEqual([Status.Disconnecting, Status.Disconnected]);
    expect(aliceClient.getCurrentUserV2()).toBeUndefined();
  });

  it('"Cancel" in the consent dialog rejects authorize with Aborted / access_denied', async () => {
    const alice = (await sandbox('/sandbox/users', { username: 'alice' })).user;
    const appId = (await sandbox('/sandbox/applications', { name: 'Arena' })).application.id;
    const client = pageClient(appId, alice.id);
    const args = new AuthorizationArgs();
    args.setScopes(Client.getDefaultPresenceScopes());
    const authorizing = client.authorize(args).then(
      () => null,
      (e: unknown) => e,
    );
    await expect.element(page.getByRole('dialog')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    const error = await authorizing;
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ type: ErrorType.Aborted, code: 'access_denied' });
  });

  it('AUTHORIZE_REQUEST posted by the host page reaches the game over BroadcastChannel', async () => {
    const alice = (await sandbox('/sandbox/users', { username: 'alice' })).user;
    const appId = (await sandbox('/sandbox/applications', { name: 'Arena' })).application.id;
    const client = pageClient(appId, alice.id);
    const requests: string[] = [];
    client.registerAuthorizeRequestCallback((request) => requests.push(request.applicationId));
    postAuthorizeRequest({ applicationId: appId, userId: alice.id });
    await waitFor(() => requests.length === 1, 'the request');
    expect(requests).toEqual([appId]);
  });
});
