/**
 * `POST /sandbox/tokens` (CONTRACT §3): an access and refresh token for a user of an
 * application, as the authorization-code grant would issue them, without the consent screen.
 * The fixture skips consent, not the rules: the application and the user must exist, a bot
 * holds no OAuth2 token, and a banned user gets none from here either.
 */
import { write } from '../../store/write';
import { banHolds } from '../accounts/ban-checks';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { parseScopes } from './scopes';
import { prepareTokenPair, storeTokenPair, type TokenResponse } from './tokens';

/**
 * Issues a token pair to `user_id` through `application_id` for the space-separated `scopes`.
 * @example const tokens = await issueSandboxTokens(ctx, { application_id, user_id, scopes: 'openid sdk.social_layer' });
 */
export async function issueSandboxTokens(
  ctx: PlatformContext,
  request: { application_id: string; user_id: string; scopes: string },
): Promise<TokenResponse> {
  const { scopes, unknown } = parseScopes(request.scopes);
  // Unknown names are not echoed: a pasted token must never come back in an error body.
  if (unknown.length > 0 || scopes.length === 0)
    throw ApiError.invalidForm({
      scopes: unknown.length
        ? `${unknown.length} unknown scope(s); known scopes are listed in the README.`
        : 'At least one scope is required.',
    });
  // Hashing is not a request of the transaction: the pair is made before it opens.
  const pair = await prepareTokenPair(ctx, {
    application_id: request.application_id,
    user_id: request.user_id,
    scopes,
  });
  await write(ctx, ['applications', 'users', 'tokens', 'bans'], async (tx) => {
    if (!(await tx.store('applications').get(request.application_id)))
      throw ApiError.invalidForm({ application_id: 'Unknown application.' });
    const user = await tx.store('users').get(request.user_id);
    if (!user || user.bot)
      throw ApiError.invalidForm({ user_id: user ? 'Bots cannot hold OAuth2 tokens.' : 'Unknown user.' });
    if (await banHolds(tx.store('bans'), user.id)) throw ApiError.invalidForm({ user_id: 'This user is banned.' });
    await storeTokenPair(tx, pair);
  });
  return pair.response;
}
