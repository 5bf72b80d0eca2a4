/**
 * Merging a provisional account into a full account, and unmerging it again (the platform's
 * public account-merging flow). A merge is an authorization-code exchange at `/oauth2/token`
 * that also names the provisional account's external identity: the identity is linked to the
 * account that authorized, the provisional account's lobby memberships move to it, and the
 * provisional account's tokens are deleted. Unmerging links the identity to a new provisional
 * account and deletes the full account's tokens for the application.
 */
import type { ExternalIdentityRecord } from '../../store/schema';
import { write, type Emit, type WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError, OAuth2Error } from '../core/errors';
import { LobbyEditor } from '../lobbies/editor';
import { redeemAuthorizationCode } from '../oauth2/token-endpoint';
import type { OAuth2Client } from '../oauth2/client-auth';
import type { FetchLike } from '../oauth2/oidc';
import {
  deauthorizedEvent,
  identityRecord,
  newProvisionalUser,
  resolveExternalIdentity,
  type ExternalIdentity,
} from './provisional';
import { EXTERNAL_AUTH_TYPES, type ExternalAuthType } from './provisional-config';
import type { UserRecord } from '../../store/records/core';
import { hashSecret } from '../core/secrets';
import { deleteUserTokens, invalidateSessions, type TokenResponse } from '../oauth2/tokens';
import { type ReadTx, type PlatformStoreName } from '../../store/schema';
import { LOBBY_WRITE_STORES } from '../lobbies/store';

type AccountTx = ReadTx;

/** The stores a merge or unmerge writes, and those its checks read. */
const ACCOUNT_STORES: PlatformStoreName[] = ['tokens', 'external_identities', 'bans', ...LOBBY_WRITE_STORES];
const MERGE_CHECK_STORES: PlatformStoreName[] = ['users', 'external_identities', 'bans'];

const banned = async (tx: AccountTx, userId: string | null) =>
  userId !== null && (await tx.store('bans').getKey(userId)) !== undefined;

/**
 * True while the identity's provisional account is restricted cross-platform: a ban replaced
 * its link and that ban still holds. The platform's one documented consequence is that such an
 * account cannot be merged into (linked to) any full account; it keeps every game feature, since
 * it is another user than the banned one. The restriction lifts with the ban.
 * @example if (await restrictedCrossPlatform(tx, identity)) throw ApiError.of('MERGE_BANNED_ACCOUNT');
 */
export async function restrictedCrossPlatform(tx: AccountTx, identity: ExternalIdentityRecord): Promise<boolean> {
  return identity.restricted_cross_platform && (await banned(tx, identity.banned_user_id));
}

/**
 * The merge errors, checked inside `tx`: a provisional destination (530016); the identity
 * already linked to another full account (530014); any account affected by a ban (530017:
 * the destination, the provisional account, or an account restricted cross-platform);
 * a destination that already has another identity for the application (530023). Resolves to
 * the identity's record and provisional account, if it has them.
 */
async function checkMerge(tx: AccountTx, applicationId: string, identity: ExternalIdentity, destinationId: string) {
  const destination = await tx.store('users').get(destinationId);
  if (!destination) throw ApiError.of('UNKNOWN_USER');
  if (destination.provisional) throw ApiError.of('INVALID_MERGE_DESTINATION');
  if (await banned(tx, destination.id)) throw ApiError.of('MERGE_BANNED_ACCOUNT');
  const existing = await tx.store('external_identities').get([applicationId, identity.provider, identity.subject]);
  let source: UserRecord | undefined;
  if (existing && existing.user_id !== destinationId) {
    source = await tx.store('users').get(existing.user_id);
    if (source && !source.provisional) throw ApiError.of('INVALID_MERGE_SOURCE');
    if ((source && (await banned(tx, source.id))) || (await restrictedCrossPlatform(tx, existing)))
      throw ApiError.of('MERGE_BANNED_ACCOUNT');
  }
  const held = await tx.store('external_identities').index('by_user').getAll(destinationId);
  if (
    held.some(
      (i) => i.application_id === applicationId && (i.provider !== identity.provider || i.subject !== identity.subject),
    )
  ) {
    throw ApiError.of('TOO_MANY_APPLICATION_IDENTITIES');
  }
  return { existing, source };
}

/** Moves `fromId`'s lobby memberships in the application to `toId`, with the lobby events. */
async function moveLobbyMemberships(
  tx: WriteTx,
  emit: Emit,
  applicationId: string,
  fromId: string,
  toId: string,
  now: number,
): Promise<void> {
  const memberships = await tx.store('lobby_members').index('by_user_application').getAll([fromId, applicationId]);
  for (const membership of memberships) {
    const lobby = await tx.store('lobbies').get(membership.lobby_id);
    if (!lobby) continue;
    const editor = await LobbyEditor.open(tx, emit, lobby, now);
    await editor.remove(fromId);
    // A destination already in the most lobbies keeps its own: this one is left out, as a bulk add would.
    await editor.upsert({ id: toId, metadata: membership.metadata, flags: membership.flags }, 'drop');
    await editor.save();
  }
}

/**
 * `grant_type=authorization_code` with `external_auth_type` / `external_auth_token`: redeems
 * the code and merges the identity's provisional account into the account that authorized.
 * Every merge error is checked before the code is redeemed, so a refused merge leaves the code
 * usable; the merge itself is checked again in its own transaction.
 * @example const tokens = await redeemWithProvisionalMerge(ctx, client, { code, code_verifier, redirect_uri }, identity);
 */
