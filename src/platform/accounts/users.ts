/**
 * Users on the wire, with the spec's field rules applied.
 */
import type { UserPIIResponse } from 'discord-api-spec';
import type { Principal } from '../oauth2/auth';
import type { User, UserRecord } from '../../store/records/core';

/** The locale of a user who never chose one: the platform's default. */
const DEFAULT_LOCALE = 'en-US';

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
    // Every flag the platform stores is a public one (no staff or spammer bits here).
    public_flags: user.flags ?? 0,
    flags: user.flags ?? 0,
    premium_type: premiumVisible ? user.premium_type : 0,
  };
  if (user.bot) out.bot = true;
  if (user.banner) out.banner = user.banner;
  return out;
}

/**
 * The current user as `/users/@me` answers it: the user object with the account's own settings
 * (`mfa_enabled`, `locale`), and with the `email` scope (or for a bot, its own account) `email`
 * and `verified`.
 * @example serializeCurrentUser(principal)
 */
export function serializeCurrentUser(principal: Principal): UserPIIResponse & User {
  const { user } = principal;
  const out: UserPIIResponse & User = {
    ...serializeUser(user, principal),
    mfa_enabled: user.mfa_enabled ?? false,
    // The description types locales as an enum of their own strings; a stored locale is one of them.
    locale: (user.locale ?? DEFAULT_LOCALE) as UserPIIResponse['locale'],
  };
  if (principal.kind === 'bot' || principal.scopes.has('email')) {
    out.email = user.email ?? null;
    out.verified = user.verified ?? Boolean(user.email);
  }
  return out;
}

/** The user object of an author whose account is gone. */
export function deletedUser(id: string): User {
  return {
    ...{ id, username: 'Deleted User', global_name: null, discriminator: '0', avatar: null },
    ...{ public_flags: 0, flags: 0, primary_guild: null },
  };
}
