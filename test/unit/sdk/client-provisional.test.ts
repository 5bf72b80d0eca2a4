// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { EXTERNAL_AUTH_TYPES } from '../../../src/platform/accounts/provisional-config';
import { AuthorizationArgs } from '../../../src/sdk/authorization-args';
import { Client } from '../../../src/sdk/client';
import { ExternalAuthType } from '../../../src/sdk/client-provisional';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
import { AuthorizationTokenType } from '../../../src/sdk/types';
import { createSdkHarness, type SdkHarness } from './sdk-harness';

let h: SdkHarness;
afterEach(async () => {
  await h?.close();
});

async function rejection(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
}

/** The harness with the game trusting a sandbox OpenID Connect provider; `idToken(sub)` mints one. */
async function oidcHarness() {
  h = await createSdkHarness();
  const idp = (await h.api.post('/sandbox/identity-providers', { audience: 'game-client' })).body.identity_provider;
  const configured = await h.api.put(`/sandbox/applications/${h.world.application.id}/identity-provider`, {
    issuer: idp.issuer,
    audience: 'game-client',
  });
  expect(configured.status).toBe(200);
  const idToken = async (sub: string): Promise<string> =>
    (await h.api.post(`/sandbox/identity-providers/${idp.id}/id-tokens`, { sub })).body.id_token;
  const me = async (token: string) => h.api.get('/api/v10/users/@me', `Bearer ${token}`);
  return { idToken, me };
}

/** Authorizes `userId` through the SDK (consent + PKCE): the code, its verifier and redirect URI. */
async function authorized(client: Client) {
  const { challenge, verifier } = await client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.setScopes(Client.getDefaultCommunicationScopes());
  args.setCodeChallenge(challenge);
  const { code, redirectUri } = await client.authorize(args);
  return { code, verifier, redirectUri };
}

