/**
 * A user's own profile (username, display name, avatar), which users change in the platform's
 * client and the sandbox changes for them. A change emits USER_UPDATE to the user's own
 * sessions: a frame's session turns it into the activity's CURRENT_USER_UPDATE.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { UserRecord } from '../../store/records/core';
import { serializeUser } from './users';

/** What may change; an absent field stays as it is. */
export interface UserProfileChange {
  username?: string;
  global_name?: string | null;
  /** An image hash, or null for the default avatar. */
  avatar?: string | null;
}

/**
 * Applies a profile change; unknown users are 10013. Nothing is emitted when nothing changed.
 * @example await updateUserProfile(ctx, userId, { global_name: 'Alice' });
 */
export async function updateUserProfile(
  ctx: PlatformContext,
  userId: string,
  change: UserProfileChange,
): Promise<UserRecord> {
  return write(ctx, ['users'], async (tx, emit) => {
    const user = await tx.store('users').get(userId);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    const updated: UserRecord = { ...user, ...change };
    if (
      updated.username === user.username &&
      updated.global_name === user.global_name &&
      updated.avatar === user.avatar
    )
      return user;
    await tx.store('users').put(updated);
    emit({ type: 'USER_UPDATE', data: serializeUser(updated), audience: { user_ids: [userId] } });
    return updated;
  });
}
