/**
 * The consent step of the authorization-code flow (RFC 6749 §4.1, PKCE RFC 7636): checking an
 * authorize request, describing it for the consent dialog, and recording the user's decision
 * as a single-use code bound to the client, the user, the redirect URI, the scopes and the
 * code challenge. The first authorization of an application by a user emits
 * APPLICATION_AUTHORIZED for webhooks.
 */
import type { AuthCodeRecord } from '../../store/schema';
import { write, type WriteTx } from '../../store/write';
import { banHolds } from '../accounts/ban-checks';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { OAUTH2_CODE_TTL_MS } from '../core/limits';
import { scopeRefusal } from './consent-scopes';
import type { ApplicationRecord, IntegrationType, Snowflake } from '../../store/records/core';
import { parseScopes, type Scope } from './scopes';
import { generateSecret, hashSecret } from '../core/secrets';
import { serializeUser } from '../accounts/users';

/** An authorize request after its parameters passed the route's schema. */
export interface AuthorizeParams {
  client_id: Snowflake;
  scope: string;
  redirect_uri?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: 'S256' | 'plain';
  prompt?: 'consent' | 'none';
  integration_type?: IntegrationType;
  /** OpenID Connect nonce, echoed in the code's ID token. */
  nonce?: string;
}

/** A checked authorize request, with its application. */
export interface AuthorizeRequest {
  application: ApplicationRecord;
  scopes: Scope[];
  redirect_uri: string | null;
  state: string | null;
  code_challenge: string | null;
  code_challenge_method: 'S256' | 'plain' | null;
  prompt: 'consent' | 'none';
  integration_type: IntegrationType;
  nonce: string | null;
}

/** What answers a decision: where the host page sends the user next, and what it carries. */
export type AuthorizeAnswer =
  | { code: string; state: string | null; location: string | null }
  | { error: 'access_denied'; error_description: string; state: string | null; location: string | null };

/** Schemes a redirect may never use: the host page navigates to the answer's location. */
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'blob:', 'file:']);

/** The partial application the consent step and `/oauth2/@me` show. */
export function serializeConsentApplication(app: ApplicationRecord) {
  return {
    id: app.id,
    name: app.name,
    icon: null,
    description: app.description,
    bot_public: app.bot_public,
    bot_require_code_grant: app.bot_require_code_grant,
  };
}

/**
 * Checks an authorize request against the application it names. Every refusal is a 400 naming
 * the bad parameter: an unknown client, an unknown or unavailable scope, a redirect URI that is
 * not absolute or not registered (when the application registered any).
 * @example const request = await checkAuthorizeRequest(ctx, { client_id, scope: 'openid sdk.social_layer' });
 */
export async function checkAuthorizeRequest(ctx: PlatformContext, params: AuthorizeParams): Promise<AuthorizeRequest> {
  const application = await ctx.db.get('applications', params.client_id);
  if (!application) throw ApiError.invalidForm({ client_id: 'Unknown application.' });
  const { scopes, unknown } = parseScopes(params.scope);
  // The unknown names are not quoted back: a client may paste anything there, a token included.
  if (unknown.length > 0) throw ApiError.invalidForm({ scope: `Contains ${unknown.length} unknown scope(s).` });
  if (scopes.length === 0) throw ApiError.invalidForm({ scope: 'At least one scope is required.' });
  for (const scope of scopes) {
    const refusal = scopeRefusal(application, scope);
    if (refusal) throw ApiError.invalidForm({ scope: refusal });
  }
  const redirect = params.redirect_uri ?? null;
  if (redirect !== null) {
    const problem = redirectProblem(application, redirect);
    if (problem) throw ApiError.invalidForm({ redirect_uri: problem });
  }
  if (params.code_challenge_method && !params.code_challenge) {
    throw ApiError.invalidForm({ code_challenge: 'Required when code_challenge_method is set.' });
  }
  return {
    application,
    scopes,
    redirect_uri: redirect,
    state: params.state ?? null,
    code_challenge: params.code_challenge ?? null,
    // RFC 7636 §4.3: without a method the challenge is plain.
    code_challenge_method: params.code_challenge ? (params.code_challenge_method ?? 'plain') : null,
    prompt: params.prompt ?? 'consent',
    // The consent step installs to the user who consents: a user install unless asked otherwise.
    integration_type: params.integration_type ?? 1,
    nonce: params.nonce ?? null,
  };
}

function redirectProblem(app: ApplicationRecord, uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'Must be an absolute URI.';
  }
  // RFC 6749 §3.1.2: the redirection endpoint URI must not include a fragment.
  if (url.hash !== '' || uri.includes('#')) return 'Must not contain a fragment.';
  if (UNSAFE_SCHEMES.has(url.protocol)) return 'This URI scheme is not allowed.';
  // The sandbox has no developer portal: an application that registered no redirect URI
  // accepts any; one that registered some accepts exactly those.
  if (app.redirect_uris.length > 0 && !app.redirect_uris.includes(uri))
    return 'Not a registered redirect URI of this application.';
  return null;
}

