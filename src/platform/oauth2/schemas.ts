/**
 * Request schemas of OAuth2 (RFC 6749, 7009, 7636): the authorize request and its decision, and
 * the token endpoints' form parameters. Their messages are fixed text: a default valibot message
 * would quote the value received, and values here are secrets.
 */
import * as v from 'valibot';
import { OAUTH2_NONCE_MAX_LENGTH } from '../core/limits';
import { jsonObject } from '../core/json-object';
import { snowflakeSchema } from '../core/schema-parts';

/** RFC 7636 §4.2: a code challenge is 43 to 128 unreserved characters. */
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/** `GET /oauth2/authorize` (and its decision): the client, scopes, redirect, state, PKCE challenge, install context and nonce. */
// Every message is fixed text: a default valibot message would quote the value received.
export const AuthorizeQuerySchema = v.object({
  client_id: v.pipe(v.string('Required.'), v.regex(/^\d{1,20}$/, 'Value is not snowflake.')),
  response_type: v.picklist(['code'], 'Must be "code".'),
  scope: v.string('Required.'),
  redirect_uri: v.optional(v.string('Must be a string.')),
  state: v.optional(v.string('Must be a string.')),
  code_challenge: v.optional(
    v.pipe(
      v.string('Must be a string.'),
      v.regex(CODE_CHALLENGE, 'Must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~".'),
    ),
  ),
  code_challenge_method: v.optional(v.picklist(['S256', 'plain'], 'Must be "S256" or "plain".')),
  prompt: v.optional(v.picklist(['consent', 'none'], 'Must be "consent" or "none".')),
  integration_type: v.optional(
    v.pipe(
      v.picklist(['0', '1'], 'Must be 0 (guild install) or 1 (user install).'),
      v.transform((s) => (s === '1' ? 1 : 0) as 0 | 1),
    ),
  ),
  nonce: v.optional(
    v.pipe(
      v.string('Must be a string.'),
      v.minLength(1, 'Must not be empty.'),
      v.maxLength(OAUTH2_NONCE_MAX_LENGTH, `Must be ${OAUTH2_NONCE_MAX_LENGTH} or fewer in length.`),
    ),
  ),
  user_id: v.optional(snowflakeSchema),
});

/** `POST /oauth2/authorize`: the simulated user's answer in the consent dialog. */
export const AuthorizeDecisionSchema = jsonObject({
  authorize: v.boolean('Must be a boolean.'),
  user_id: snowflakeSchema,
});

/** Form parameters the token endpoints read; others are ignored (RFC 6749 §3.2). */
export const TOKEN_FORM_PARAMS = [
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'client_id',
  'client_secret',
  'refresh_token',
  'scope',
  'token',
  'token_type_hint',
  // A provisional account's identity, merged into the account that authorized (provisional-merge.ts).
  'external_auth_type',
  'external_auth_token',
];

const present = (name: string) =>
  v.pipe(v.string(`Missing "${name}" in request.`), v.minLength(1, `Missing "${name}" in request.`));

/** `POST /oauth2/token`: the parameters each grant type needs, with RFC 6749's error wording. */
export const TokenGrantSchemas = {
  authorization_code: jsonObject({
    code: present('code'),
    redirect_uri: v.optional(v.string()),
    code_verifier: v.optional(v.string()),
  }),
  refresh_token: jsonObject({ refresh_token: present('refresh_token'), scope: v.optional(v.string()) }),
  client_credentials: jsonObject({ scope: present('scope') }),
} as const;

/** `POST /oauth2/token/revoke`: the token to revoke (RFC 7009). */
export const RevokeFormSchema = jsonObject({ token: present('token') });

/** `POST /sandbox/tokens` (CONTRACT §3): an access token for a user of an application, without the consent screen. */
export const SandboxTokenSchema = jsonObject({
  application_id: snowflakeSchema,
  user_id: snowflakeSchema,
  scopes: v.pipe(v.string(), v.minLength(1)),
});
