// @vitest-environment node
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OAUTH2_ACCESS_TOKEN_TTL_S, OAUTH2_CODE_TTL_MS } from '../../../src/platform/core/limits';
import { APPLICATION_FLAGS } from '../../../src/store/records/core';
import { createTestClient, createWorld, ON_SERVER, type TestClient } from '../app-harness';

type World = Awaited<ReturnType<typeof createWorld>>;

const REDIRECT = 'https://game.example/callback';

/** A PKCE pair computed independently of the platform (node's crypto, RFC 7636 §4.2). */
function pkce() {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** POSTs an `application/x-www-form-urlencoded` body, as RFC 6749 clients do. */
function form(client: TestClient, path: string, params: Record<string, string>, headers: Record<string, string> = {}) {
  return client.request('POST', path, {
    raw: new URLSearchParams(params).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  });
}

function query(params: Record<string, string | undefined>): string {
  const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  return new URLSearchParams(defined).toString();
}

/** The consent step: `POST /oauth2/authorize?…` with the user's decision. */
function authorize(
  client: TestClient,
  params: Record<string, string | undefined>,
  decision: { authorize: boolean; user_id: string },
) {
  return client.post(`/oauth2/authorize?${query({ response_type: 'code', ...params })}`, decision);
}

async function registerRedirects(client: TestClient, applicationId: string, uris: string[]) {
  const app = (await client.db.get('applications', applicationId))!;
  await client.db.put('applications', { ...app, redirect_uris: uris });
}

/** Consent with PKCE, then the code from the redirect location. */
async function pkceCode(
  client: TestClient,
  world: World,
  scope = 'openid identify',
  extra: Record<string, string> = {},
) {
  const { verifier, challenge } = pkce();
  const res = await authorize(
    client,
    {
      client_id: world.application.id,
      scope,
      redirect_uri: REDIRECT,
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    },
    { authorize: true, user_id: world.alice.id },
  );
  expect(res.status).toBe(200);
  return { code: new URL(res.body.location).searchParams.get('code')!, verifier };
}

function redeem(client: TestClient, world: World, code: string, params: Record<string, string> = {}) {
  return form(client, '/oauth2/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: world.application.id,
    ...params,
  });
}

