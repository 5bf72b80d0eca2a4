/**
 * OIDC issuer URLs and the stricter hostname checks (spec, Authentication rule 4): an issuer
 * configured or edited now must be an `https` URL on a public DNS name. Integrations
 * configured before the checks keep the lax ones until their configuration is edited.
 *
 * The strict checks, chosen here because the spec does not list them:
 * - scheme `https`; no user name or password; no port other than the default (443);
 *   no query and no fragment (OpenID Connect Discovery §2: an issuer has neither);
 * - a host name, not an IP literal (IPv4 in any notation the URL parser accepts, or IPv6);
 * - at least two labels, each 1-63 characters of letters, digits and inner hyphens, 253 in
 *   all, no trailing dot, and a top-level label that is not all digits;
 * - not a name that never reaches the public internet: `localhost` and the special-use or
 *   private top-level names in {@link NON_PUBLIC_TLDS}.
 */

/** Which checks an issuer URL gets: `strict` for configurations made or edited under the rule. */
export type IssuerCheckMode = 'strict' | 'legacy';

/** Top-level names that are special-use (RFC 6761, RFC 6762, RFC 7686, RFC 8375) or private by convention. */
export const NON_PUBLIC_TLDS: ReadonlySet<string> = new Set([
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'private',
  'corp',
  'home',
  'lan',
  'arpa',
  'onion',
  'invalid',
  'test',
  'example',
]);

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Why `hostname` (as the WHATWG URL parser normalized it: lower case, IDN as punycode, IPv4
 * in dotted form) fails the strict checks, or null when it passes.
 * @example hostnameProblem('127.0.0.1') // 'Must be a host name, not an IP address.'
 */
export function hostnameProblem(hostname: string): string | null {
  if (hostname.startsWith('[') || IPV4.test(hostname)) return 'Must be a host name, not an IP address.';
  if (hostname.endsWith('.')) return 'Must not end with a dot.';
  if (hostname.length > 253) return 'Must be 253 or fewer characters.';
  const labels = hostname.split('.');
  if (labels.length < 2) return 'Must be a fully qualified domain name.';
  if (!labels.every((l) => LABEL.test(l)))
    return 'Must be a valid DNS name (labels of letters, digits and inner hyphens).';
  const tld = labels[labels.length - 1];
  if (/^\d+$/.test(tld)) return 'Must not end with a numeric label.';
  if (labels.includes('localhost') || NON_PUBLIC_TLDS.has(tld)) return 'Must be a public host name.';
  return null;
}

/**
 * Why `issuer` may not be an OIDC issuer under `mode`, or null when it may. Legacy
 * configurations need only an absolute http(s) URL.
 * @example issuerUrlProblem('https://login.game-studio.com', 'strict') // null
 */
export function issuerUrlProblem(issuer: string, mode: IssuerCheckMode): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'Must be an absolute URL.';
  }
  if (mode === 'legacy')
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'Must be an http or https URL.';
  if (url.protocol !== 'https:') return 'Must be an https URL.';
  if (url.username !== '' || url.password !== '') return 'Must not contain a user name or password.';
  if (url.port !== '') return 'Must not name a port.';
  if (url.search !== '' || url.hash !== '' || issuer.includes('?') || issuer.includes('#'))
    return 'Must not contain a query or a fragment.';
  return hostnameProblem(url.hostname);
}

/**
 * The URL of an issuer's discovery document (OpenID Connect Discovery §4: the issuer with
 * `/.well-known/openid-configuration` appended, one slash between).
 */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}
