// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/platform/core/errors';
import { fetchDiscovery, fetchKeySet, verifyIdToken, type FetchLike } from '../../../../src/platform/oauth2/oidc';
import { hostnameProblem, issuerUrlProblem } from '../../../../src/platform/oauth2/oidc-issuer';
import { fakeNetwork, mintIdToken, providerRoutes, redirectTo, testKey, type TestKey } from './oidc-fixtures';

const ISSUER = 'https://login.game-studio.com';
const AUDIENCE = 'game-client-1';
const NOW = Date.parse('2026-05-01T12:00:00Z');
const seconds = (ms: number) => Math.floor(ms / 1000);

function claims(overrides: Record<string, unknown> = {}) {
  return {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'player-42',
    iat: seconds(NOW) - 60,
    exp: seconds(NOW) + 3600,
    preferred_username: 'Nova',
    ...overrides,
  };
}

function strict(fetch: FetchLike) {
  return { mode: 'strict' as const, fetch };
}

function verify(token: string, fetch: FetchLike, now = NOW) {
  return verifyIdToken(token, {
    issuer: ISSUER,
    audience: AUDIENCE,
    now,
    resolveKeys: () => fetchKeySet(ISSUER, strict(fetch)),
  });
}

async function codeOf(promise: Promise<unknown>): Promise<number> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).code;
}

describe('OIDC ID token verification (Authentication rule 4)', () => {
  const rsa = testKey('RS256');
  const ec = testKey('ES256');
  const network = () => fakeNetwork(providerRoutes(ISSUER, [rsa, ec]));

  it('a good token signed with RS256 or ES256 verifies against the issuer key set and names its subject', async () => {
    for (const key of [rsa, ec]) {
      const { fetch, calls } = network();
      const verified = await verify(mintIdToken(key, claims()), fetch);
      expect(verified.sub).toBe('player-42');
      expect(verified.preferred_username).toBe('Nova');
      expect(calls.map((c) => c.url)).toEqual([`${ISSUER}/.well-known/openid-configuration`, `${ISSUER}/jwks.json`]);
    }
  });

  it('an audience list containing the configured audience is accepted; a token without kid tries every fitting key', async () => {
    const { fetch } = network();
    const token = mintIdToken(ec, claims({ aud: ['other', AUDIENCE] }), { kid: undefined });
    expect((await verify(token, fetch)).sub).toBe('player-42');
  });

  it('a bad signature (signed by a key the issuer does not publish, or altered claims) is 530020', async () => {
    const { fetch } = network();
    const stranger: TestKey = { ...testKey('RS256'), kid: rsa.kid };
    expect(await codeOf(verify(mintIdToken(stranger, claims()), fetch))).toBe(530020);
    const [h, , s] = mintIdToken(rsa, claims()).split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify(claims({ sub: 'admin' }))).toString('base64url')}.${s}`;
    expect(await codeOf(verify(forged, fetch))).toBe(530020);
  });

  it('alg none, HS256 and tokens that are not JWTs are 530020, before any fetch', async () => {
    const { fetch, calls } = network();
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims())).toString('base64url')}.`;
    expect(await codeOf(verify(none, fetch))).toBe(530020);
    expect(await codeOf(verify(mintIdToken(rsa, claims(), { alg: 'HS256' }), fetch))).toBe(530020);
    expect(await codeOf(verify('not-a-jwt', fetch))).toBe(530020);
    expect(calls).toEqual([]);
  });

  it('a wrong issuer is 530002', async () => {
    const { fetch } = network();
    expect(await codeOf(verify(mintIdToken(rsa, claims({ iss: 'https://evil.example-idp.com' })), fetch))).toBe(530002);
  });

  it('a wrong audience is 530003', async () => {
    const { fetch } = network();
    expect(await codeOf(verify(mintIdToken(rsa, claims({ aud: 'another-game' })), fetch))).toBe(530003);
  });

  it('an expired token is 530001 by the given (platform) clock, and valid a second earlier', async () => {
    const { fetch } = network();
    const token = mintIdToken(rsa, claims({ exp: seconds(NOW) }));
    expect(await codeOf(verify(token, fetch, NOW))).toBe(530001);
    expect((await verify(token, fetch, NOW - 1000)).sub).toBe('player-42');
  });

  it('a token issued more than a week ago is 530004; one not valid yet (nbf) is 530020', async () => {
    const { fetch } = network();
    const old = mintIdToken(rsa, claims({ iat: seconds(NOW) - 8 * 24 * 3600 }));
    expect(await codeOf(verify(old, fetch))).toBe(530004);
    expect(await codeOf(verify(mintIdToken(rsa, claims({ nbf: seconds(NOW) + 60 })), fetch))).toBe(530020);
  });
});