async function storedCounts(client: TestClient) {
  const db = client.db;
  return {
    tokens: await db.count('tokens'),
    codes: await db.count('auth_codes'),
    events: await db.count('events'),
    apps: JSON.stringify(await db.getAll('applications')),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('/oauth2/authorize: the consent step', () => {
  it('GET describes the request for the consent dialog: application, scopes, redirect_uri, state', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const res = await client.get(
      `/oauth2/authorize?${query({ client_id: world.application.id, response_type: 'code', scope: 'openid sdk.social_layer', redirect_uri: REDIRECT, state: 'xyz' })}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      application: { id: world.application.id, name: 'Game' },
      scopes: ['openid', 'sdk.social_layer'],
      redirect_uri: REDIRECT,
      state: 'xyz',
    });
  });

  it('GET answers 400 naming the bad parameter', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const base = { client_id: world.application.id, response_type: 'code', scope: 'identify' };
    const cases: [Record<string, string>, string][] = [
      [{ client_id: '123456789' }, 'client_id'],
      [{ client_id: 'abc' }, 'client_id'],
      [{ scope: 'identify nope.scope' }, 'scope'],
      [{ scope: '' }, 'scope'],
      [{ response_type: 'token' }, 'response_type'],
      [{ redirect_uri: 'not a uri' }, 'redirect_uri'],
      [{ redirect_uri: 'https://game.example/cb#frag' }, 'redirect_uri'],
      [{ redirect_uri: 'javascript:alert(1)' }, 'redirect_uri'],
      [{ code_challenge: 'short' }, 'code_challenge'],
      [{ code_challenge: pkce().challenge, code_challenge_method: 'S512' }, 'code_challenge_method'],
      [{ code_challenge_method: 'S256' }, 'code_challenge'],
      [{ prompt: 'login' }, 'prompt'],
      [{ integration_type: '7' }, 'integration_type'],
    ];
    for (const [override, field] of cases) {
      const res = await client.get(`/oauth2/authorize?${query({ ...base, ...override })}`);
      expect(res.status, field).toBe(400);
      expect(res.body.code).toBe(50035);
      expect(Object.keys(res.body.errors), JSON.stringify(override)).toEqual([field]);
    }
  });

  it('a redirect_uri must be one the application registered, when it registered any', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    await registerRedirects(client, world.application.id, [REDIRECT]);
    const url = (uri: string) =>
      `/oauth2/authorize?${query({ client_id: world.application.id, response_type: 'code', scope: 'identify', redirect_uri: uri })}`;
    expect((await client.get(url(REDIRECT))).status).toBe(200);
    const other = await client.get(url('https://evil.example/callback'));
    expect(other.status).toBe(400);
    expect(other.body.errors.redirect_uri).toBeDefined();
  });

  it('identify.premium is available only to approved partners', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const url = `/oauth2/authorize?${query({ client_id: world.application.id, response_type: 'code', scope: 'identify identify.premium' })}`;
    expect((await client.get(url)).body.errors.scope).toBeDefined();
    const app = (await client.db.get('applications', world.application.id))!;
    await client.db.put('applications', { ...app, approvals: { ...app.approvals, identify_premium: true } });
    expect((await client.get(url)).status).toBe(200);
  });

  it('relationships.read is available to an activity after its application accepts the SDK terms', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const app = (await client.db.get('applications', world.application.id))!;
    await client.db.put('applications', { ...app, flags: String(APPLICATION_FLAGS.EMBEDDED) });
    const url = `/oauth2/authorize?${query({ client_id: world.application.id, response_type: 'code', scope: 'relationships.read' })}`;
    expect((await client.get(url)).status).toBe(400);
    await client.db.put('applications', {
      ...app,
      flags: String(APPLICATION_FLAGS.EMBEDDED),
      approvals: { ...app.approvals, sdk_terms_accepted: true },
    });
    expect((await client.get(url)).status).toBe(200);
  });

  it('POST with authorize: true issues a code in the redirect location; state is echoed unchanged', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const state = 'a b&c=d/é%20+?#';
    const res = await authorize(
      client,
      { client_id: world.application.id, scope: 'identify', redirect_uri: REDIRECT, state },
      { authorize: true, user_id: world.alice.id },
    );
    expect(res.status).toBe(200);
    expect(res.body.state).toBe(state);
    const location = new URL(res.body.location);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('code')).toBe(res.body.code);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
  });

  it('POST with authorize: false redirects with error=access_denied and the state, and issues no code', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const res = await authorize(
      client,
      { client_id: world.application.id, scope: 'identify', redirect_uri: REDIRECT, state: 's 1' },
      { authorize: false, user_id: world.alice.id },
    );
    expect(res.status).toBe(200);
    const location = new URL(res.body.location);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s 1');
    expect(location.searchParams.has('code')).toBe(false);
    expect(await client.db.count('auth_codes')).toBe(0);
  });

  it('without a redirect_uri (an embedded activity) the answer is {code, state, location: null}', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const res = await authorize(
      client,
      { client_id: world.application.id, scope: 'identify', state: 'n' },
      { authorize: true, user_id: world.alice.id },
    );
    expect(res.body).toEqual({ code: expect.any(String), state: 'n', location: null });
    const token = await form(
      client,
      '/oauth2/token',
      { grant_type: 'authorization_code', code: res.body.code },
      { Authorization: basic(world.application.id, world.clientSecret) },
    );
    expect(token.status).toBe(200);
  });

  it("the SDK's mobile redirect shapes (platform-<application_id>:/authorize/callback, <scheme>:/authorize/callback) work", async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    for (const redirect_uri of [`platform-${world.application.id}:/authorize/callback`, 'mygame:/authorize/callback']) {
      const res = await authorize(
        client,
        { client_id: world.application.id, scope: 'identify', redirect_uri, state: 's' },
        { authorize: true, user_id: world.alice.id },
      );
      expect(res.body.location.startsWith(`${redirect_uri}?`)).toBe(true);
      const token = await form(
        client,
        '/oauth2/token',
        { grant_type: 'authorization_code', code: res.body.code, redirect_uri },
        { Authorization: basic(world.application.id, world.clientSecret) },
      );
      expect(token.status).toBe(200);
    }
  });

  it('POST refuses an unknown user or a bot as the consenting user', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    for (const user_id of ['42', world.bot.id]) {
      const res = await authorize(
        client,
        { client_id: world.application.id, scope: 'identify' },
        { authorize: true, user_id },
      );
      expect(res.status).toBe(400);
      expect(res.body.errors.user_id).toBeDefined();
    }
    expect(await client.db.count('auth_codes')).toBe(0);
  });

  it('the first authorization of an app by a user records APPLICATION_AUTHORIZED for webhooks, once', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const carol = (await client.post('/sandbox/users', { username: 'carol' })).body.user;
    const consent = () =>
      authorize(
        client,
        { client_id: world.application.id, scope: 'identify guilds', integration_type: '1' },
        { authorize: true, user_id: carol.id },
      );
    await consent();
    await consent();
    const events = (await client.db.getAll('events')).filter((e) => e.type === 'APPLICATION_AUTHORIZED');
    expect(events).toHaveLength(1);
    expect(events[0].channels).toEqual(['webhook']);
    expect(events[0].data).toEqual({
      integration_type: 1,
      user: expect.objectContaining({ id: carol.id, username: 'carol' }),
      scopes: ['identify', 'guilds'],
    });
    expect((await client.db.get('applications', world.application.id))!.approximate_user_install_count).toBe(1);
    // The server's announcements stay inside workerd, where its gateway hears them.
    if (!ON_SERVER) expect(client.announcements.some((a) => a.type === 'events')).toBe(true);
  });

  it('with prompt=none and user_id, GET tells whether the user already granted every scope', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, 'identify guilds');
    const carol = (await client.post('/sandbox/users', { username: 'carol' })).body.user;
    const url = (user: string) =>
      `/oauth2/authorize?${query({ client_id: world.application.id, response_type: 'code', scope: 'identify', prompt: 'none', user_id: user })}`;
    expect((await client.get(url(world.alice.id))).body).toMatchObject({ prompt: 'none', authorized: true });
    expect((await client.get(url(carol.id))).body.authorized).toBe(false);
  });
});

describe('/oauth2/token: authorization_code with PKCE (RFC 7636)', () => {
  it('full PKCE flow: authorize -> code -> token -> /users/@me works', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const { code, verifier } = await pkceCode(client, world);
    // A public client: client_id and code_verifier, no secret.
    const res = await redeem(client, world, code, { code_verifier: verifier });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: OAUTH2_ACCESS_TOKEN_TTL_S,
      scope: 'openid identify',
      id_token: expect.any(String),
    });
    const me = await client.get('/api/v10/users/@me', `Bearer ${res.body.access_token}`);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(world.alice.id);
  });

  it('the token endpoint answers under /api/oauth2 and /api/v10/oauth2 too', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    for (const path of ['/api/oauth2/token', '/api/v10/oauth2/token', '/.proxy/api/v10/oauth2/token']) {
      const { code, verifier } = await pkceCode(client, world);
      const res = await form(client, path, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: world.application.id,
        code_verifier: verifier,
      });
      expect(res.status, path).toBe(200);
    }
  });

  it('a wrong code_verifier is invalid_grant, and the failed attempt leaves the code usable', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const { code, verifier } = await pkceCode(client, world);
    const wrong = await redeem(client, world, code, { code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    expect(wrong.headers.get('Cache-Control')).toBe('no-store');
    expect((await redeem(client, world, code, { code_verifier: verifier })).status).toBe(200);
  });

  it('a missing code_verifier for a PKCE code is invalid_request', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const { code } = await pkceCode(client, world);
    expect((await redeem(client, world, code)).body.error).toBe('invalid_request');
  });

  it('the plain method compares the verifier with the challenge itself', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const { verifier } = pkce();
    const res = await authorize(
      client,
      { client_id: world.application.id, scope: 'identify', redirect_uri: REDIRECT, code_challenge: verifier },
      { authorize: true, user_id: world.alice.id },
    );
    expect((await redeem(client, world, res.body.code, { code_verifier: `${verifier}x` })).body.error).toBe(
      'invalid_grant',
    );
    expect((await redeem(client, world, res.body.code, { code_verifier: verifier })).status).toBe(200);
  });

  it('an authorization code is single use', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const { code, verifier } = await pkceCode(client, world);
    expect((await redeem(client, world, code, { code_verifier: verifier })).status).toBe(200);
    const again = await redeem(client, world, code, { code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it(`an authorization code expires after OAUTH2_CODE_TTL_MS by the sandbox clock`, async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const start = Date.parse('2026-01-01T00:00:00Z');
    await client.put('/sandbox/clock', { now: new Date(start).toISOString() });
    const fresh = await pkceCode(client, world);
    const stale = await pkceCode(client, world);
    await client.put('/sandbox/clock', { now: new Date(start + OAUTH2_CODE_TTL_MS - 1).toISOString() });
    expect((await redeem(client, world, fresh.code, { code_verifier: fresh.verifier })).status).toBe(200);
    await client.put('/sandbox/clock', { now: new Date(start + OAUTH2_CODE_TTL_MS).toISOString() });
    const expired = await redeem(client, world, stale.code, { code_verifier: stale.verifier });
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe('invalid_grant');
  });

  it('a redirect_uri other than the authorized one is invalid_grant', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const { code, verifier } = await pkceCode(client, world);
    expect(
      (await redeem(client, world, code, { code_verifier: verifier, redirect_uri: 'https://game.example/other' })).body
        .error,
    ).toBe('invalid_grant');
  });

  it("another client's code is invalid_grant", async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const other = (await client.post('/sandbox/applications', { name: 'Other', owner_id: world.alice.id })).body;
    const { code, verifier } = await pkceCode(client, world);
    const res = await redeem(client, world, code, { code_verifier: verifier, client_id: other.application.id });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('a code_verifier for a code issued without a challenge is invalid_grant (downgrade)', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const res = await authorize(
      client,
      { client_id: world.application.id, scope: 'identify', redirect_uri: REDIRECT },
      { authorize: true, user_id: world.alice.id },
    );
    const redeemed = await redeem(client, world, res.body.code, {
      code_verifier: pkce().verifier,
      client_secret: world.clientSecret,
    });
    expect(redeemed.body.error).toBe('invalid_grant');
  });

  it('a public client (no secret) may redeem only a code bound to a PKCE challenge', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const res = await authorize(
      client,
      { client_id: world.application.id, scope: 'identify', redirect_uri: REDIRECT },
      { authorize: true, user_id: world.alice.id },
    );
    const publicTry = await redeem(client, world, res.body.code);
    expect(publicTry.status).toBe(401);
    expect(publicTry.body.error).toBe('invalid_client');
    expect((await redeem(client, world, res.body.code, { client_secret: world.clientSecret })).status).toBe(200);
  });
});

describe('/oauth2/token: client authentication (RFC 6749 §2.3)', () => {
  it('client authentication works by HTTP Basic and by client_id/client_secret in the body', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const viaBasic = await form(
      client,
      '/oauth2/token',
      { grant_type: 'client_credentials', scope: 'identify' },
      { Authorization: basic(world.application.id, world.clientSecret) },
    );
    expect(viaBasic.status).toBe(200);
    const viaBody = await form(client, '/oauth2/token', {
      grant_type: 'client_credentials',
      scope: 'identify',
      client_id: world.application.id,
      client_secret: world.clientSecret,
    });
    expect(viaBody.status).toBe(200);
  });

  it('using both methods at once is invalid_request', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const res = await form(
      client,
      '/oauth2/token',
      { grant_type: 'client_credentials', scope: 'identify', client_secret: world.clientSecret },
      { Authorization: basic(world.application.id, world.clientSecret) },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('invalid_client: wrong secret, unknown client, no client at all (401 with WWW-Authenticate)', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const attempts = [
      form(
        client,
        '/oauth2/token',
        { grant_type: 'client_credentials', scope: 'identify' },
        { Authorization: basic(world.application.id, 'wrong') },
      ),
      form(client, '/oauth2/token', {
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: world.application.id,
        client_secret: 'wrong',
      }),
      form(client, '/oauth2/token', {
        grant_type: 'client_credentials',
        scope: 'identify',
        client_id: '99999',
        client_secret: world.clientSecret,
      }),
      form(client, '/oauth2/token', { grant_type: 'client_credentials', scope: 'identify' }),
      form(
        client,
        '/oauth2/token',
        { grant_type: 'client_credentials', scope: 'identify' },
        { Authorization: 'Basic !!!' },
      ),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
      expect(res.headers.get('WWW-Authenticate')).toMatch(/^Basic/);
    }
  });

  it('an unknown grant_type is unsupported_grant_type; a missing one invalid_request', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const auth = { Authorization: basic(world.application.id, world.clientSecret) };
    const unknown = await form(client, '/oauth2/token', { grant_type: 'password', username: 'a', password: 'b' }, auth);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('unsupported_grant_type');
    expect((await form(client, '/oauth2/token', {}, auth)).body.error).toBe('invalid_request');
  });

  it('a body that is not form-encoded, or repeats a parameter, is invalid_request', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const json = await client.post('/oauth2/token', {
      grant_type: 'client_credentials',
      client_id: world.application.id,
      client_secret: world.clientSecret,
      scope: 'identify',
    });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
    const repeated = await client.request('POST', '/oauth2/token', {
      raw: `grant_type=client_credentials&scope=identify&scope=guilds&client_id=${world.application.id}&client_secret=${world.clientSecret}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated.body.error).toBe('invalid_request');
  });

  it('the token endpoint answers GET with 405', async () => {
    const client = await createTestClient();
    expect((await client.get('/oauth2/token')).status).toBe(405);
  });
});

describe('/oauth2/token: refresh_token', () => {
  it('refresh rotates the pair: the old access token is 401 and the old refresh token invalid_grant', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const old = world.aliceTokens;
    const refresh = (token: string) =>
      form(
        client,
        '/oauth2/token',
        { grant_type: 'refresh_token', refresh_token: token },
        { Authorization: basic(world.application.id, world.clientSecret) },
      );
    const res = await refresh(old.refresh_token);
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe(old.scope);
    expect(res.body.access_token).not.toBe(old.access_token);
    expect(res.body.refresh_token).not.toBe(old.refresh_token);
    expect((await client.get('/api/v10/users/@me', `Bearer ${old.access_token}`)).status).toBe(401);
    expect((await client.get('/api/v10/users/@me', `Bearer ${res.body.access_token}`)).status).toBe(200);
    const reused = await refresh(old.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
  });

  it('refresh may narrow the scope; asking for more is invalid_scope', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, 'identify guilds');
    const auth = { Authorization: basic(world.application.id, world.clientSecret) };
    const wider = await form(
      client,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: world.aliceTokens.refresh_token, scope: 'identify email' },
      auth,
    );
    expect(wider.body.error).toBe('invalid_scope');
    const narrower = await form(
      client,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: world.aliceTokens.refresh_token, scope: 'identify' },
      auth,
    );
    expect(narrower.body.scope).toBe('identify');
  });

  it('a public client refreshes its PKCE tokens without a secret, but not a confidential pair', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const { code, verifier } = await pkceCode(client, world);
    const tokens = (await redeem(client, world, code, { code_verifier: verifier })).body;
    const publicRefresh = await form(client, '/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: world.application.id,
    });
    expect(publicRefresh.status).toBe(200);
    const confidential = await form(client, '/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: world.aliceTokens.refresh_token,
      client_id: world.application.id,
    });
    expect(confidential.status).toBe(401);
    expect(confidential.body.error).toBe('invalid_client');
  });

  it('token refresh when the underlying token was deleted (user removed the app, or banned) is invalid_grant', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const db = client.db;
    for (const key of await db.getAllKeysFromIndex('tokens', 'by_user', world.alice.id)) await db.delete('tokens', key);
    const res = await form(
      client,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: world.aliceTokens.refresh_token },
      { Authorization: basic(world.application.id, world.clientSecret) },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it("another client's refresh token, or an access token, is invalid_grant", async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const other = (await client.post('/sandbox/applications', { name: 'Other', owner_id: world.alice.id })).body;
    const viaOther = await form(
      client,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: world.aliceTokens.refresh_token },
      { Authorization: basic(other.application.id, other.client_secret) },
    );
    expect(viaOther.body.error).toBe('invalid_grant');
    const withAccess = await form(
      client,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: world.aliceTokens.access_token },
      { Authorization: basic(world.application.id, world.clientSecret) },
    );
    expect(withAccess.body.error).toBe('invalid_grant');
  });
});

