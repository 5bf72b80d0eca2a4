/**
 * The account operations of the client over the platform's OAuth2 endpoints: `authorize` (the
 * consent step in the host platform client), `getToken` (authorization code + PKCE verifier),
 * `refreshToken` and `revokeToken`. Public-client requests: the game sends its client id and
 * never a secret.
 */
import { authorizeRedirectUri, toApplicationId, type AuthorizationArgs } from './authorization-args';
import { generateState } from './code-verifier';
import { ErrorType, SdkError } from './errors';
import type { SdkHttp } from './http';
import type { SdkLogger } from './logger';
import { AuthorizationTokenType, type AuthorizeResult, type ConsentFunction, type TokenResult } from './types';

/** What the account operations need of the client. */
export interface AuthContext {
  http: SdkHttp;
  log: SdkLogger;
  /** The id from `setApplicationId`, if any. */
  applicationId(): string | undefined;
  /** The simulated user who is asked for consent. */
  userId: string | undefined;
  consent: ConsentFunction;
}

/** The token endpoint's answer. */
interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope: string;
  id_token?: string;
}

/** The token answer as the SDK hands it out; the tokens are scrubbed from every later log line. */
export function tokenResult(log: SdkLogger, answer: TokenAnswer): TokenResult {
  log.addSecret(answer.access_token);
  log.addSecret(answer.refresh_token);
  log.addSecret(answer.id_token);
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    tokenType: AuthorizationTokenType.Bearer,
    expiresIn: answer.expires_in,
    scopes: answer.scope,
    ...(answer.id_token ? { idToken: answer.id_token } : {}),
  };
}

/**
 * The consent step: asks the user in the host platform client, then records the answer at
 * `/oauth2/authorize`. Resolves with the code and the redirect URI it is bound to; the user's
 * "Cancel" rejects with `Aborted` / `access_denied`.
 */
export async function authorize(ctx: AuthContext, args: AuthorizationArgs): Promise<AuthorizeResult> {
  if (!args.isValid())
    throw SdkError.validation(
      'authorize() was given an AuthorizationArgs that holds no object (nullobj or moved from).',
    );
  const scopes = args.scopes().trim();
  if (scopes === '') {
    throw SdkError.validation(
      'AuthorizationArgs.Scopes is required: set it with setScopes(), e.g. Client.getDefaultCommunicationScopes().',
    );
  }
  const unset = args.clientId() ?? ctx.applicationId();
  if (unset === undefined)
    throw SdkError.validation(
      'authorize() needs a client id: set AuthorizationArgs.ClientId or call Client.setApplicationId().',
    );
  const clientId = toApplicationId(unset);
  if (ctx.userId === undefined)
    throw SdkError.validation(
      'authorize() needs the simulated user who consents: pass userId to new Client({ userId }).',
    );
  const state = args.state() ?? generateState();
  const redirectUri = authorizeRedirectUri(clientId, args.customSchemeParam());
  const challenge = args.codeChallenge();
  const query = {
    client_id: clientId,
    response_type: 'code',
    scope: scopes,
    state,
    redirect_uri: redirectUri,
    nonce: args.nonce(),
    code_challenge: challenge?.challenge,
    code_challenge_method: challenge?.method,
    integration_type: args.integrationType(),
  };
  ctx.log.info(`Authorize: asking for ${scopes} for application ${clientId}.`);
  const [described, user] = await Promise.all([
    ctx.http.call<{ application: { id: string; name: string }; scopes: string[] }>('GET', '/oauth2/authorize', {
      query,
      auth: false,
    }),
    ctx.http.call<{ user: { id: string; username: string } }>(
      'GET',
      `/sandbox/users/${encodeURIComponent(ctx.userId)}`,
      { auth: false },
    ),
  ]);
  let granted: boolean;
  try {
    granted = await ctx.consent({
      application: described.application,
      scopes: described.scopes,
      user: { id: user.user.id, username: user.user.username },
    });
  } catch (error) {
    throw new SdkError({
      type: ErrorType.RPCError,
      message: `The host platform client could not ask for consent: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  const answer = await ctx.http.call<{ code?: string; error?: string; state: string | null }>(
    'POST',
    '/oauth2/authorize',
    {
      query,
      auth: false,
      body: { authorize: granted, user_id: ctx.userId },
    },
  );
  if (answer.state !== state) {
    throw new SdkError({
      type: ErrorType.AuthorizationFailed,
      code: 'invalid_state',
      message: 'The authorization answer did not carry the state that was sent; its code was not used.',
    });
  }
  if (!answer.code) {
    throw new SdkError({
      type: ErrorType.Aborted,
      code: answer.error ?? 'access_denied',
      message: `The user did not authorize ${described.application.name} (access_denied).`,
    });
  }
  ctx.log.addSecret(answer.code);
  ctx.log.info(`Authorize: ${described.application.name} was authorized.`);
  return { code: answer.code, redirectUri, state };
}

/**
 * `authorization_code` grant: the code from `authorize`, the verifier of its challenge, and
 * the same redirect URI.
 */
export async function getToken(
  ctx: AuthContext,
  applicationId: string,
  code: string,
  codeVerifier: string,
  redirectUri: string,
): Promise<TokenResult> {
  const clientId = toApplicationId(applicationId, 'applicationId');
  for (const [name, value] of Object.entries({ code, codeVerifier, redirectUri })) {
    if (typeof value !== 'string' || value === '')
      throw SdkError.validation(`getToken() needs ${name} (a non-empty string).`);
  }
  const answer = await ctx.http.call<TokenAnswer>('POST', '/oauth2/token', {
    auth: false,
    form: {
      grant_type: 'authorization_code',
      code,
      code_verifier: codeVerifier,
      redirect_uri: redirectUri,
      client_id: clientId,
    },
  });
  ctx.log.info('GetToken: tokens received.');
  return tokenResult(ctx.log, answer);
}

/**
 * `refresh_token` grant. A token deleted on the platform (the user removed the app, or was
 * banned) is `invalid_grant`: treat it as a deauthorization and authorize again. So is the
 * deprecated refresh of an OpenID Connect provisional account, which authenticates again.
 */
export async function refreshToken(ctx: AuthContext, applicationId: string, refresh: string): Promise<TokenResult> {
  const clientId = toApplicationId(applicationId, 'applicationId');
  if (typeof refresh !== 'string' || refresh === '')
    throw SdkError.validation('refreshToken() needs the refresh token (a non-empty string).');
  try {
    const answer = await ctx.http.call<TokenAnswer>('POST', '/oauth2/token', {
      auth: false,
      form: { grant_type: 'refresh_token', refresh_token: refresh, client_id: clientId },
    });
    return tokenResult(ctx.log, answer);
  } catch (error) {
    if (error instanceof SdkError && error.code === 'invalid_grant') {
      throw new SdkError({
        type: ErrorType.AuthorizationFailed,
        status: error.status,
        code: 'invalid_grant',
        message: `${error.message} - this refresh token can no longer be used: authorize again (a provisional account authenticates again and passes its new access token to updateToken).`,
      });
    }
    throw error;
  }
}

/** RFC 7009 revocation of an access or refresh token (and the other half of its pair). */
export async function revokeToken(ctx: AuthContext, applicationId: string, token: string): Promise<void> {
  const clientId = toApplicationId(applicationId, 'applicationId');
  if (typeof token !== 'string' || token === '')
    throw SdkError.validation('revokeToken() needs the token to revoke (a non-empty string).');
  await ctx.http.call('POST', '/oauth2/token/revoke', { auth: false, form: { token, client_id: clientId } });
  ctx.log.info('RevokeToken: token revoked.');
}
