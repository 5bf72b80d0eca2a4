/**
 * Credentials out of what a developer panel shows: the demo's gateway stream and webhook panel,
 * and the host page's RPC inspector all keep payloads only through {@link redact}, so no panel
 * (and no file exported from one) can show a token even though some payloads carry one
 * (Identify's token, AUTHENTICATE's access token, AUTHORIZE's code, an interaction's token).
 */

/** Keys whose values are never kept. */
const SECRET_KEY = /token|secret|password|authorization|code_verifier|^code$/i;
/** A whole value that is an Authorization header's credential. */
const SECRET_VALUE = /^(Bearer|Bot|Basic)\s+\S+$/i;
/**
 * Credentials written inside a text: a scheme and a token-length credential, a `key=value` of a
 * secret, and the platform's bot token shape (base64 user id, 6 and 36 random characters).
 * Ordinary words after "bot" ("the bot sees it") are too short to be a token and stay.
 */
const IN_TEXT: [RegExp, string][] = [
  [/\b(Bearer|Bot|Basic)(\s+)[A-Za-z0-9._~+/=-]{20,}/gi, '$1$2[redacted]'],
  [
    /\b(access_token|refresh_token|client_secret|bot_token|token|code_verifier)(["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/=%-]+/gi,
    '$1$2[redacted]',
  ],
  [/[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}/g, '[redacted]'],
];

/**
 * A deep copy of `value` with credentials replaced by "[redacted]": the value of every key that
 * names one (token, secret, password, authorization, code) unless it is a number, a whole value that is a credential
 * (`Bearer …`), and a token written inside a text (a bot token pasted into a message).
 * @example redact({ access_token: 'x', user: { id: '1' } }) // { access_token: '[redacted]', user: { id: '1' } }
 */
export function redact(value: unknown, key = ''): unknown {
  // A number is never a credential: a CLOSE's or an ERROR's `code` stays readable.
  if (SECRET_KEY.test(key) && value !== null && value !== undefined && typeof value !== 'number') return '[redacted]';
  if (typeof value === 'string')
    return SECRET_VALUE.test(value)
      ? '[redacted]'
      : IN_TEXT.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), value);
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  return value;
}

/**
 * A path with its query's credentials redacted by the same rules, key by key (`?code=…`,
 * `?access_token=…`): what an inspector shows of a request's URL.
 * @example redactPath('/.proxy/api/token?code=abc&x=1') // '/.proxy/api/token?code=%5Bredacted%5D&x=1'
 */
export function redactPath(path: string): string {
  const at = path.indexOf('?');
  if (at < 0) return redact(path) as string;
  const query = new URLSearchParams(path.slice(at + 1));
  const kept = new URLSearchParams();
  for (const [k, v] of query) kept.append(k, redact(v, k) as string);
  return `${redact(path.slice(0, at)) as string}?${kept}`;
}
