// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizationArgs, IntegrationType } from '../../../src/sdk/authorization-args';
import { Client } from '../../../src/sdk/client';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
import { AuthorizationTokenType } from '../../../src/sdk/types';
import { Status } from '../../../src/sdk/status';
import { createSdkHarness, type SdkHarness } from './sdk-harness';

let h: SdkHarness;
afterEach(async () => {
  await h?.close();
});

/** Arguments with the communication scopes and a fresh PKCE challenge. */
async function pkceArgs(client: Client) {
  const pair = await client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.setScopes(Client.getDefaultCommunicationScopes());
  args.setCodeChallenge(pair.challenge);
  return { args, verifier: pair.verifier };
}

/** The query of the last `/oauth2/authorize` request of `method`. */
function authorizeQuery(method: 'GET' | 'POST'): URLSearchParams {
  const request = h.requests
    .filter((r) => r.method === method && new URL(r.url).pathname === '/oauth2/authorize')
    .at(-1)!;
  return new URL(request.url).searchParams;
}

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

describe('Client: default scopes', () => {
  it('GetDefaultCommunicationScopes is "openid sdk.social_layer" and GetDefaultPresenceScopes "openid sdk.social_layer_presence", static and on an instance', async () => {
    h = await createSdkHarness();
    expect(Client.getDefaultCommunicationScopes()).toBe('openid sdk.social_layer');
    expect(Client.getDefaultPresenceScopes()).toBe('openid sdk.social_layer_presence');
    const client = h.client();
    expect(client.getDefaultCommunicationScopes()).toBe('openid sdk.social_layer');
    expect(client.getDefaultPresenceScopes()).toBe('openid sdk.social_layer_presence');
  });
});

