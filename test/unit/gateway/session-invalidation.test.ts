// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { SESSIONS_INVALIDATED } from '../../../src/platform/oauth2/tokens';
import { createGatewayHarness, type GatewayHarness } from './gateway-harness';

/** An OAuth2 form request to the app (revoke, refresh), authenticated with the client secret. */
function form(h: GatewayHarness, path: string, params: Record<string, string>) {
  const body = new URLSearchParams({
    client_id: h.world.application.id,
    client_secret: h.world.clientSecret,
    ...params,
  });
  return h.api.request('POST', path, {
    raw: body.toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

/** A second Bearer token pair for alice, so that one of her sessions can outlive the other's token. */
async function secondAliceToken(h: GatewayHarness) {
  const tokens = (
    await h.api.post('/sandbox/tokens', {
      application_id: h.world.application.id,
      user_id: h.world.alice.id,
      scopes: 'openid sdk.social_layer',
    })
  ).body;
  return `Bearer ${tokens.access_token}`;
}

/** What the log says for the user, as the gateway reads it. */
async function invalidations(h: GatewayHarness) {
  return (await h.db.getAll('events')).filter((e) => e.type === SESSIONS_INVALIDATED);
}

describe('deleted tokens end gateway sessions (spec, Authentication 5 and "Linked game account after a ban")', () => {
  it("a ban deletes the tokens at once: the banned user's sessions close with 4004, others stay", async () => {
    const h = await createGatewayHarness();
    const alice = await h.identify(h.world.aliceAuth);
    const bob = await h.identify(h.world.bobAuth);
    const bot = await h.identify(h.world.botAuth, { intents: 0 });
    expect((await h.api.post(`/sandbox/users/${h.world.alice.id}/ban`, {})).status).toBe(204);
    await h.flush();
    expect(await alice.waitForClose()).toEqual({ code: 4004, reason: 'Authentication failed.' });
    expect(bob.closed).toBeNull();
    expect(bot.closed).toBeNull();
    // The log names the user only: no token and no hash of one.
    expect((await invalidations(h)).map((e) => e.data)).toEqual([{ user_id: h.world.alice.id }]);
  });

  it("SESSIONS_INVALIDATED is the gateway's own: no session is ever sent it", async () => {
    const h = await createGatewayHarness();
    const bob = await h.identify(h.world.bobAuth);
    const alice = await h.identify(await secondAliceToken(h));
    await form(h, '/oauth2/token/revoke', { token: h.world.aliceTokens.access_token });
    await h.flush();
    // The revocation questioned alice's sessions, but this one stands on another token.
    expect((await invalidations(h)).length).toBe(1);
    expect(alice.closed).toBeNull();
    expect([...alice.received, ...bob.received].some((p) => p.t === SESSIONS_INVALIDATED)).toBe(false);
  });

  it('revoking a token (RFC 7009) ends only the sessions identified with it', async () => {
    const h = await createGatewayHarness();
    const revoked = await h.identify(h.world.aliceAuth);
    const other = await h.identify(await secondAliceToken(h));
    expect((await form(h, '/oauth2/token/revoke', { token: h.world.aliceTokens.access_token })).status).toBe(200);
    await h.flush();
    expect((await revoked.waitForClose()).code).toBe(4004);
    expect(other.closed).toBeNull();
  });

  it('refresh rotation deletes the old access token: its session closes with 4004', async () => {
    const h = await createGatewayHarness();
    const session = await h.identify(h.world.aliceAuth);
    const refreshed = await form(h, '/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: h.world.aliceTokens.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    await h.flush();
    expect((await session.waitForClose()).code).toBe(4004);
    // The new token identifies a new session as usual.
    const fresh = await h.identify(`Bearer ${refreshed.body.access_token}`);
    expect(fresh.ready.user.id).toBe(h.world.alice.id);
  });

  it('a session ended by a deleted token cannot be resumed, not even with another valid token', async () => {
    const h = await createGatewayHarness();
    const session = await h.identify(h.world.aliceAuth);
    const sessionId = session.ready.session_id as string;
    session.disconnect(4000);
    // Away while the token goes: the session is only in the store when the revocation lands.
    await form(h, '/oauth2/token/revoke', { token: h.world.aliceTokens.access_token });
    await h.flush();
    const again = h.connect();
    again.send({ op: 6, d: { token: await secondAliceToken(h), session_id: sessionId, seq: 1 } });
    const answer = await again.waitFor((p) => p.op === 9);
    expect(answer.d).toBe(false);
    expect(await h.db.get('gateway_sessions', sessionId)).toBeUndefined();
  });

  it('a live session closed with 4004 is deleted from the store (non-resumable)', async () => {
    const h = await createGatewayHarness();
    const session = await h.identify(h.world.aliceAuth);
    const sessionId = session.ready.session_id as string;
    expect(await h.db.get('gateway_sessions', sessionId)).toBeDefined();
    await h.api.post(`/sandbox/users/${h.world.alice.id}/ban`, {});
    await h.flush();
    await session.waitForClose();
    await h.pump();
    expect(await h.db.get('gateway_sessions', sessionId)).toBeUndefined();
  });

  it('sessions remember the hash of their token, never the token', async () => {
    const h = await createGatewayHarness();
    const session = await h.identify(h.world.aliceAuth);
    const stored = await h.db.get('gateway_sessions', session.ready.session_id);
    const token = h.world.aliceTokens.access_token as string;
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await h.db.get('tokens', stored!.token_hash!)).toBeDefined();
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('events committed before the deletion are still delivered, none after it', async () => {
    const h = await createGatewayHarness();
    const alice = await h.identify(h.world.aliceAuth);
    const lobby = (await h.api.put('/api/v10/lobbies', { secret: 'before-ban' }, h.world.aliceAuth)).body;
    await h.api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'before' }, h.world.aliceAuth);
    await h.api.post(`/sandbox/users/${h.world.alice.id}/ban`, {});
    await h.flush();
    expect((await alice.waitForClose()).code).toBe(4004);
    expect(alice.dispatches('LOBBY_MESSAGE_CREATE').map((p) => p.d.content)).toEqual(['before']);
  });
});
