/**
 * OAuth2 endpoints (RFC 6749 / 7009 / 7636). `/authorize` is the consent step the host page's
 * dialog drives (JSON, platform errors); `/token` and `/token/revoke` take
 * `application/x-www-form-urlencoded` and answer RFC errors `{error, error_description}`;
 * `/@me` is the current authorization of a Bearer token; `/keys` and the discovery document
 * publish what verifies the platform's ID tokens (`oidc-provider.ts`).
 */
import { userInfoOf } from '../../src/platform/oauth2/userinfo';
import { Hono } from 'hono';
import * as v from 'valibot';
import { OAuth2Error } from '../../src/platform/core/errors';
import { JSON_BODY_MAX_BYTES } from '../../src/platform/core/limits';
import {
  currentAuthorization,
  issueClientCredentials,
  redeemAuthorizationCode,
  refreshAccessToken,
  revokeToken,
} from '../../src/platform/oauth2/token-endpoint';
import {
  checkAuthorizeRequest,
  decideAuthorization,
  describeAuthorizeRequest,
} from '../../src/platform/oauth2/authorize';
import { authenticateClient, readClientCredentials } from '../../src/platform/oauth2/client-auth';
import { platformDiscoveryDocument, platformKeySet } from '../../src/platform/oauth2/oidc-provider';
import { PLATFORM_DISCOVERY_PATH } from '../../src/wire/paths';
import { refuseDeprecatedRefresh } from '../../src/platform/accounts/provisional';
import { redeemAuthorizationCodeWithMerge } from '../../src/platform/accounts/provisional-merge';
import { bearerOf, errorResponse, readJson, readQuery, type AppContext, type AppEnv, publicOrigin } from '../http';
import { networkFetch } from './partner-sdk';
import { ensureEventWebhooks } from '../../src/platform/webhooks/config';
import {
  AuthorizeDecisionSchema,
  AuthorizeQuerySchema,
  RevokeFormSchema,
  TOKEN_FORM_PARAMS,
  TokenGrantSchemas,
} from '../../src/platform/oauth2/schemas';

/** RFC 6749 §5.1: token answers must not be cached. */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/**
 * The form body of a token request: `application/x-www-form-urlencoded`, each known parameter
 * at most once (RFC 6749 §3.2). Anything else is `invalid_request`.
 */
async function readForm(c: AppContext): Promise<Record<string, string>> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('Content-Type') ?? '')) {
    throw new OAuth2Error('invalid_request', 'The request body must be application/x-www-form-urlencoded.');
  }
  const text = await c.req.text();
  if (new TextEncoder().encode(text).byteLength > JSON_BODY_MAX_BYTES)
    throw new OAuth2Error('invalid_request', 'The request body is too large.');
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (!TOKEN_FORM_PARAMS.includes(name)) continue;
    if (name in form) throw new OAuth2Error('invalid_request', `Parameter "${name}" must not be repeated.`);
    form[name] = value;
  }
  return form;
}

/** Validates form parameters; a failure names the parameter, never its value. */
function formParams<S extends v.GenericSchema>(schema: S, form: Record<string, string>): v.InferOutput<S> {
  const result = v.safeParse(schema, form);
  if (result.success) return result.output;
  const name = v.getDotPath(result.issues[0]) ?? 'request';
  throw new OAuth2Error('invalid_request', `Missing or invalid "${name}" in request.`);
}

/**
 * Runs a token-endpoint handler, answering its OAuth2 errors with `no-store` and, for
 * `invalid_client`, the `WWW-Authenticate` challenge RFC 6749 §5.2 asks for.
 */
async function tokenEndpoint(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof OAuth2Error)) throw error;
    const response = errorResponse(error);
    if (error.status === 401) response.headers.set('WWW-Authenticate', 'Basic realm="platformpp", charset="UTF-8"');
    return response;
  }
}

/** The OAuth2 routes, mounted at `/oauth2`, `/api/oauth2` and `/api/v10/oauth2`. */
export function oauth2Routes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/authorize', async (c) => {
    const ctx = c.get('ctx');
    const { user_id, ...params } = readQuery(c, AuthorizeQuerySchema);
    const request = await checkAuthorizeRequest(ctx, params);
    return c.json(await describeAuthorizeRequest(ctx, request, user_id));
  });

  r.post('/authorize', async (c) => {
    const ctx = c.get('ctx');
    const { user_id: _ignored, ...params } = readQuery(c, AuthorizeQuerySchema);
    const request = await checkAuthorizeRequest(ctx, params);
    const decision = await readJson(c, AuthorizeDecisionSchema);
    return c.json(await decideAuthorization(ctx, request, decision), 200, NO_STORE);
  });

  r.post('/token', (c) =>
    tokenEndpoint(async () => {
      const ctx = c.get('ctx');
      const form = await readForm(c);
      if (!form.grant_type) throw new OAuth2Error('invalid_request', 'Missing "grant_type" in request.');
      const client = await authenticateClient(ctx, readClientCredentials(c.req.header('Authorization'), form));
      let answer: object;
      switch (form.grant_type) {
        case 'authorization_code':
          answer =
            form.external_auth_type !== undefined || form.external_auth_token !== undefined
              ? await redeemAuthorizationCodeWithMerge(
                  ctx,
                  client,
                  formParams(TokenGrantSchemas.authorization_code, form),
                  form,
                  networkFetch,
                )
              : await redeemAuthorizationCode(ctx, client, formParams(TokenGrantSchemas.authorization_code, form), {
                  issuer: publicOrigin(c),
                });
          break;
        case 'refresh_token':
          await refuseDeprecatedRefresh(ctx, form.refresh_token);
          answer = await refreshAccessToken(ctx, client, formParams(TokenGrantSchemas.refresh_token, form));
          break;
        case 'client_credentials':
          answer = await issueClientCredentials(ctx, client, formParams(TokenGrantSchemas.client_credentials, form));
          break;
        default:
          throw new OAuth2Error('unsupported_grant_type', 'The authorization grant type is not supported.');
      }
      return c.json(answer, 200, NO_STORE);
    }),
  );

  r.post('/token/revoke', (c) =>
    tokenEndpoint(async () => {
      const ctx = c.get('ctx');
      const form = await readForm(c);
      const client = await authenticateClient(ctx, readClientCredentials(c.req.header('Authorization'), form));
      await revokeToken(ctx, client, formParams(RevokeFormSchema, form).token);
      return c.json({}, 200, NO_STORE);
    }),
  );

  // The key set a backend verifies the platform's ID tokens with (OpenID Connect).
  r.get('/keys', async (c) => c.json(await platformKeySet(c.get('ctx')), 200, { 'Cache-Control': 'no-cache' }));

  r.get('/@me', async (c) => {
    const principal = bearerOf(c);
    const { verify_key } = await ensureEventWebhooks(c.get('ctx'), principal.application.id);
    return c.json(currentAuthorization(principal, verify_key));
  });

  // OpenID Connect UserInfo: the claims of the token's user (the access table asks for `openid`).
  r.get('/userinfo', async (c) => c.json(userInfoOf(bearerOf(c))));

  return r;
}

/**
 * The platform's OpenID Connect discovery document at `/.well-known/openid-configuration`, for
 * the origin the request came to (the issuer of the ID tokens issued there).
 */
export function openidDiscoveryRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get(PLATFORM_DISCOVERY_PATH, (c) => c.json(platformDiscoveryDocument(publicOrigin(c))));
  return r;
}