describe('Client.authorize -> getToken -> updateToken (authorization code with PKCE S256)', () => {
  it('the consent of the host platform client gives a code that getToken exchanges for working tokens', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const { args, verifier } = await pkceArgs(client);
    const { code, redirectUri } = await client.authorize(args);
    expect(h.consents).toEqual([
      {
        application: expect.objectContaining({ id: h.world.application.id, name: 'Game' }),
        scopes: ['openid', 'sdk.social_layer'],
        user: { id: h.world.alice.id, username: 'alice' },
      },
    ]);
    expect(authorizeQuery('POST').get('code_challenge_method')).toBe('S256');
    const tokens = await client.getToken(h.world.application.id, code, verifier, redirectUri);
    expect(tokens).toMatchObject({
      tokenType: AuthorizationTokenType.Bearer,
      scopes: 'openid sdk.social_layer',
      expiresIn: expect.any(Number),
    });
    expect(tokens.refreshToken).toEqual(expect.any(String));
    await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await client.connect();
    expect(client.getCurrentUserV2()).toMatchObject({ id: h.world.alice.id, username: 'alice' });
  });

  it('authorize refuses arguments without Scopes, with a clear error, and asks nobody', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    for (const scopes of ['', '   ']) {
      const args = new AuthorizationArgs();
      args.setScopes(scopes);
      const error = await rejection(client.authorize(args));
      expect(error.type).toBe(ErrorType.ValidationError);
      expect(error.message).toMatch(/Scopes is required/);
    }
    expect((await rejection(client.authorize(AuthorizationArgs.nullobj))).message).toMatch(/holds no object/);
    expect(h.consents).toEqual([]);
    expect(h.requests).toEqual([]);
  });

  it('unset ClientId takes the value set by Client.setApplicationId; a set ClientId wins', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id, applicationId: undefined });
    const args = new AuthorizationArgs();
    args.setScopes('openid');
    expect((await rejection(client.authorize(args))).message).toMatch(/setApplicationId/);
    client.setApplicationId(h.world.application.id);
    await client.authorize(args);
    expect(authorizeQuery('GET').get('client_id')).toBe(h.world.application.id);
    const other = (await h.api.post('/sandbox/applications', { name: 'Other' })).body.application;
    args.setClientId(other.id);
    await client.authorize(args);
    expect(authorizeQuery('GET').get('client_id')).toBe(other.id);
  });

  it('unset State is a fresh secure random value on every authorize, and the arguments stay unset', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const args = new AuthorizationArgs();
    args.setScopes('openid');
    const states = new Set<string>();
    for (let i = 0; i < 5; i++) states.add((await client.authorize(args)).state);
    expect(states.size).toBe(5);
    for (const state of states) expect(state).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(args.state()).toBeUndefined();
    args.setState('my-state');
    expect((await client.authorize(args)).state).toBe('my-state');
    expect(authorizeQuery('POST').get('state')).toBe('my-state');
  });

  it('the redirect URI is platform-<application_id>:/authorize/callback, or <scheme>:/authorize/callback with CustomSchemeParam, and getToken must repeat it', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const { args, verifier } = await pkceArgs(client);
    const standard = await client.authorize(args);
    expect(standard.redirectUri).toBe(`platform-${h.world.application.id}:/authorize/callback`);
    expect(authorizeQuery('POST').get('redirect_uri')).toBe(standard.redirectUri);
    const wrong = await rejection(
      client.getToken(h.world.application.id, standard.code, verifier, 'mygame:/authorize/callback'),
    );
    expect(wrong).toMatchObject({ type: ErrorType.AuthorizationFailed, code: 'invalid_grant', status: 400 });

    args.setCustomSchemeParam('mygame');
    const custom = await client.authorize(args);
    expect(custom.redirectUri).toBe('mygame:/authorize/callback');
    const tokens = await client.getToken(h.world.application.id, custom.code, verifier, custom.redirectUri);
    expect(tokens.accessToken).toEqual(expect.any(String));
  });

  it('Nonce and IntegrationType travel with the authorization request', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const args = new AuthorizationArgs();
    args.setScopes('openid');
    args.setNonce('n-123');
    args.setIntegrationType(IntegrationType.GuildInstall);
    await client.authorize(args);
    expect(authorizeQuery('GET').get('nonce')).toBe('n-123');
    expect(authorizeQuery('GET').get('integration_type')).toBe('0');
  });

  it('Nonce comes back in the ID token getToken answers when openid is granted (OpenID Connect nonce), and not without one', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const claims = (idToken: string | undefined) =>
      JSON.parse(Buffer.from(idToken!.split('.')[1], 'base64url').toString('utf8'));
    const { args, verifier } = await pkceArgs(client);
    args.setNonce('game-nonce-7');
    const withNonce = await client.authorize(args);
    const tokens = await client.getToken(h.world.application.id, withNonce.code, verifier, withNonce.redirectUri);
    expect(claims(tokens.idToken)).toMatchObject({
      sub: h.world.alice.id,
      aud: h.world.application.id,
      nonce: 'game-nonce-7',
    });
    const plain = await pkceArgs(client);
    const without = await client.authorize(plain.args);
    expect(
      claims(
        (await client.getToken(h.world.application.id, without.code, plain.verifier, without.redirectUri)).idToken,
      ),
    ).not.toHaveProperty('nonce');
  });

  it('getToken with a verifier that does not match the challenge is invalid_grant', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const { args } = await pkceArgs(client);
    const { code, redirectUri } = await client.authorize(args);
    const other = await client.createAuthorizationCodeVerifier();
    const error = await rejection(client.getToken(h.world.application.id, code, other.verifier, redirectUri));
    expect(error).toMatchObject({ type: ErrorType.AuthorizationFailed, code: 'invalid_grant' });
    expect(error.message).toMatch(/code_verifier/);
  });

  it('"Cancel" in the consent dialog rejects with Aborted / access_denied and issues no code', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id, consent: async () => false });
    const args = new AuthorizationArgs();
    args.setScopes('openid');
    const error = await rejection(client.authorize(args));
    expect(error).toMatchObject({ type: ErrorType.Aborted, code: 'access_denied' });
    expect(error.message).toMatch(/did not authorize Game/);
    expect(await h.api.app.ctx.db.count('auth_codes')).toBe(0);
  });

  it('authorize without a simulated user says how to give one', async () => {
    h = await createSdkHarness();
    const args = new AuthorizationArgs();
    args.setScopes('openid');
    expect((await rejection(h.client().authorize(args))).message).toMatch(/userId/);
  });

  it('the callback form of authorize gets (result, code, redirectUri); result.successful tells failure apart', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const args = new AuthorizationArgs();
    args.setScopes('openid');
    const ok = await new Promise<[boolean, string, string]>(
      (resolve) => void client.authorize(args, (result, code, uri) => resolve([result.successful, code, uri])),
    );
    expect(ok[0]).toBe(true);
    expect(ok[1]).not.toBe('');
    expect(ok[2]).toBe(`platform-${h.world.application.id}:/authorize/callback`);
    const failed = await new Promise<[boolean, string]>(
      (resolve) => void client.authorize(new AuthorizationArgs(), (result, code) => resolve([result.successful, code])),
    );
    expect(failed).toEqual([false, '']);
  });
});

