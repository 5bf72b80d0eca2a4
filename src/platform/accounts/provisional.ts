/**
 * Provisional accounts (spec, Authentication rules 4 and 7): an external identity (a verified
 * ID token, or a game's own account id sent with the bot token) maps to one provisional user
 * per application, created on first use; the same identity always gets the same user. The
 * answer is an OAuth2 token response for that user. Provisional access tokens live an hour;
 * only OpenID Connect tokens exchanged by a confidential client come with a refresh token,
 * and the refresh_token grant refuses it as deprecated.
 */
import type { ExternalIdentityRecord, TokenRecord } from '../../store/schema';
import { write, type WriteTx } from '../../store/write';
import { banHolds } from './ban-checks';
import type { PlatformContext } from '../core/context';
import { ApiError, OAuth2Error } from '../core/errors';
import { PROVISIONAL_ACCESS_TOKEN_TTL_S, PROVISIONAL_DISPLAY_NAME_MAX } from '../core/limits';
import { verifyIdToken, type FetchLike } from '../oauth2/oidc';
import { mintPlatformIdToken } from '../oauth2/oidc-provider';
import type { ProvisionalTokenResponse as OfficialProvisionalTokenResponse } from 'discord-api-spec';
import { requireIdentityProvider, resolveIssuerKeys, type ExternalAuthType } from './provisional-config';
import type { ApplicationRecord, UserRecord } from '../../store/records/core';
import type { EmittedEvent } from '../../store/records/events';
import { generateSecret, hashSecret } from '../core/secrets';
import { serializeUser } from './users';

/** The scopes of a provisional account's token. */
export const PROVISIONAL_SCOPES = ['sdk.social_layer'];

/** A verified external identity, not yet mapped to a user. */
export interface ExternalIdentity {
  /** `bot`, or `<external_auth_type> <issuer>`. */
  provider: string;
  subject: string;
  auth_type: ExternalAuthType;
  /** The display name the provider suggests, if usable. */
  display_name: string | null;
}

/** A provisional token answer: RFC 6749 §5.1, with a refresh token only for OIDC and a confidential client. */
export type ProvisionalTokenResponse = OfficialProvisionalTokenResponse;

/** The description of the refused refresh_token grant for an OIDC provisional token. */
export const OIDC_REFRESH_DEPRECATED =
  'The refresh_token grant is deprecated for provisional accounts authenticated with OpenID Connect: ' +
  're-authenticate with a fresh identity provider token and pass the new access token to Client::UpdateToken.';

const usableName = (name: string | null | undefined): string | null =>
  name && name.trim().length > 0 && [...name.trim()].length <= PROVISIONAL_DISPLAY_NAME_MAX ? name.trim() : null;

/** The identity of the bot token endpoint's `external_user_id`. */
export function botIdentity(externalUserId: string, preferredGlobalName?: string | null): ExternalIdentity {
  return {
    provider: 'bot',
    subject: externalUserId,
    auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
    display_name: usableName(preferredGlobalName),
  };
}

/**
 * Verifies `token` as an identity of `authType` for `application`. ID-token types are checked
 * against the application's configured provider (530000 without one); a bot-issued access
 * token names the identity the bot token endpoint created it for.
 */
export async function resolveExternalIdentity(
  ctx: PlatformContext,
  application: ApplicationRecord,
  authType: ExternalAuthType,
  token: string,
  fetch: FetchLike,
): Promise<ExternalIdentity> {
  if (authType === 'DISCORD_BOT_ISSUED_ACCESS_TOKEN') {
    const record = await ctx.db.get('tokens', await hashSecret(token));
    const live =
      record &&
      record.kind === 'access' &&
      record.origin === 'provisional_bot' &&
      record.application_id === application.id &&
      (record.expires_at ?? Infinity) > ctx.clock.now();
    const identities = live ? await ctx.db.getAllFromIndex('external_identities', 'by_user', record.user_id) : [];
    const identity = identities.find((i) => i.application_id === application.id && i.provider === 'bot');
    if (!identity) throw ApiError.invalidForm({ external_auth_token: 'Unknown or expired bot-issued access token.' });
    return botIdentity(identity.subject);
  }
  const config = await requireIdentityProvider(ctx, application.id, authType);
  const verified = await verifyIdToken(token, {
    issuer: config.issuer,
    audience: config.audience,
    now: ctx.clock.now(),
    resolveKeys: () => resolveIssuerKeys(ctx, config, fetch),
  });
  return {
    provider: `${authType} ${config.issuer}`,
    subject: verified.sub,
    auth_type: authType,
    display_name: usableName(verified.preferred_username),
  };
}

/** A new provisional user (not stored): named by the platform, shown by `displayName` when given. */
export function newProvisionalUser(ctx: PlatformContext, displayName: string | null): UserRecord {
  const id = ctx.ids.next();
  return {
    id,
    username: `provisional_${id}`,
    global_name: displayName,
    discriminator: '0',
    avatar: null,
    bot: false,
    premium_type: 0,
    primary_guild: null,
    provisional: true,
    created_at: ctx.clock.now(),
  };
}