describe('/oauth2/token: client_credentials', () => {
  it("client_credentials gives a confidential client a Bearer token for the application's owner, without a refresh token", async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const res = await form(
      client,
      '/oauth2/token',
      { grant_type: 'client_credentials', scope: 'identify guilds' },
      { Authorization: basic(world.application.id, world.clientSecret) },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: OAUTH2_ACCESS_TOKEN_TTL_S,
      scope: 'identify guilds',
    });
    const me = await client.get('/api/v10/users/@me', `Bearer ${res.body.access_token}`);
    expect(me.body.id).toBe(world.alice.id);
  });

  it('client_credentials refuses a public client, an unknown scope and an application without owner', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const publicTry = await form(client, '/oauth2/token', {
      grant_type: 'client_credentials',
      scope: 'identify',
      client_id: world.application.id,
    });
    expect(publicTry.body.error).toBe('invalid_client');
    const badScope = await form(
      client,
      '/oauth2/token',
      { grant_type: 'client_credentials', scope: 'identify made.up' },
      { Authorization: basic(world.application.id, world.clientSecret) },
    );
    expect(badScope.status).toBe(400);
    expect(badScope.body.error).toBe('invalid_scope');
    const orphan = (await client.post('/sandbox/applications', { name: 'Orphan' })).body;
    const noOwner = await form(
      client,
      '/oauth2/token',
      { grant_type: 'client_credentials', scope: 'identify' },
      { Authorization: basic(orphan.application.id, orphan.client_secret) },
    );
    expect(noOwner.body.error).toBe('unauthorized_client');
  });
});