/**
 * What the consent dialog shows. With `userId`, `authorized` tells whether that user already
 * granted every requested scope, so a host may skip the dialog for `prompt=none`.
 */
export async function describeAuthorizeRequest(ctx: PlatformContext, request: AuthorizeRequest, userId?: Snowflake) {
  const answer = {
    application: serializeConsentApplication(request.application),
    scopes: request.scopes,
    redirect_uri: request.redirect_uri,
    state: request.state,
    prompt: request.prompt,
    integration_type: request.integration_type,
  };
  if (userId === undefined) return answer;
  const tokens = await ctx.db.getAllFromIndex('tokens', 'by_application_user', [request.application.id, userId]);
  const granted = new Set(tokens.filter((t) => t.kind === 'refresh').flatMap((t) => t.scopes));
  return { ...answer, authorized: request.scopes.every((s) => granted.has(s)) };
}

/**
 * Records the user's decision. Consent issues a single-use code valid for OAUTH2_CODE_TTL_MS
 * (a banned user's consent is 403: a ban stops new authorizations); a refusal issues nothing. Either answer carries the request's `state` unchanged and, when
 * the request had a redirect URI, the location to send the user to.
 * @example const answer = await decideAuthorization(ctx, request, { authorize: true, user_id });
 */
export async function decideAuthorization(
  ctx: PlatformContext,
  request: AuthorizeRequest,
  decision: { authorize: boolean; user_id: Snowflake },
): Promise<AuthorizeAnswer> {
  if (!decision.authorize) {
    const user = await ctx.db.get('users', decision.user_id);
    if (!user || user.bot)
      throw ApiError.invalidForm({ user_id: user ? 'Bots cannot authorize applications.' : 'Unknown user.' });
    const refusal = { error: 'access_denied', error_description: 'The user denied the authorization.' } as const;
    return { ...refusal, state: request.state, location: redirectWith(request, refusal) };
  }
  const code = generateSecret(30);
  const now = ctx.clock.now();
  const record: AuthCodeRecord = {
    hash: await hashSecret(code),
    application_id: request.application.id,
    user_id: decision.user_id,
    scopes: request.scopes,
    redirect_uri: request.redirect_uri,
    code_challenge: request.code_challenge,
    code_challenge_method: request.code_challenge_method,
    expires_at: now + OAUTH2_CODE_TTL_MS,
    // Bound to the code, so the ID token carries the nonce of the request that was consented to.
    nonce: request.nonce,
  };
  await write(ctx, ['applications', 'users', 'tokens', 'auth_codes', 'bans'], async (tx, emit) => {
    const user = await tx.store('users').get(decision.user_id);
    if (!user || user.bot)
      throw ApiError.invalidForm({ user_id: user ? 'Bots cannot authorize applications.' : 'Unknown user.' });
    if (await banHolds(tx.store('bans'), user.id))
      throw ApiError.of('MISSING_ACCESS', 'This account is banned: it cannot authorize applications.');
    const app = await tx.store('applications').get(request.application.id);
    if (!app) throw ApiError.invalidForm({ client_id: 'Unknown application.' });
    const first = !(await isAuthorized(tx, app.id, user.id, now));
    await purgeExpiredCodes(tx, app.id, user.id, now);
    await tx.store('auth_codes').add(record);
    if (first) {
      if (request.integration_type === 1) {
        await tx
          .store('applications')
          .put({ ...app, approximate_user_install_count: app.approximate_user_install_count + 1 });
      }
      emit({
        type: 'APPLICATION_AUTHORIZED',
        data: { integration_type: request.integration_type, user: serializeUser(user), scopes: request.scopes },
        audience: { application_id: app.id },
        channels: ['webhook'],
      });
    }
  });
  return { code, state: request.state, location: redirectWith(request, { code }) };
}

/** An application is authorized by a user while a user grant (a refresh token) or a live code exists. */
async function isAuthorized(tx: WriteTx, applicationId: string, userId: string, now: number): Promise<boolean> {
  const key: [string, string] = [applicationId, userId];
  // Client-credentials tokens carry no refresh token: they are the owner's, not a consent.
  const tokens = await tx.store('tokens').index('by_application_user').getAll(key);
  if (tokens.some((t) => t.kind === 'refresh')) return true;
  const codes = await tx.store('auth_codes').index('by_application_user').getAll(key);
  return codes.some((c) => c.expires_at > now);
}

async function purgeExpiredCodes(tx: WriteTx, applicationId: string, userId: string, now: number): Promise<void> {
  const codes = await tx.store('auth_codes').index('by_application_user').getAll([applicationId, userId]);
  await Promise.all(codes.filter((c) => c.expires_at <= now).map((c) => tx.store('auth_codes').delete(c.hash)));
}

function redirectWith(request: AuthorizeRequest, params: Record<string, string>): string | null {
  if (request.redirect_uri === null) return null;
  const url = new URL(request.redirect_uri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  if (request.state !== null) url.searchParams.set('state', request.state);
  return url.toString();
}