/** The identity record linking `identity` to `userId` in `applicationId`. */
export function identityRecord(
  ctx: PlatformContext,
  applicationId: string,
  identity: ExternalIdentity,
  userId: string,
): ExternalIdentityRecord {
  return {
    application_id: applicationId,
    provider: identity.provider,
    subject: identity.subject,
    user_id: userId,
    auth_type: identity.auth_type,
    banned_user_id: null,
    restricted_cross_platform: false,
    created_at: ctx.clock.now(),
  };
}

/** The APPLICATION_DEAUTHORIZED webhook event of `user` for `applicationId`: the serialized user, never a token. */
export function deauthorizedEvent(user: UserRecord, applicationId: string): EmittedEvent {
  return {
    type: 'APPLICATION_DEAUTHORIZED',
    data: { user: serializeUser(user) },
    audience: { application_id: applicationId },
    channels: ['webhook'],
  };
}

/** True while `userId` is banned (inside a write that includes `bans`). */
export async function isBanned(tx: WriteTx, userId: string): Promise<boolean> {
  return banHolds(tx.store('bans'), userId);
}

/**
 * Answers a token for the provisional account of `identity`, creating the account on first
 * use. An identity merged into a full account is 530010 (use the OAuth2 flow); a banned
 * provisional account gets no token.
 * @example await issueProvisionalToken(ctx, app, identity, { origin: 'provisional_bot', refreshable: false, publicClient: false, issuer });
 */
export async function issueProvisionalToken(
  ctx: PlatformContext,
  application: ApplicationRecord,
  identity: ExternalIdentity,
  options: {
    origin: NonNullable<TokenRecord['origin']>;
    refreshable: boolean;
    publicClient: boolean;
    /** The origin the request came to: the issuer of the answer's ID token. */
    issuer: string;
  },
): Promise<ProvisionalTokenResponse> {
  const access = generateSecret(30);
  const refresh = options.refreshable ? generateSecret(30) : null;
  const [accessHash, refreshHash] = await Promise.all([
    hashSecret(access),
    refresh === null ? null : hashSecret(refresh),
  ]);
  const candidate = newProvisionalUser(ctx, identity.display_name);
  const now = ctx.clock.now();
  const userId = await write(ctx, ['applications', 'users', 'tokens', 'external_identities', 'bans'], async (tx) => {
    if (!(await tx.store('applications').getKey(application.id))) throw ApiError.of('UNKNOWN_APPLICATION');
    const identities = tx.store('external_identities');
    const existing = await identities.get([application.id, identity.provider, identity.subject]);
    const linked = existing && (await tx.store('users').get(existing.user_id));
    let user: UserRecord;
    if (existing && linked) {
      if (!linked.provisional) throw ApiError.of('ACCOUNT_NOT_PROVISIONAL');
      if (await isBanned(tx, linked.id)) throw ApiError.of('MISSING_ACCESS', 'This account is banned.');
      user =
        identity.display_name && identity.display_name !== linked.global_name
          ? { ...linked, global_name: identity.display_name }
          : linked;
      if (user !== linked) await tx.store('users').put(user);
      if (existing.auth_type !== identity.auth_type)
        await identities.put({ ...existing, auth_type: identity.auth_type });
    } else {
      user = candidate;
      await tx.store('users').add(user);
      await identities.put(identityRecord(ctx, application.id, identity, user.id));
    }
    const base = {
      application_id: application.id,
      user_id: user.id,
      scopes: PROVISIONAL_SCOPES,
      created_at: now,
      origin: options.origin,
      public_client: options.publicClient,
    };
    await tx.store('tokens').add({
      ...base,
      hash: accessHash,
      kind: 'access',
      expires_at: now + PROVISIONAL_ACCESS_TOKEN_TTL_S * 1000,
      pair_hash: refreshHash,
    });
    if (refreshHash !== null)
      await tx
        .store('tokens')
        .add({ ...base, hash: refreshHash, kind: 'refresh', expires_at: null, pair_hash: accessHash });
    return user.id;
  });
  // The account is known only inside the write, and WebCrypto cannot be awaited there: the ID
  // token (the platform's own, naming the provisional account) is signed once it committed.
  const idToken = await mintPlatformIdToken(ctx, {
    issuer: options.issuer,
    userId,
    clientId: application.id,
    nonce: null,
  });
  const response: ProvisionalTokenResponse = {
    access_token: access,
    token_type: 'Bearer',
    expires_in: PROVISIONAL_ACCESS_TOKEN_TTL_S,
    scope: PROVISIONAL_SCOPES.join(' '),
    id_token: idToken,
  };
  if (refresh !== null) response.refresh_token = refresh;
  return response;
}

/**
 * The token endpoint's refresh_token grant, before it rotates anything: a refresh token of an
 * OIDC provisional account is refused as deprecated (`invalid_grant`), so the app
 * re-authenticates with a fresh provider token and calls `Client::UpdateToken`.
 */
export async function refuseDeprecatedRefresh(ctx: PlatformContext, refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  const token = await ctx.db.get('tokens', await hashSecret(refreshToken));
  if (token?.kind === 'refresh' && token.origin === 'provisional_oidc')
    throw new OAuth2Error('invalid_grant', OIDC_REFRESH_DEPRECATED);
}