describe('/oauth2/token/revoke (RFC 7009)', () => {
  it('revoking an access token makes it 401 and deletes its refresh token too', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const auth = { Authorization: basic(world.application.id, world.clientSecret) };
    const res = await form(
      client,
      '/oauth2/token/revoke',
      { token: world.aliceTokens.access_token, token_type_hint: 'access_token' },
      auth,
    );
    expect(res.status).toBe(200);
    expect((await client.get('/api/v10/users/@me', world.aliceAuth)).status).toBe(401);
    const refresh = await form(
      client,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: world.aliceTokens.refresh_token },
      auth,
    );
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('revoking a refresh token revokes its access token', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    await form(client, '/oauth2/token/revoke', {
      token: world.aliceTokens.refresh_token,
      client_id: world.application.id,
      client_secret: world.clientSecret,
    });
    expect((await client.get('/api/v10/users/@me', world.aliceAuth)).status).toBe(401);
  });

  it("revoke answers 200 for unknown tokens and leaves another client's token alone", async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const other = (await client.post('/sandbox/applications', { name: 'Other', owner_id: world.alice.id })).body;
    const unknown = await form(
      client,
      '/oauth2/token/revoke',
      { token: 'never-issued' },
      { Authorization: basic(world.application.id, world.clientSecret) },
    );
    expect(unknown.status).toBe(200);
    const foreign = await form(
      client,
      '/oauth2/token/revoke',
      { token: world.aliceTokens.access_token },
      { Authorization: basic(other.application.id, other.client_secret) },
    );
    expect(foreign.status).toBe(200);
    expect((await client.get('/api/v10/users/@me', world.aliceAuth)).status).toBe(200);
  });

  it('revoke needs client authentication and a token parameter', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const noClient = await form(client, '/oauth2/token/revoke', { token: world.aliceTokens.access_token });
    expect(noClient.status).toBe(401);
    const wrongSecret = await form(
      client,
      '/oauth2/token/revoke',
      { token: world.aliceTokens.access_token },
      { Authorization: basic(world.application.id, 'nope') },
    );
    expect(wrongSecret.status).toBe(401);
    const noToken = await form(
      client,
      '/oauth2/token/revoke',
      {},
      { Authorization: basic(world.application.id, world.clientSecret) },
    );
    expect(noToken.body.error).toBe('invalid_request');
    expect((await client.get('/api/v10/users/@me', world.aliceAuth)).status).toBe(200);
  });
});