export async function redeemWithProvisionalMerge(
  ctx: PlatformContext,
  client: OAuth2Client,
  params: { code: string; redirect_uri?: string; code_verifier?: string },
  identity: ExternalIdentity,
): Promise<TokenResponse> {
  const code = await ctx.db.get('auth_codes', await hashSecret(params.code));
  if (!code || code.application_id !== client.application.id || code.expires_at <= ctx.clock.now()) {
    throw new OAuth2Error('invalid_grant', 'Invalid "code" in request.');
  }
  const applicationId = client.application.id;
  await checkMerge(ctx.db.read(MERGE_CHECK_STORES), applicationId, identity, code.user_id);
  const tokens = await redeemAuthorizationCode(ctx, client, params);
  try {
    await write(ctx, ACCOUNT_STORES, async (tx, emit) => {
      const { existing, source } = await checkMerge(tx, applicationId, identity, code.user_id);
      const linked: ExternalIdentityRecord = existing ?? identityRecord(ctx, applicationId, identity, code.user_id);
      await tx.store('external_identities').put({
        ...linked,
        user_id: code.user_id,
        auth_type: identity.auth_type,
        banned_user_id: null,
        restricted_cross_platform: false,
      });
      if (source) {
        await moveLobbyMemberships(tx, emit, applicationId, source.id, code.user_id, ctx.clock.now());
        // The provisional record stays (its lobby messages keep their author); with no identity and no token it can no longer sign in.
        await deleteUserTokens(tx, emit, source.id);
      }
    });
  } catch (error) {
    // Something changed between the checks and the merge: the tokens just issued are withdrawn.
    const hashes = await Promise.all([hashSecret(tokens.access_token), hashSecret(tokens.refresh_token)]);
    await write(ctx, ['tokens'], async (tx, emit) => {
      await Promise.all(hashes.map((h) => tx.store('tokens').delete(h)));
      invalidateSessions(emit, [code.user_id]);
    });
    throw error;
  }
  return tokens;
}

/**
 * The token endpoint's merge: an authorization-code request that also carries
 * `external_auth_type` and `external_auth_token` (both required once either is sent). The
 * external token is verified first (the 5300xx errors), then {@link redeemWithProvisionalMerge}.
 */
export async function redeemAuthorizationCodeWithMerge(
  ctx: PlatformContext,
  client: OAuth2Client,
  params: { code: string; redirect_uri?: string; code_verifier?: string },
  external: { external_auth_type?: string; external_auth_token?: string },
  fetch: FetchLike,
): Promise<TokenResponse> {
  const type = external.external_auth_type;
  if (!type || !(EXTERNAL_AUTH_TYPES as readonly string[]).includes(type))
    throw new OAuth2Error('invalid_request', 'Missing or invalid "external_auth_type" in request.');
  if (!external.external_auth_token)
    throw new OAuth2Error('invalid_request', 'Missing "external_auth_token" in request.');
  const identity = await resolveExternalIdentity(
    ctx,
    client.application,
    type as ExternalAuthType,
    external.external_auth_token,
    fetch,
  );
  return redeemWithProvisionalMerge(ctx, client, params, identity);
}

/**
 * Unmerges the identity from the full account it was merged into: a new provisional account
 * (with a new id) carries the identity, the full account's tokens for the application (and
 * its child applications) are deleted, and APPLICATION_DEAUTHORIZED is recorded for webhooks.
 * No identity is 404 (10013); an identity whose account is still provisional is 50229.
 */
export async function unmergeProvisionalAccount(
  ctx: PlatformContext,
  applicationId: string,
  identity: ExternalIdentity,
): Promise<void> {
  const replacement = newProvisionalUser(ctx, null);
  await write(ctx, ['applications', ...ACCOUNT_STORES], async (tx, emit) => {
    const existing = await tx.store('external_identities').get([applicationId, identity.provider, identity.subject]);
    const user = existing && (await tx.store('users').get(existing.user_id));
    if (!existing || !user) throw ApiError.of('UNKNOWN_USER');
    if (user.provisional) throw ApiError.of('INVALID_USER_TYPE');
    await tx.store('users').add(replacement);
    await tx
      .store('external_identities')
      .put({ ...existing, user_id: replacement.id, banned_user_id: null, restricted_cross_platform: false });
    await deleteApplicationTokens(tx, emit, user.id, applicationId);
    emit(deauthorizedEvent(user, applicationId));
  });
}

/** Deletes `userId`'s tokens for an application and for the child applications it publishes. */
export async function deleteApplicationTokens(
  tx: WriteTx,
  emit: Emit,
  userId: string,
  applicationId: string,
): Promise<void> {
  const store = tx.store('tokens');
  const tokens = await store.index('by_user').getAll(userId);
  const doomed = tokens.filter((t) => t.application_id === applicationId || t.parent_application_id === applicationId);
  await Promise.all(doomed.map((t) => store.delete(t.hash)));
  if (doomed.length > 0) invalidateSessions(emit, [userId]);
}

/**
 * The external identities linked to user `userId`, as the sandbox shows them: provider, subject,
 * and whether the account is restricted cross-platform (for as long as the ban that made it
 * holds); 404 (10013) for an unknown user.
 */
export async function listExternalIdentities(ctx: PlatformContext, userId: string) {
  if (!(await ctx.db.getKey('users', userId))) throw ApiError.of('UNKNOWN_USER');
  const tx = ctx.db.read(['external_identities', 'bans']);
  const identities = await tx.store('external_identities').index('by_user').getAll(userId);
  const restricted = await Promise.all(identities.map((i) => restrictedCrossPlatform(tx, i)));
  return identities.map((i, n) => ({
    application_id: i.application_id,
    provider: i.provider,
    subject: i.subject,
    auth_type: i.auth_type,
    restricted_cross_platform: restricted[n],
    banned_user_id: i.banned_user_id,
  }));
}