describe('OIDC discovery blocks HTTP redirects (Authentication rule 4)', () => {
  const key = testKey('ES256');

  it('fetches with redirect: "manual", and a redirecting configuration document is 530008', async () => {
    const { fetch, calls } = fakeNetwork({
      [`${ISSUER}/.well-known/openid-configuration`]: redirectTo('https://elsewhere.game-cdn.com/oidc'),
    });
    const error = await fetchDiscovery(ISSUER, strict(fetch)).catch((e: ApiError) => e);
    expect((error as ApiError).code).toBe(530008);
    expect((error as ApiError).message).toMatch(/redirect/);
    expect(calls).toEqual([{ url: `${ISSUER}/.well-known/openid-configuration`, redirect: 'manual' }]);
  });

  it('a redirecting key set (JWKS) is 530009, and is never followed', async () => {
    const routes = providerRoutes(ISSUER, [key]);
    routes[`${ISSUER}/jwks.json`] = redirectTo('https://keys.attacker-cdn.com/jwks.json');
    const { fetch, calls } = fakeNetwork(routes);
    expect(await codeOf(fetchKeySet(ISSUER, strict(fetch)))).toBe(530009);
    expect(calls.map((c) => c.redirect)).toEqual(['manual', 'manual']);
    expect(calls.some((c) => c.url.includes('attacker'))).toBe(false);
  });

  it("a browser's opaqueredirect answer counts as a redirect", async () => {
    const opaque = () =>
      Object.defineProperty(new Response(null, { status: 200 }), 'type', { value: 'opaqueredirect' });
    const { fetch } = fakeNetwork({ [`${ISSUER}/.well-known/openid-configuration`]: opaque });
    expect(await codeOf(fetchDiscovery(ISSUER, strict(fetch)))).toBe(530008);
  });

  it('a legacy configuration (made before the rule) still follows redirects: unaffected until edited', async () => {
    const legacyIssuer = 'http://10.0.0.5:8080/idp';
    const fetch: FetchLike = async (url, init) => {
      expect(init?.redirect).toBe('follow');
      if (url === `${legacyIssuer}/.well-known/openid-configuration`)
        return Response.json({ issuer: legacyIssuer, jwks_uri: `${legacyIssuer}/keys` });
      return Response.json({ keys: [key.jwk] });
    };
    expect(await fetchKeySet(legacyIssuer, { mode: 'legacy', fetch })).toHaveLength(1);
  });

  it('a discovery document naming another issuer, or a jwks_uri on a rejected host, is 530008', async () => {
    const other = fakeNetwork({
      [`${ISSUER}/.well-known/openid-configuration`]: () =>
        Response.json({ issuer: 'https://other.game-studio.com', jwks_uri: `${ISSUER}/jwks.json` }),
    });
    expect(await codeOf(fetchDiscovery(ISSUER, strict(other.fetch)))).toBe(530008);
    const local = fakeNetwork(providerRoutes(ISSUER, [key], 'http://127.0.0.1/jwks.json'));
    expect(await codeOf(fetchDiscovery(ISSUER, strict(local.fetch)))).toBe(530008);
  });

  it('an unreachable issuer or a non-JSON answer is 530008, never a crash', async () => {
    const failing: FetchLike = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await codeOf(fetchDiscovery(ISSUER, strict(failing)))).toBe(530008);
    const html = fakeNetwork({ [`${ISSUER}/.well-known/openid-configuration`]: () => new Response('<html>') });
    expect(await codeOf(fetchDiscovery(ISSUER, strict(html.fetch)))).toBe(530008);
  });
});

describe('OIDC issuer URLs get stricter hostname checks (Authentication rule 4)', () => {
  it.each([
    ['http://login.game-studio.com', /https/],
    ['https://127.0.0.1', /IP address/],
    ['https://0x7f.1', /IP address/],
    ['https://[::1]', /IP address/],
    ['https://localhost', /fully qualified|public/],
    ['https://idp.localhost', /public/],
    ['https://printer.local', /public/],
    ['https://auth.corp.internal', /public/],
    ['https://intranet', /fully qualified/],
    ['https://user:pw@login.game-studio.com', /user name/],
    ['https://login.game-studio.com:8443', /port/],
    ['https://login.game-studio.com/?tenant=1', /query/],
    ['https://login.game-studio.com.', /dot/],
    ['https://-bad-.game-studio.com', /DNS name/],
    ['not a url', /absolute/],
  ])('rejects %s', (issuer, reason) => {
    expect(issuerUrlProblem(issuer, 'strict')).toMatch(reason);
  });

  it.each([
    'https://login.game-studio.com',
    'https://accounts.google.com',
    'https://id.xn--bcher-kva.de/tenant/v2.0',
    'https://login.game-studio.com:443',
  ])('accepts %s', (issuer) => {
    expect(issuerUrlProblem(issuer, 'strict')).toBeNull();
  });

  it('legacy configurations keep the lax check (any absolute http(s) URL)', () => {
    expect(issuerUrlProblem('http://127.0.0.1:9000/idp', 'legacy')).toBeNull();
    expect(issuerUrlProblem('ftp://login.game-studio.com', 'legacy')).toMatch(/http/);
  });

  it('hostnameProblem accepts a public name and rejects a 64-character label', () => {
    expect(hostnameProblem('sso.game-studio.co.uk')).toBeNull();
    expect(hostnameProblem(`${'a'.repeat(64)}.com`)).toMatch(/DNS name/);
    // The URL parser already refuses most numeric names; the check stands on its own too.
    expect(hostnameProblem('login.123')).toMatch(/numeric/);
  });
});