describe('/oauth2/@me and scopes', () => {
  it('GET /oauth2/@me answers {application, scopes, expires, user}', async () => {
    const client = await createTestClient();
    await client.put('/sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
    const world = await createWorld(client, 'identify guilds');
    const res = await client.get('/oauth2/@me', world.aliceAuth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      application: expect.objectContaining({ id: world.application.id, name: 'Game' }),
      scopes: ['identify', 'guilds'],
      expires: new Date(Date.parse('2026-03-01T00:00:00.000Z') + OAUTH2_ACCESS_TOKEN_TTL_S * 1000).toISOString(),
      user: expect.objectContaining({ id: world.alice.id }),
    });
  });

  it('GET /oauth2/@me carries the user only with the identify scope; bots and missing tokens are refused', async () => {
    const client = await createTestClient();
    const world = await createWorld(client, 'guilds');
    expect((await client.get('/api/v10/oauth2/@me', world.aliceAuth)).body).not.toHaveProperty('user');
    expect((await client.get('/oauth2/@me', world.botAuth)).status).toBe(403);
    expect((await client.get('/oauth2/@me')).status).toBe(401);
  });

  it('a route refuses a token without its scope (403), and umbrella scopes expand', async () => {
    const client = await createTestClient();
    const narrow = await createWorld(client, 'openid guilds');
    const refused = await client.get('/api/v10/users/@me', narrow.aliceAuth);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
    for (const scopes of ['identify', 'openid sdk.social_layer', 'openid sdk.social_layer_presence']) {
      const token = (
        await client.post('/sandbox/tokens', {
          application_id: narrow.application.id,
          user_id: narrow.alice.id,
          scopes,
        })
      ).body.access_token;
      expect((await client.get('/api/v10/users/@me', `Bearer ${token}`)).status, scopes).toBe(200);
    }
    expect((await client.get('/api/v10/users/@me', narrow.botAuth)).status).toBe(200);
  });
});

