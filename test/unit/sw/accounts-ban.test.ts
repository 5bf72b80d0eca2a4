// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient } from '../app-harness';
import { prepareTokenPair } from '../../../src/platform/oauth2/tokens';
import { allEvents, form, oidcWorld } from './accounts-fixtures';

/** A world where alice's account is linked to the game identity `player-1` (a merged provisional account). */
async function linkedWorld() {
  const client = await createTestClient();
  const w = await oidcWorld(client);
  await w.provisional(await w.idToken('player-1'));
  const merged = (await w.merge(await w.authorizationCode(w.alice.id), await w.idToken('player-1'))).body;
  return { client, w, merged };
}

describe('ban: linked game account after a ban (spec state table)', () => {
  it("the banned user's tokens are deleted at once: 401 on the next request, and token refresh is invalid_grant", async () => {
    const { client, w, merged } = await linkedWorld();
    expect((await client.post(`/sandbox/users/${w.alice.id}/ban`, {})).status).toBe(204);
    expect((await client.get('/api/v10/users/@me', w.aliceAuth)).status).toBe(401);
    expect((await w.me(merged.access_token)).status).toBe(401);
    for (const refresh of [merged.refresh_token, w.aliceTokens.refresh_token]) {
      const res = await form(client, '/oauth2/token', {
        grant_type: 'refresh_token',
        refresh_token: refresh,
        client_id: w.application.id,
        client_secret: w.clientSecret,
      });
      expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
    }
    // Others keep theirs.
    expect((await client.get('/api/v10/users/@me', w.bobAuth)).status).toBe(200);
  });

  it('each linked game account becomes a new provisional account, restricted cross-platform, carrying the original external identity', async () => {
    const { client, w } = await linkedWorld();
    await client.post(`/sandbox/users/${w.alice.id}/ban`, {});
    const signIn = await w.provisional(await w.idToken('player-1'));
    expect(signIn.status).toBe(200);
    const replacementId = (await w.me(signIn.body.access_token)).body.id;
    expect(replacementId).not.toBe(w.alice.id);
    expect((await client.app.ctx.db.get('users', replacementId))?.provisional).toBe(true);
    const identities = (await client.get(`/sandbox/users/${replacementId}/external-identities`)).body
      .external_identities;
    expect(identities).toEqual([
      {
        application_id: w.application.id,
        provider: `OIDC ${w.idp.issuer}`,
        subject: 'player-1',
        auth_type: 'OIDC',
        restricted_cross_platform: true,
        banned_user_id: w.alice.id,
      },
    ]);
    expect((await client.get(`/sandbox/users/${w.alice.id}/external-identities`)).body.external_identities).toEqual([]);
  });

  it('merge attempts return 530017 until the ban is lifted', async () => {
    const { client, w } = await linkedWorld();
    await client.post(`/sandbox/users/${w.alice.id}/ban`, {});
    // The replacement provisional account, merged into another account.
    const code = await w.authorizationCode(w.bob.id);
    const refused = await w.merge(code, await w.idToken('player-1'));
    expect([refused.status, refused.body.code]).toEqual([400, 530017]);
    expect((await client.delete(`/sandbox/users/${w.alice.id}/ban`)).status).toBe(204);
    const merged = await w.merge(code, await w.idToken('player-1'));
    expect(merged.status).toBe(200);
    expect((await w.me(merged.body.access_token)).body.id).toBe(w.bob.id);
  });

  it('a permanent ban stays: lifting it is refused (409) and merges keep returning 530017', async () => {
    const { client, w } = await linkedWorld();
    expect((await client.post(`/sandbox/users/${w.alice.id}/ban`, { permanent: true })).status).toBe(204);
    // Banning again without `permanent` does not make it temporary.
    await client.post(`/sandbox/users/${w.alice.id}/ban`, { permanent: false });
    const lift = await client.delete(`/sandbox/users/${w.alice.id}/ban`);
    expect(lift.status).toBe(409);
    expect((await w.merge(await w.authorizationCode(w.bob.id), await w.idToken('player-1'))).body.code).toBe(530017);
  });

  it('merging a banned provisional account, or into a banned account, is 530017', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const pId = (await w.me((await w.provisional(await w.idToken('player-9'))).body.access_token)).body.id;
    await client.post(`/sandbox/users/${pId}/ban`, {});
    expect((await w.merge(await w.authorizationCode(w.alice.id), await w.idToken('player-9'))).body.code).toBe(530017);
    // A banned provisional account gets no token either.
    expect((await w.provisional(await w.idToken('player-9'))).status).toBe(403);

    await w.provisional(await w.idToken('player-10'));
    const code = await w.authorizationCode(w.bob.id);
    // The ban lands after the code's check (the sandbox route would also delete the code itself).
    await client.app.ctx.db.put('bans', { user_id: w.bob.id, permanent: false, created_at: Date.now() });
    expect((await w.merge(code, await w.idToken('player-10'))).body.code).toBe(530017);
    // Through the ban route the code goes with the ban: the merge is then just an invalid code.
    await client.app.ctx.db.delete('bans', w.bob.id);
    const code2 = await w.authorizationCode(w.bob.id);
    await client.post(`/sandbox/users/${w.bob.id}/ban`, {});
    expect((await w.merge(code2, await w.idToken('player-10'))).body.error).toBe('invalid_grant');
  });

  it('records APPLICATION_DEAUTHORIZED for webhook delivery with the serialized user, and no token', async () => {
    const { client, w, merged } = await linkedWorld();
    await client.post(`/sandbox/users/${w.alice.id}/ban`, {});
    const events = (await allEvents(client)).filter((e) => e.type === 'APPLICATION_DEAUTHORIZED');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      channels: ['webhook'],
      audience: { application_id: w.application.id },
      data: { user: { id: w.alice.id, username: 'alice', discriminator: '0' } },
    });
    const text = JSON.stringify(events);
    for (const secret of [
      merged.access_token,
      merged.refresh_token,
      w.aliceTokens.access_token,
      w.aliceTokens.refresh_token,
    ])
      expect(text).not.toContain(secret);
    // A second ban reports nothing new.
    await client.post(`/sandbox/users/${w.alice.id}/ban`, { permanent: true });
    expect((await allEvents(client)).filter((e) => e.type === 'APPLICATION_DEAUTHORIZED')).toHaveLength(1);
  });

  it('an unknown user is 404 (10013), a bot 403 (50002), and a refused ban changes nothing', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    expect((await client.post('/sandbox/users/1234567890123/ban', {})).body.code).toBe(10013);
    const before = await client.app.ctx.db.count('tokens');
    expect((await client.post(`/sandbox/users/${w.bot.id}/ban`, {})).body.code).toBe(50002);
    expect((await client.post(`/sandbox/users/${w.alice.id}/ban`, { permanent: 'yes' })).body.code).toBe(50035);
    expect(await client.app.ctx.db.count('tokens')).toBe(before);
    expect(await client.app.ctx.db.count('bans')).toBe(0);
  });
});

