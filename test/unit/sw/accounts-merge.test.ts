// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient } from '../app-harness';
import { allEvents, form, oidcWorld } from './accounts-fixtures';

describe('merging a provisional account into a full account', () => {
  it('an authorization code exchanged with the external identity merges the provisional account: identity, lobby memberships and sign-in move to the full account', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const provisional = (await w.provisional(await w.idToken('player-1'))).body;
    const provisionalId = (await w.me(provisional.access_token)).body.id;
    const lobby = (
      await client.post('/api/v10/lobbies', { members: [{ id: provisionalId, metadata: { team: 'red' } }] }, w.botAuth)
    ).body;
    expect(lobby.members.map((m: { id: string }) => m.id)).toEqual([provisionalId]);

    const merged = await w.merge(await w.authorizationCode(w.alice.id), await w.idToken('player-1'));
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String) });
    expect((await w.me(merged.body.access_token)).body.id).toBe(w.alice.id);

    expect((await w.me(provisional.access_token)).status).toBe(401);
    const after = (await client.get(`/api/v10/lobbies/${lobby.id}`, w.botAuth)).body;
    expect(after.members).toEqual([{ id: w.alice.id, metadata: { team: 'red' }, flags: 0 }]);
    const identities = (await client.get(`/sandbox/users/${w.alice.id}/external-identities`)).body.external_identities;
    expect(identities).toEqual([
      expect.objectContaining({ application_id: w.application.id, subject: 'player-1', auth_type: 'OIDC' }),
    ]);
    // The identity now belongs to a full account: provisional sign-in is refused (530010).
    expect((await w.provisional(await w.idToken('player-1'))).body.code).toBe(530010);
  });

  it('merge errors: a provisional destination is 530016, an identity of another full account 530014, a second identity for the app 530023', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const p = (await w.provisional(await w.idToken('player-1'))).body;
    const pId = (await w.me(p.access_token)).body.id;
    expect((await w.merge(await w.authorizationCode(pId), await w.idToken('player-2'))).body.code).toBe(530016);
    expect((await w.merge(await w.authorizationCode(w.alice.id), await w.idToken('player-1'))).status).toBe(200);
    expect((await w.merge(await w.authorizationCode(w.bob.id), await w.idToken('player-1'))).body.code).toBe(530014);
    await w.provisional(await w.idToken('player-2'));
    expect((await w.merge(await w.authorizationCode(w.alice.id), await w.idToken('player-2'))).body.code).toBe(530023);
  });

  it('a refused merge changes nothing: the code stays usable and no token or link is stored', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    await w.merge(await w.authorizationCode(w.alice.id), await w.idToken('player-1'));
    await w.provisional(await w.idToken('player-2'));
    const code = await w.authorizationCode(w.alice.id);
    const db = client.app.ctx.db;
    const before = [await db.count('tokens'), JSON.stringify(await db.getAll('external_identities'))];
    expect((await w.merge(code, await w.idToken('player-2'))).body.code).toBe(530023);
    expect([await db.count('tokens'), JSON.stringify(await db.getAll('external_identities'))]).toEqual(before);
    const plain = await form(client, '/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      client_id: w.application.id,
      client_secret: w.clientSecret,
    });
    expect(plain.status).toBe(200);
  });

  it('the merge request needs both external_auth_type and external_auth_token, and verifies the token (530002 for another issuer)', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const code = await w.authorizationCode(w.alice.id);
    const missing = await form(client, '/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      client_id: w.application.id,
      client_secret: w.clientSecret,
      external_auth_type: 'OIDC',
    });
    expect(missing.body.error).toBe('invalid_request');
    const other = (await client.post('/sandbox/identity-providers', { audience: 'game-client' })).body
      .identity_provider;
    const foreign = (await client.post(`/sandbox/identity-providers/${other.id}/id-tokens`, { sub: 'x' })).body
      .id_token;
    expect((await w.merge(code, foreign)).body.code).toBe(530002);
  });
});

describe('unmergeIntoProvisionalAccount: splitting the link back into a provisional account', () => {
  it("unmerge gives the external identity a new provisional account, deletes the full account's tokens for the app, and records APPLICATION_DEAUTHORIZED without a token", async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const pId = (await w.me((await w.provisional(await w.idToken('player-1'))).body.access_token)).body.id;
    const merged = (await w.merge(await w.authorizationCode(w.alice.id), await w.idToken('player-1'))).body;

    const unmerge = await client.post('/api/v10/partner-sdk/provisional-accounts/unmerge', {
      client_id: w.application.id,
      client_secret: w.clientSecret,
      external_auth_type: 'OIDC',
      external_auth_token: await w.idToken('player-1'),
    });
    expect(unmerge.status).toBe(204);
    expect((await w.me(merged.access_token)).status).toBe(401);
    const again = (await w.provisional(await w.idToken('player-1'))).body;
    const newId = (await w.me(again.access_token)).body.id;
    expect([pId, w.alice.id]).not.toContain(newId);
    expect((await client.app.ctx.db.get('users', newId))?.provisional).toBe(true);

    const deauthorized = (await allEvents(client)).filter((e) => e.type === 'APPLICATION_DEAUTHORIZED');
    expect(deauthorized).toHaveLength(1);
    expect(deauthorized[0]).toMatchObject({
      channels: ['webhook'],
      audience: { application_id: w.application.id },
      data: { user: { id: w.alice.id } },
    });
    for (const secret of [merged.access_token, merged.refresh_token, again.access_token])
      expect(JSON.stringify(deauthorized)).not.toContain(secret);

    // The identity is provisional again: unmerging it is 50229; an identity never seen is 404 (10013).
    const twice = await client.post('/api/v10/partner-sdk/provisional-accounts/unmerge', {
      client_id: w.application.id,
      client_secret: w.clientSecret,
      external_auth_type: 'OIDC',
      external_auth_token: await w.idToken('player-1'),
    });
    expect(twice.body.code).toBe(50229);
    const unknown = await client.post('/api/v10/partner-sdk/provisional-accounts/unmerge', {
      client_id: w.application.id,
      client_secret: w.clientSecret,
      external_auth_type: 'OIDC',
      external_auth_token: await w.idToken('never-seen'),
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 10013]);
  });

  it('a bot-token account merges with its bot-issued access token and unmerges by external_user_id with the bot token', async () => {
    const client = await createTestClient();
    const w = await oidcWorld(client);
    const issued = (await w.botProvisional('account-5')).body.access_token;
    const merged = await w.merge(await w.authorizationCode(w.bob.id), issued, 'DISCORD_BOT_ISSUED_ACCESS_TOKEN');
    expect((await w.me(merged.body.access_token)).body.id).toBe(w.bob.id);
    expect((await w.botProvisional('account-5')).body.code).toBe(530010);
    const res = await client.post(
      '/api/v10/partner-sdk/provisional-accounts/unmerge/bot',
      { external_user_id: 'account-5' },
      w.botAuth,
    );
    expect(res.status).toBe(204);
    const fresh = await w.botProvisional('account-5');
    expect(fresh.status).toBe(200);
    expect((await w.me(fresh.body.access_token)).body.id).not.toBe(w.bob.id);
  });
});
