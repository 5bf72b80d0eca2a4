// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTestClient } from '../app-harness';
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
      const res = await form(client, '/oauth2/token', { grant_type: 'refresh_token', refresh_token: refresh, client_id: w.application.id, client_secret: w.clientSecret });
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
    const identities = (await client.get(`/sandbox/users/${replacementId}/external-identities`)).body.external_identities;
    expect(identities).toEqual([{
      application_id: w.application.id, provider: `OIDC ${w.idp.issuer}`, subject: 'player-1', auth_type: 'OIDC',
      restricted_cross_platform: true, banned_user_id: w.alice.id,
    }]);
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
    await client.post(`/sandbox/users/${w.bob.id}/ban`, {});
    expect((await w.merge(code, await w.idToken('player-10'))).body.code).toBe(530017);
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
    for (const secret of [merged.access_token, merged.refresh_token, w.aliceTokens.access_token, w.aliceTokens.refresh_token]) expect(text).not.toContain(secret);
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