/** Stores a token pair for `userId` behind the platform's back: a token that outlived a ban somehow. */
async function strayTokens(
  client: Awaited<ReturnType<typeof createTestClient>>,
  applicationId: string,
  userId: string,
) {
  const ctx = client.app.ctx;
  const pair = await prepareTokenPair(ctx, {
    application_id: applicationId,
    user_id: userId,
    scopes: ['openid', 'sdk.social_layer'],
  });
  await ctx.db.write(['tokens'], async (tx) => {
    await Promise.all(pair.records.map((r) => tx.store('tokens').put(r)));
  });
  return pair.response;
}

describe('ban: a banned account gets no new credential while the ban holds', () => {
  it('an authorization code issued before the ban is deleted by the ban and does not redeem after it (invalid_grant)', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const code = await w.authorizationCode(w.alice.id);
    const bobCode = await w.authorizationCode(w.bob.id);
    await client.post(`/sandbox/users/${w.alice.id}/ban`, {});
    const codes = await client.app.ctx.db.getAll('auth_codes');
    expect(codes.map((c) => c.user_id)).toEqual([w.bob.id]);
    const res = await form(client, '/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
    // Others' codes are untouched.
    const bobs = await form(client, '/oauth2/token', {
      grant_type: 'authorization_code',
      code: bobCode,
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect(bobs.status).toBe(200);
  });

  it('a banned user cannot authorize an application (403, 50001) and no code is stored', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    await client.post(`/sandbox/users/${w.alice.id}/ban`, {});
    const query = new URLSearchParams({
      client_id: w.application.id,
      response_type: 'code',
      scope: 'openid sdk.social_layer',
    });
    const res = await client.post(`/oauth2/authorize?${query}`, { authorize: true, user_id: w.alice.id });
    expect([res.status, res.body.code]).toEqual([403, 50001]);
    expect(await client.app.ctx.db.count('auth_codes')).toBe(0);
  });

  it('a code that reaches redemption while the ban holds is invalid_grant and issues no token', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const code = await w.authorizationCode(w.alice.id);
    // The ban lands between the code's check and its redemption: the ban record alone must stop it.
    await client.app.ctx.db.put('bans', { user_id: w.alice.id, permanent: false, created_at: Date.now() });
    const before = await client.app.ctx.db.count('tokens');
    const res = await form(client, '/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
    expect(await client.app.ctx.db.count('tokens')).toBe(before);
  });

  it('a token that outlived the ban authenticates nothing (401) and its refresh is invalid_grant', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    await client.post(`/sandbox/users/${w.alice.id}/ban`, {});
    const stray = await strayTokens(client, w.application.id, w.alice.id);
    expect((await w.me(stray.access_token)).status).toBe(401);
    const res = await form(client, '/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: stray.refresh_token,
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('the sandbox token fixture, client_credentials for a banned owner and a child-token exchange issue nothing', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const child = (await client.post('/sandbox/applications', { name: 'Child game' })).body.application;
    expect((await client.put(`/sandbox/applications/${w.application.id}/children/${child.id}`)).status).toBe(200);
    await client.post(`/sandbox/users/${w.alice.id}/ban`, {});
    const before = await client.app.ctx.db.count('tokens');

    const fixture = await client.post('/sandbox/tokens', {
      application_id: w.application.id,
      user_id: w.alice.id,
      scopes: 'identify',
    });
    expect([fixture.status, fixture.body.code, fixture.body.errors?.user_id?._errors?.[0]?.message]).toEqual([
      400,
      50035,
      'This user is banned.',
    ]);
    // alice owns the Game application.
    const owner = await form(client, '/oauth2/token', {
      grant_type: 'client_credentials',
      scope: 'identify',
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect([owner.status, owner.body.error]).toEqual([400, 'unauthorized_client']);
    expect(await client.app.ctx.db.count('tokens')).toBe(before);

    const stray = await strayTokens(client, w.application.id, w.alice.id);
    const exchange = await client.post('/api/v10/partner-sdk/child-token', {
      parent_access_token: stray.access_token,
      child_application_id: child.id,
      parent_client_secret: w.clientSecret,
    });
    expect(exchange.status).toBe(401);
    expect(await client.app.ctx.db.count('tokens')).toBe(before + 2);
  });

  it('lifting a ban lets the user authorize again: consent, code redemption and the new token work', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    await client.post(`/sandbox/users/${w.alice.id}/ban`, {});
    expect((await client.delete(`/sandbox/users/${w.alice.id}/ban`)).status).toBe(204);
    const code = await w.authorizationCode(w.alice.id);
    const res = await form(client, '/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect(res.status).toBe(200);
    expect((await w.me(res.body.access_token)).body.id).toBe(w.alice.id);
    const refreshed = await form(client, '/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: res.body.refresh_token,
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect(refreshed.status).toBe(200);
  });

  it('the replacement provisional account is another user: it keeps signing in and calling the API while the ban holds', async () => {
    const { client, w } = await linkedWorld();
    await client.post(`/sandbox/users/${w.alice.id}/ban`, { permanent: true });
    const first = await w.provisional(await w.idToken('player-1'));
    const again = await w.provisional(await w.idToken('player-1'));
    expect([first.status, again.status]).toEqual([200, 200]);
    const me = await w.me(again.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body.id).not.toBe(w.alice.id);
  });
});

describe('ban: the replacement provisional account is restricted cross-platform while the ban holds', () => {
  it('restricted cross-platform: it cannot be merged into any full account (530017), and the restriction lifts with the ban', async () => {
    const { client, w } = await linkedWorld();
    await client.post(`/sandbox/users/${w.alice.id}/ban`, {});
    const replacementId = (await w.me((await w.provisional(await w.idToken('player-1'))).body.access_token)).body.id;
    const shown = async () =>
      (await client.get(`/sandbox/users/${replacementId}/external-identities`)).body.external_identities[0]
        .restricted_cross_platform;
    expect(await shown()).toBe(true);
    const refused = await w.merge(await w.authorizationCode(w.bob.id), await w.idToken('player-1'));
    expect([refused.status, refused.body.code]).toEqual([400, 530017]);
    await client.delete(`/sandbox/users/${w.alice.id}/ban`);
    expect(await shown()).toBe(false);
    const merged = await w.merge(await w.authorizationCode(w.bob.id), await w.idToken('player-1'));
    expect(merged.status).toBe(200);
    const identity = (await client.get(`/sandbox/users/${w.bob.id}/external-identities`)).body.external_identities[0];
    expect([identity.restricted_cross_platform, identity.banned_user_id]).toEqual([false, null]);
  });

  it('restricted cross-platform keeps the game features: it befriends other players in the game and chats in a lobby', async () => {
    const { client, w } = await linkedWorld();
    await client.post(`/sandbox/users/${w.alice.id}/ban`, { permanent: true });
    const token = (await w.provisional(await w.idToken('player-1'))).body.access_token;
    const auth = `Bearer ${token}`;
    const replacementId = (await w.me(token)).body.id;
    expect((await client.put(`/api/v10/users/@me/game-relationships/${w.bob.id}`, {}, auth)).status).toBe(204);
    expect((await client.put(`/api/v10/users/@me/game-relationships/${replacementId}`, {}, w.bobAuth)).status).toBe(
      204,
    );
    const lobby = await client.put('/api/v10/lobbies', { secret: 'after-the-ban' }, auth);
    expect(lobby.status).toBe(200);
    const sent = await client.post(`/api/v10/lobbies/${lobby.body.id}/messages`, { content: 'still here' }, auth);
    expect(sent.status).toBe(201);
  });
});