describe('Client: refreshToken, revokeToken, updateToken', () => {
  async function tokensFor(client: Client) {
    const { args, verifier } = await pkceArgs(client);
    const { code, redirectUri } = await client.authorize(args);
    return client.getToken(h.world.application.id, code, verifier, redirectUri);
  }

  it('refreshToken rotates the pair; the old refresh token is then invalid_grant, to be treated as a deauthorization', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const first = await tokensFor(client);
    const second = await client.refreshToken(h.world.application.id, first.refreshToken!);
    expect(second.accessToken).not.toBe(first.accessToken);
    const error = await rejection(client.refreshToken(h.world.application.id, first.refreshToken!));
    expect(error).toMatchObject({ type: ErrorType.AuthorizationFailed, code: 'invalid_grant', status: 400 });
    expect(error.message).toMatch(/can no longer be used: authorize again/);
  });

  it("updateToken with the refreshed token while connected reconnects as the same user (the refresh ended the old token's session)", async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const first = await tokensFor(client);
    await client.updateToken(AuthorizationTokenType.Bearer, first.accessToken);
    await client.connect();
    const second = await client.refreshToken(h.world.application.id, first.refreshToken!);
    await client.updateToken(AuthorizationTokenType.Bearer, second.accessToken);
    expect(client.getStatus()).toBe(Status.Ready);
    expect(client.getCurrentUserV2()).toMatchObject({ id: h.world.alice.id });
    const identifies = h.sockets.flatMap((s) => s.sent).filter((p: any) => p.op === 2);
    expect(identifies.at(-1).d.token).toBe(`Bearer ${second.accessToken}`);
  });

  it('revokeToken ends the pair: the access token no longer opens the API', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const tokens = await tokensFor(client);
    await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    await client.createOrJoinLobby('before-revoke');
    await client.revokeToken(h.world.application.id, tokens.accessToken);
    expect(await rejection(client.createOrJoinLobby('after-revoke'))).toMatchObject({
      type: ErrorType.HTTPError,
      status: 401,
    });
  });

  it('updateToken sets the token of HTTP calls and of connect(); without it both say a token is needed', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    expect(await rejection(client.createOrJoinLobby('x'))).toMatchObject({ type: ErrorType.ClientNotReady });
    expect((await rejection(client.connect())).message).toMatch(/updateToken/);
    expect((await rejection(client.updateToken(7 as never, 'abc'))).type).toBe(ErrorType.ValidationError);
    expect((await rejection(client.updateToken(AuthorizationTokenType.Bearer, ''))).type).toBe(
      ErrorType.ValidationError,
    );
    const tokens = await tokensFor(client);
    await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
    expect((await client.createOrJoinLobby('x')).members.map((m) => m.id)).toEqual([h.world.alice.id]);
  });

  it('a token the platform refuses stops connect() in HttpWait with ConnectionFailed and the HTTP status', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    const statuses: [number, number, number][] = [];
    client.setStatusChangedCallback((status, error, detail) => statuses.push([status, error, detail]));
    await client.updateToken(AuthorizationTokenType.Bearer, 'not-a-token-of-this-platform');
    expect(await rejection(client.connect())).toMatchObject({ type: ErrorType.HTTPError, status: 401 });
    expect(statuses).toEqual([
      [6, 0, 0],
      [0, 1, 401],
    ]);
    expect(h.sockets).toHaveLength(0);
  });
});
