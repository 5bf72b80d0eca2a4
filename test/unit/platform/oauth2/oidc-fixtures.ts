/**
 * An identity provider for OIDC tests, built on node's own crypto (independent of the
 * platform's WebCrypto code): key pairs, signed ID tokens, and a fake fetch that serves the
 * discovery document and key set, or redirects, as a test asks.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export type Alg = 'RS256' | 'ES256';

/** A signing key pair with its public JWK. */
export interface TestKey {
  alg: Alg;
  kid: string;
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** A fresh key pair for `alg`. */
export function testKey(alg: Alg, kid = `${alg.toLowerCase()}-key`): TestKey {
  const pair =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...(pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown>), kid, alg, use: 'sig' };
  return { alg, kid, privateKey: pair.privateKey, jwk };
}

/** A compact JWS of `claims` signed with `key` (or with `header` overrides, for bad tokens). */
export function mintIdToken(
  key: TestKey,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): string {
  const input = `${b64url(JSON.stringify({ alg: key.alg, typ: 'JWT', kid: key.kid, ...header }))}.${b64url(JSON.stringify(claims))}`;
  const signature =
    key.alg === 'RS256'
      ? sign('sha256', Buffer.from(input), key.privateKey)
      : sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(signature)}`;
}

/** One fake fetch call, as the verifier made it. */
export interface FetchCall {
  url: string;
  redirect: RequestRedirect | undefined;
}

/** A fake network: URL → response. Unknown URLs answer 404. */
export function fakeNetwork(routes: Record<string, () => Response>) {
  const calls: FetchCall[] = [];
  const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
    calls.push({ url: input, redirect: init?.redirect });
    const route = routes[input];
    return route ? route() : new Response('not found', { status: 404 });
  };
  return { fetch, calls };
}

/** The discovery document and key set of `issuer`, served at the usual places. */
export function providerRoutes(
  issuer: string,
  keys: TestKey[],
  jwksUri = `${issuer}/jwks.json`,
): Record<string, () => Response> {
  return {
    [`${issuer}/.well-known/openid-configuration`]: () =>
      Response.json({ issuer, jwks_uri: jwksUri, id_token_signing_alg_values_supported: ['RS256', 'ES256'] }),
    [jwksUri]: () => Response.json({ keys: keys.map((k) => k.jwk) }),
  };
}

/** A redirect as `fetch(..., {redirect: 'manual'})` answers it outside a browser. */
export function redirectTo(location: string): () => Response {
  return () => new Response(null, { status: 302, headers: { Location: location } });
}
