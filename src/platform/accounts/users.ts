/**
 * Users on the wire, with the spec's field rules applied.
 */
import type { Principal } from '../oauth2/auth';
import type { User, UserRecord } from '../../store/records/core';

/**
 * The user object as `viewer` may see it. `premium_type` is 0 unless the viewer's application
 * is approved for `identify.premium` and the user granted it (spec: User.premium_type).
 * @example serializeUser(principal.user, principal)
 */
export function serializeUser(user: UserRecord, viewer?: Principal): User {
  const premiumVisible =
    viewer?.kind === 'bearer' &&
    viewer.user.id === user.id &&
    viewer.application.approvals.identify_premium &&
    viewer.token.scopes.includes('identify.premium');
  const out: User = {
    id: user.id,
    username: user.username,
    global_name: user.global_name,
    discriminator: user.discriminator,
    avatar: user.avatar,
    primary_guild: user.primary_guild,
    premium_type: premiumVisible ? user.premium_type : 0,
  };
  if (user.bot) out.bot = true;
  return out;
}
