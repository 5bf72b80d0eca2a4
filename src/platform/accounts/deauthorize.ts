/**
 * A user revoking an application's authorization from the platform client's settings (the
 * spec's "user unlinks, revokes authorization"): every token the user holds for the application
 * (and for the child applications it publishes) and every pending authorization code is
 * deleted, the user's gateway sessions through it end, and APPLICATION_DEAUTHORIZED is recorded
 * for the application's webhooks. A later refresh is `invalid_grant`, which the spec treats like
 * receiving that webhook.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { deauthorizedEvent } from './provisional';
import { deleteApplicationTokens } from './provisional-merge';

/**
 * Revokes `applicationId`'s authorization for `userId`. Resolves to whether anything was
 * authorized; an application the user never authorized changes nothing and records no event.
 * @example await deauthorizeApplication(ctx, user.id, application.id);
 */
export async function deauthorizeApplication(
  ctx: PlatformContext,
  userId: string,
  applicationId: string,
): Promise<boolean> {
  return write(ctx, ['users', 'applications', 'tokens', 'auth_codes'], async (tx, emit) => {
    const user = await tx.store('users').get(userId);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    if (!(await tx.store('applications').get(applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
    const tokens = await tx.store('tokens').index('by_user').getAll(userId);
    const held = tokens.filter((t) => t.application_id === applicationId || t.parent_application_id === applicationId);
    const codes = await tx.store('auth_codes').index('by_application_user').getAllKeys([applicationId, userId]);
    if (held.length === 0 && codes.length === 0) return false;
    await deleteApplicationTokens(tx, emit, userId, applicationId);
    await Promise.all(codes.map((key) => tx.store('auth_codes').delete(key)));
    emit(deauthorizedEvent(user, applicationId));
    return true;
  });
}
