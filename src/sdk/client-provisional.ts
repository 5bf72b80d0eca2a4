/**
 * Provisional accounts and publisher-level linking from the game (spec, Authentication rules
 * 4, 6 and 8), over the platform's partner SDK endpoints: a provisional account's token from
 * an external identity, merging it into the account that authorizes (the merge is an
 * authorization-code exchange that names the identity), unmerging it again, and exchanging a
 * publisher's (parent) token for a token of one of its games (child). The game is a public
 * client: it sends its client id and never a secret.
 */
import { toApplicationId } from './authorization-args';
import type { AuthContext } from './client-auth';
import { tokenResult } from './client-auth';
import { SdkError } from './errors';
import type { TokenResult } from './types';

/**
 * The kinds of external identity a provisional account can come from, as the platform's
 * `external_auth_type` names them.
 */
export const ExternalAuthType = {
  OIDC: 'OIDC',
  SteamSessionTicket: 'STEAM_SESSION_TICKET',
  EpicOnlineServicesAccessToken: 'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  EpicOnlineServicesIdToken: 'EPIC_ONLINE_SERVICES_ID_TOKEN',
  UnityServicesIdToken: 'UNITY_SERVICES_ID_TOKEN',
  /** A token the game's server got for its own account id from the bot token endpoint. */
  DiscordBotIssuedAccessToken: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
} as const;

/** One of {@link ExternalAuthType}. */
export type ExternalAuthType = (typeof ExternalAuthType)[keyof typeof ExternalAuthType];

function identity(type: ExternalAuthType, token: string, operation: string) {
  if (!(Object.values(ExternalAuthType) as string[]).includes(type)) {
    throw SdkError.validation(
      `${operation}() takes an ExternalAuthType (${Object.keys(ExternalAuthType).join(', ')}).`,
    );
  }
  if (typeof token !== 'string' || token === '')
    throw SdkError.validation(`${operation}() needs the external auth token (a non-empty string).`);
  return { external_auth_type: type, external_auth_token: token };
}

/**
 * `POST /partner-sdk/token`: the token of the provisional account of an external identity
 * (created on first use; the same identity always gets the same account).
 */
export async function getProvisionalToken(
  ctx: AuthContext,
  applicationId: string,
  type: ExternalAuthType,
  token: string,
): Promise<TokenResult> {
  const body = {
    client_id: toApplicationId(applicationId, 'applicationId'),
    ...identity(type, token, 'getProvisionalToken'),
  };
  ctx.log.addSecret(token);
  return tokenResult(ctx.log, await ctx.http.call('POST', '/partner-sdk/token', { auth: false, body }));
}

/**
 * The merge: `getToken` that also names the provisional account's identity, whose account is
 * merged into the one that authorized. A ban on either account refuses it (530017).
 */
export async function getTokenFromProvisionalMerge(
  ctx: AuthContext,
  input: {
    applicationId: string;
    code: string;
    codeVerifier: string;
    redirectUri: string;
    externalAuthType: ExternalAuthType;
    externalAuthToken: string;
  },
): Promise<TokenResult> {
  const external = identity(input.externalAuthType, input.externalAuthToken, 'getTokenFromProvisionalMerge');
  for (const name of ['code', 'codeVerifier', 'redirectUri'] as const) {
    if (typeof input[name] !== 'string' || input[name] === '')
      throw SdkError.validation(`getTokenFromProvisionalMerge() needs ${name} (a non-empty string).`);
  }
  ctx.log.addSecret(input.externalAuthToken);
  const form = {
    grant_type: 'authorization_code',
    code: input.code,
    code_verifier: input.codeVerifier,
    redirect_uri: input.redirectUri,
    client_id: toApplicationId(input.applicationId, 'applicationId'),
    ...external,
  };
  return tokenResult(ctx.log, await ctx.http.call('POST', '/oauth2/token', { auth: false, form }));
}

/**
 * `POST /partner-sdk/provisional-accounts/unmerge`: the identity leaves the full account it was
 * merged into and gets a new provisional account; the full account's tokens for the game go.
 */
export async function unmergeIntoProvisionalAccount(
  ctx: AuthContext,
  applicationId: string,
  type: ExternalAuthType,
  token: string,
): Promise<void> {
  const body = {
    client_id: toApplicationId(applicationId, 'applicationId'),
    ...identity(type, token, 'unmergeIntoProvisionalAccount'),
  };
  ctx.log.addSecret(token);
  await ctx.http.call('POST', '/partner-sdk/provisional-accounts/unmerge', { auth: false, body });
  ctx.log.info('UnmergeIntoProvisionalAccount: the identity is a provisional account again.');
}

/**
 * `POST /partner-sdk/child-token`: a publisher (parent) application's access token, issued to
 * it as a public client, for a token of the same user for one of its approved games (child).
 * The child token has no refresh token and expires with the parent token.
 */
export async function exchangeChildToken(
  ctx: AuthContext,
  parentApplicationToken: string,
  childApplicationId: string,
): Promise<TokenResult> {
  if (typeof parentApplicationToken !== 'string' || parentApplicationToken === '') {
    throw SdkError.validation("exchangeChildToken() needs the parent application's access token (a non-empty string).");
  }
  ctx.log.addSecret(parentApplicationToken);
  const body = {
    parent_access_token: parentApplicationToken,
    child_application_id: toApplicationId(childApplicationId, 'childApplicationId'),
  };
  return tokenResult(ctx.log, await ctx.http.call('POST', '/partner-sdk/child-token', { auth: false, body }));
}