describe('Client: provisional accounts (Authentication rule 4)', () => {
  it('ExternalAuthType names every external_auth_type the platform accepts', () => {
    expect(Object.values(ExternalAuthType).sort()).toEqual([...EXTERNAL_AUTH_TYPES].sort());
  });

  it('getProvisionalToken: an OIDC identity gets a provisional account, the same one every time, that connects like any account', async () => {
    const { idToken, me } = await oidcHarness();
    const client = h.client();
    const first = await client.getProvisionalToken(
      h.world.application.id,
      ExternalAuthType.OIDC,
      await idToken('player-1'),
    );
    expect(first).toMatchObject({
      tokenType: AuthorizationTokenType.Bearer,
      scopes: 'sdk.social_layer',
      refreshToken: null,
    });
    const again = await client.getProvisionalToken(
      h.world.application.id,
      ExternalAuthType.OIDC,
      await idToken('player-1'),
    );
    const user = (await me(first.accessToken)).body;
    expect((await me(again.accessToken)).body.id).toBe(user.id);
    await client.updateToken(AuthorizationTokenType.Bearer, first.accessToken);
    await client.connect();
    expect(client.getCurrentUserV2()?.id).toBe(user.id);
    expect((await client.createOrJoinLobby('provisional-lobby')).members.map((m) => m.id)).toEqual([user.id]);
  });

  it("getProvisionalToken refuses an unknown auth type or an empty token before any request, and relays the platform's refusal of a bad token", async () => {
    await oidcHarness();
    const client = h.client();
    expect(
      (await rejection(client.getProvisionalToken(h.world.application.id, 'PASSWORD' as never, 'x'))).message,
    ).toMatch(/ExternalAuthType/);
    expect((await rejection(client.getProvisionalToken(h.world.application.id, ExternalAuthType.OIDC, ''))).type).toBe(
      ErrorType.ValidationError,
    );
    expect(h.requests).toEqual([]);
    const refused = await rejection(
      client.getProvisionalToken(h.world.application.id, ExternalAuthType.OIDC, 'not.a.jwt'),
    );
    expect(refused).toMatchObject({ type: ErrorType.HTTPError, status: 400 });
  });

  it('getTokenFromProvisionalMerge merges the provisional account into the account that authorized; unmergeIntoProvisionalAccount splits it off again', async () => {
    const { idToken, me } = await oidcHarness();
    const game = h.client({ userId: h.world.alice.id });
    const provisional = await game.getProvisionalToken(
      h.world.application.id,
      ExternalAuthType.OIDC,
      await idToken('player-7'),
    );
    const provisionalId = (await me(provisional.accessToken)).body.id;
    const { code, verifier, redirectUri } = await authorized(game);
    const merged = await game.getTokenFromProvisionalMerge(
      h.world.application.id,
      code,
      verifier,
      redirectUri,
      ExternalAuthType.OIDC,
      await idToken('player-7'),
    );
    expect((await me(merged.accessToken)).body.id).toBe(h.world.alice.id);
    // The identity now signs in as alice.
    const signIn = await game
      .getProvisionalToken(h.world.application.id, ExternalAuthType.OIDC, await idToken('player-7'))
      .then(
        () => null,
        (e: SdkError) => e,
      );
    expect(signIn?.code).toBe(530010);

    await game.unmergeIntoProvisionalAccount(h.world.application.id, ExternalAuthType.OIDC, await idToken('player-7'));
    expect((await me(merged.accessToken)).status).toBe(401);
    const split = await game.getProvisionalToken(
      h.world.application.id,
      ExternalAuthType.OIDC,
      await idToken('player-7'),
    );
    expect([provisionalId, h.world.alice.id]).not.toContain((await me(split.accessToken)).body.id);
  });

  it('merging an account affected by a ban fails with 530017 (Authentication rule 8)', async () => {
    const { idToken, me } = await oidcHarness();
    const game = h.client({ userId: h.world.bob.id });
    const provisional = await game.getProvisionalToken(
      h.world.application.id,
      ExternalAuthType.OIDC,
      await idToken('player-9'),
    );
    const provisionalId = (await me(provisional.accessToken)).body.id;
    const { code, verifier, redirectUri } = await authorized(game);
    expect((await h.api.post(`/sandbox/users/${provisionalId}/ban`, {})).status).toBe(204);
    const error = await rejection(
      game.getTokenFromProvisionalMerge(
        h.world.application.id,
        code,
        verifier,
        redirectUri,
        ExternalAuthType.OIDC,
        await idToken('player-9'),
      ),
    );
    expect(error).toMatchObject({ type: ErrorType.HTTPError, status: 400, code: 530017 });
  });

  it('a ban of the account that authorized deletes its pending code: the merge is then invalid_grant', async () => {
    const { idToken } = await oidcHarness();
    const game = h.client({ userId: h.world.bob.id });
    await game.getProvisionalToken(h.world.application.id, ExternalAuthType.OIDC, await idToken('player-9'));
    const { code, verifier, redirectUri } = await authorized(game);
    expect((await h.api.post(`/sandbox/users/${h.world.bob.id}/ban`, {})).status).toBe(204);
    const error = await rejection(
      game.getTokenFromProvisionalMerge(
        h.world.application.id,
        code,
        verifier,
        redirectUri,
        ExternalAuthType.OIDC,
        await idToken('player-9'),
      ),
    );
    expect(error).toMatchObject({ type: ErrorType.AuthorizationFailed, status: 400, code: 'invalid_grant' });
  });
});

describe('Client.exchangeChildToken: publisher-level account linking (Authentication rule 6)', () => {
  it("a public client's parent token becomes a token of the same user for an approved child game", async () => {
    h = await createSdkHarness();
    const child = (await h.api.post('/sandbox/applications', { name: 'Game Two', owner_id: h.world.alice.id })).body
      .application;
    expect((await h.api.put(`/sandbox/applications/${h.world.application.id}/children/${child.id}`, {})).status).toBe(
      200,
    );
    const publisher = h.client({ userId: h.world.alice.id });
    const { code, verifier, redirectUri } = await authorized(publisher);
    const parent = await publisher.getToken(h.world.application.id, code, verifier, redirectUri);
    const childTokens = await publisher.exchangeChildToken(parent.accessToken, child.id);
    expect(childTokens.refreshToken).toBeNull();
    const game = h.client({ applicationId: child.id });
    await game.updateToken(AuthorizationTokenType.Bearer, childTokens.accessToken);
    await game.connect();
    expect(game.getCurrentUserV2()?.id).toBe(h.world.alice.id);
    expect((await h.api.get('/oauth2/@me', `Bearer ${childTokens.accessToken}`)).body.application.id).toBe(child.id);
  });

  it('a pair that is not approved is refused (403, 20012)', async () => {
    h = await createSdkHarness();
    const stranger = (await h.api.post('/sandbox/applications', { name: 'Not Ours' })).body.application;
    const publisher = h.client({ userId: h.world.alice.id });
    const { code, verifier, redirectUri } = await authorized(publisher);
    const parent = await publisher.getToken(h.world.application.id, code, verifier, redirectUri);
    expect(await rejection(publisher.exchangeChildToken(parent.accessToken, stranger.id))).toMatchObject({
      status: 403,
      code: 20012,
    });
  });
});