describe('failed requests and secrets', () => {
  it('a failed OAuth2 request stores nothing (tokens, codes, events, applications unchanged)', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const { code } = await pkceCode(client, world);
    const before = await storedCounts(client);
    const auth = { Authorization: basic(world.application.id, world.clientSecret) };
    await redeem(client, world, code, { code_verifier: pkce().verifier });
    await redeem(client, world, code, { code_verifier: pkce().verifier, redirect_uri: 'https://x.example/' });
    await form(
      client,
      '/oauth2/token',
      { grant_type: 'refresh_token', refresh_token: world.aliceTokens.refresh_token, scope: 'email' },
      auth,
    );
    await form(client, '/oauth2/token', { grant_type: 'client_credentials', scope: 'nope' }, auth);
    await form(
      client,
      '/oauth2/token',
      { grant_type: 'client_credentials', scope: 'identify' },
      { Authorization: basic(world.application.id, 'bad') },
    );
    await form(client, '/oauth2/token/revoke', { token: world.aliceTokens.access_token });
    await authorize(
      client,
      { client_id: world.application.id, scope: 'identify bogus' },
      { authorize: true, user_id: world.bob.id },
    );
    await authorize(client, { client_id: world.application.id, scope: 'identify' }, { authorize: true, user_id: '1' });
    await client.post(
      `/oauth2/authorize?${query({ client_id: world.application.id, response_type: 'code', scope: 'identify' })}`,
      { authorize: 'yes', user_id: world.bob.id },
    );
    expect(await storedCounts(client)).toEqual(before);
  });

  it('token values never appear in a log line, an error body or an event', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    const lines: string[] = [];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
    }
    const { code, verifier } = await pkceCode(client, world);
    const issued = (await redeem(client, world, code, { code_verifier: verifier })).body;
    const secrets = [
      world.aliceTokens.access_token,
      world.aliceTokens.refresh_token,
      world.clientSecret,
      code,
      verifier,
      issued.access_token,
      issued.refresh_token,
    ];
    const bodies: unknown[] = [];
    const auth = { Authorization: basic(world.application.id, world.clientSecret) };
    bodies.push((await redeem(client, world, code, { code_verifier: verifier })).body);
    bodies.push(
      (await redeem(client, world, 'x'.repeat(10), { code_verifier: verifier, client_secret: 'wrong-secret' })).body,
    );
    bodies.push(
      (
        await form(
          client,
          '/oauth2/token',
          { grant_type: 'refresh_token', refresh_token: world.aliceTokens.access_token },
          auth,
        )
      ).body,
    );
    bodies.push(
      (
        await form(
          client,
          '/oauth2/token',
          {
            grant_type: 'refresh_token',
            refresh_token: issued.refresh_token,
            scope: `identify ${issued.access_token}`,
          },
          auth,
        )
      ).body,
    );
    bodies.push((await form(client, '/oauth2/token', { grant_type: issued.access_token }, auth)).body);
    bodies.push(
      (await form(client, '/oauth2/token', { grant_type: 'client_credentials', scope: world.clientSecret }, auth)).body,
    );
    bodies.push(
      (
        await form(client, '/oauth2/token/revoke', {
          token: issued.refresh_token,
          client_id: world.application.id,
          client_secret: `${world.clientSecret}x`,
        })
      ).body,
    );
    bodies.push((await client.get('/oauth2/@me', `Bearer ${world.aliceTokens.refresh_token}`)).body);
    bodies.push(
      (
        await client.get(
          `/oauth2/authorize?${query({ client_id: world.application.id, response_type: 'code', scope: `identify ${issued.access_token}` })}`,
        )
      ).body,
    );
    bodies.push(
      (
        await client.get(
          `/oauth2/authorize?${query({ client_id: world.application.id, response_type: issued.access_token, scope: 'identify', code_challenge_method: issued.refresh_token })}`,
        )
      ).body,
    );
    bodies.push((await client.get('/api/v10/users/@me', `Bearer ${issued.refresh_token}`)).body);
    const events = JSON.stringify(await client.db.getAll('events'));
    const errorText = JSON.stringify(bodies);
    for (const secret of secrets) {
      expect(errorText).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret);
      expect(events).not.toContain(secret);
    }
    expect(bodies).toHaveLength(11);
  });
});
