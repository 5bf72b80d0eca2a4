/**
 * Get User (`GET /users/{user.id}`): any user by id, as the public docs have it, for a bot and
 * for a user's OAuth2 token alike. No mutual guild is needed; the object is the public one
 * (`serializeUser`: no email, no premium tier unless it is the caller's own and granted).
 */
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { Principal } from '../oauth2/auth';
import { serializeUser } from './users';

/**
 * The user `userId` as `viewer` sees it; 404 10013 when there is none.
 * @example const user = await readUser(ctx, c.get('principal'), userId);
 */
export async function readUser(ctx: PlatformContext, viewer: Principal, userId: string) {
  const user = await ctx.db.get('users', userId);
  if (!user) throw ApiError.of('UNKNOWN_USER');
  return serializeUser(user, viewer);
}
