/**
 * OpenID Connect UserInfo (`GET /oauth2/userinfo`, OIDC Core §5.3) for a user's token with the
 * `openid` scope: `sub` (the user id, as in the ID tokens the platform issues), the username as
 * `preferred_username`, the display name as `nickname`, the avatar's URL as `picture`, `locale`,
 * and with the `email` scope `email` and `email_verified`. A token without `openid` is 403 (50001).
 */
import { ApiError } from '../core/errors';
import type { BearerPrincipal } from './principal';

/** The platform's CDN, where avatar URLs point (a page's service worker answers them). */
const CDN = 'https://cdn.discordapp.com';

/**
 * The claims of the token's user.
 * @example const { sub } = userInfoOf(principal);
 */
export function userInfoOf(principal: BearerPrincipal) {
  if (!principal.scopes.has('openid')) throw ApiError.of('MISSING_ACCESS', 'Missing OAuth2 scope: openid');
  const user = principal.user;
  const picture = user.avatar
    ? `${CDN}/avatars/${user.id}/${user.avatar}.png`
    : `${CDN}/embed/avatars/${Number((BigInt(user.id) >> 22n) % 6n)}.png`;
  const email = principal.scopes.has('email')
    ? { email: user.email ?? null, email_verified: user.email ? (user.verified ?? true) : false }
    : {};
  return {
    sub: user.id,
    preferred_username: user.username,
    nickname: user.global_name,
    picture,
    locale: user.locale ?? 'en-US',
    ...email,
  };
}
