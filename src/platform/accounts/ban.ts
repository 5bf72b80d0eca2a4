/**
 * Platform bans (spec, "Linked game account after a ban"): the banned account's tokens are
 * deleted at once; each game account linked to it becomes a new provisional account,
 * restricted cross-platform and carrying the original external identity; merges involving
 * the ban are refused with 530017 until it is lifted (never, for a permanent ban); refreshing
 * a deleted token is `invalid_grant`; APPLICATION_DEAUTHORIZED is recorded for the webhooks of
 * every application the account had authorized or was linked to. The account's pending
 * authorization codes go in the same write, and while the ban holds it gets no new credential
 * (`ban-checks.ts`).
 */
import { write, type WriteTx } from '../../store/write';
import type { BanRecord } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { deauthorizedEvent, newProvisionalUser } from './provisional';
import { deleteUserTokens } from '../oauth2/tokens';

/**
 * Bans `userId` (a human or provisional account; bots are refused with 50002). Banning again
 * can make a ban permanent, never temporary again.
 * @example await banUser(ctx, userId, { permanent: false });
 */
export async function banUser(
  ctx: PlatformContext,
  userId: string,
  input: { permanent?: boolean },
): Promise<BanRecord> {
  return write(ctx, ['users', 'tokens', 'auth_codes', 'external_identities', 'bans'], async (tx, emit) => {
    const user = await tx.store('users').get(userId);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    if (user.bot) throw ApiError.of('INVALID_ACCOUNT_TYPE', 'Bots cannot be banned from the platform here.');
    const previous = await tx.store('bans').get(userId);
    const ban: BanRecord = {
      user_id: userId,
      permanent: (previous?.permanent ?? false) || input.permanent === true,
      created_at: previous?.created_at ?? ctx.clock.now(),
    };
    await tx.store('bans').put(ban);

    const applications = new Set<string>();
    const tokens = await tx.store('tokens').index('by_user').getAll(userId);
    for (const token of tokens) applications.add(token.application_id);
    await deleteUserTokens(tx, emit, userId);
    await deletePendingCodes(tx, userId, ctx.clock.now());

    // A banned provisional account keeps its identities: it is itself the account affected by the ban.
    const identities = user.provisional ? [] : await tx.store('external_identities').index('by_user').getAll(userId);
    for (const identity of identities) {
      const replacement = newProvisionalUser(ctx, null);
      await tx.store('users').add(replacement);
      await tx
        .store('external_identities')
        .put({ ...identity, user_id: replacement.id, banned_user_id: userId, restricted_cross_platform: true });
      applications.add(identity.application_id);
    }
    // Already deauthorized by an earlier ban: nothing new to report.
    if (!previous) for (const applicationId of applications) emit(deauthorizedEvent(user, applicationId));
    return ban;
  });
}

/**
 * Deletes `userId`'s authorization codes, so that none issued before the ban is redeemed after
 * it. Codes are indexed by application and user only; they live minutes, so the store is small
 * and one pass over it also drops everyone's expired codes.
 */
async function deletePendingCodes(tx: WriteTx, userId: string, now: number): Promise<void> {
  const store = tx.store('auth_codes');
  const codes = await store.getAll();
  await Promise.all(codes.filter((c) => c.user_id === userId || c.expires_at <= now).map((c) => store.delete(c.hash)));
}

/**
 * Lifts the ban of `userId`: merges of its former game accounts work again. Lifting a user
 * who is not banned does nothing; a permanent ban is never lifted (409).
 */
export async function liftBan(ctx: PlatformContext, userId: string): Promise<void> {
  await write(ctx, ['users', 'bans'], async (tx) => {
    if (!(await tx.store('users').getKey(userId))) throw ApiError.of('UNKNOWN_USER');
    const ban = await tx.store('bans').get(userId);
    if (!ban) return;
    if (ban.permanent) throw ApiError.of('PERMANENT_BAN');
    await tx.store('bans').delete(userId);
  });
}

/** The user's ban, for the sandbox. */
export function serializeBan(ban: BanRecord) {
  return { user_id: ban.user_id, permanent: ban.permanent, created_at: new Date(ban.created_at).toISOString() };
}
