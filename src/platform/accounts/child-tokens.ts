/**
 * Publisher-level account linking (spec, Authentication rule 6): a publisher (parent)
 * application's access token is exchanged for a token of one of its games (child
 * applications), for approved pairs only. A server exchanges with the parent's client secret;
 * a game without a backend (`Client::ExchangeChildToken`) exchanges a token that was issued to
 * the parent as a public client. A child token has no refresh token, expires with its parent
 * token, and dies when the parent authorization is revoked.
 */
import type { ApplicationLinkRecord, TokenRecord } from '../../store/schema';
import { write, type Emit, type WriteTx } from '../../store/write';
import { banHolds } from './ban-checks';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { constantTimeEqual } from '../oauth2/client-auth';
import { generateSecret, hashSecret } from '../core/secrets';
import { invalidateSessions } from '../oauth2/tokens';
import { keyRange } from '../../store/port';

/** The child-token answer: no refresh token. */
export interface ChildTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/**
 * Approves `childId` as a game of the publisher `parentId`. As on the platform, linking is
 * one-way and the child's existing authorizations go: its tokens and external identities are
 * deleted. A child has one parent; a child cannot be a parent, nor a parent a child.
 * @example await approveChildApplication(ctx, publisherId, gameId);
 */
export async function approveChildApplication(
  ctx: PlatformContext,
  parentId: string,
  childId: string,
): Promise<ApplicationLinkRecord> {
  return write(ctx, ['applications', 'application_links', 'tokens', 'external_identities'], async (tx, emit) => {
    const apps = tx.store('applications');
    if (!(await apps.getKey(parentId))) throw ApiError.of('UNKNOWN_APPLICATION');
    if (!(await apps.getKey(childId))) throw ApiError.invalidForm({ child_application_id: 'Unknown application.' });
    if (parentId === childId)
      throw ApiError.invalidForm({ child_application_id: 'An application cannot be its own child.' });
    const links = tx.store('application_links');
    const current = await links.index('by_child').get(childId);
    if (current?.parent_application_id === parentId) return current;
    if (current)
      throw ApiError.invalidForm({
        child_application_id: 'This application is already the child of another publisher application.',
      });
    if (await links.index('by_child').getKey(parentId))
      throw ApiError.invalidForm({ parent_application_id: 'A child application cannot be a parent.' });
    if ((await links.count(keyRange.bound([childId], [childId, []]))) > 0)
      throw ApiError.invalidForm({ child_application_id: 'A publisher application cannot be a child.' });
    const link: ApplicationLinkRecord = {
      parent_application_id: parentId,
      child_application_id: childId,
      approved_at: ctx.clock.now(),
    };
    await links.add(link);
    const childRange = keyRange.bound([childId], [childId, []]);
    const childTokens = await tx.store('tokens').index('by_application_user').getAll(childRange);
    await Promise.all(childTokens.map((t) => tx.store('tokens').delete(t.hash)));
    invalidateSessions(
      emit,
      childTokens.map((t) => t.user_id),
    );
    await tx.store('external_identities').delete(childRange);
    return link;
  });
}

/**
 * `POST /partner-sdk/child-token`: exchanges the parent's access token for a child token of
 * the same user with the same scopes, expiring when the parent token does. An unknown or
 * expired parent token (or a banned user's) is 401; a wrong secret 530007; a public exchange of a token not issued
 * to a public client 401; a pair that is not approved 403 (20012).
 */
export async function exchangeChildToken(
  ctx: PlatformContext,
  input: { parent_access_token: string; child_application_id: string; parent_client_secret?: string },
): Promise<ChildTokenResponse> {
  const [parentHash, secretHash] = await Promise.all([
    hashSecret(input.parent_access_token),
    input.parent_client_secret ? hashSecret(input.parent_client_secret) : null,
  ]);
  const access = generateSecret(30);
  const accessHash = await hashSecret(access);
  const now = ctx.clock.now();
  const record = await write(ctx, ['applications', 'application_links', 'users', 'tokens', 'bans'], async (tx) => {
    const parent = await tx.store('tokens').get(parentHash);
    if (
      !parent ||
      parent.kind !== 'access' ||
      parent.origin === 'child' ||
      (parent.expires_at !== null && parent.expires_at <= now)
    )
      throw ApiError.of('UNAUTHORIZED');
    const parentApp = await tx.store('applications').get(parent.application_id);
    if (
      !parentApp ||
      !(await tx.store('users').getKey(parent.user_id)) ||
      (await banHolds(tx.store('bans'), parent.user_id))
    )
      throw ApiError.of('UNAUTHORIZED');
    if (secretHash !== null) {
      if (!constantTimeEqual(secretHash, parentApp.client_secret_hash)) throw ApiError.of('INVALID_CLIENT_SECRET');
    } else if (!parent.public_client) {
      throw ApiError.of(
        'UNAUTHORIZED',
        'parent_client_secret is required: this token was not issued to a public client.',
      );
    }
    if (!(await tx.store('application_links').get([parentApp.id, input.child_application_id]))) {
      throw ApiError.of(
        'ENDPOINT_UNAVAILABLE',
        'This application is not an approved child of the publisher application.',
      );
    }
    const child: TokenRecord = {
      hash: accessHash,
      kind: 'access',
      application_id: input.child_application_id,
      user_id: parent.user_id,
      scopes: parent.scopes,
      expires_at: parent.expires_at,
      pair_hash: null,
      created_at: now,
      origin: 'child',
      parent_application_id: parentApp.id,
      public_client: parent.public_client,
    };
    await tx.store('tokens').add(child);
    return child;
  });
  const remaining = record.expires_at === null ? 0 : Math.max(0, Math.floor((record.expires_at - now) / 1000));
  return { access_token: access, token_type: 'Bearer', expires_in: remaining, scope: record.scopes.join(' ') };
}

/**
 * Inside a revocation's write: deletes the child tokens exchanged from `revoked`'s application
 * for its user, since a revoked publisher authorization invalidates its games' tokens at once.
 */
export async function deleteChildTokens(tx: WriteTx, emit: Emit, revoked: TokenRecord): Promise<void> {
  const store = tx.store('tokens');
  const tokens = await store.index('by_user').getAll(revoked.user_id);
  const children = tokens.filter((t) => t.parent_application_id === revoked.application_id);
  await Promise.all(children.map((t) => store.delete(t.hash)));
  if (children.length > 0) invalidateSessions(emit, [revoked.user_id]);
}

/** The approved pair, for the sandbox. */
export function serializeApplicationLink(link: ApplicationLinkRecord) {
  return {
    parent_application_id: link.parent_application_id,
    child_application_id: link.child_application_id,
    approved_at: new Date(link.approved_at).toISOString(),
  };
}
