/**
 * The subscription API (`/skus/{sku.id}/subscriptions`): the subscriptions containing a SKU of
 * the caller's application, for one user. The application's bot names the user (`user_id` is
 * required); a user's OAuth2 token lists its own. Periods that passed are settled first, so a
 * read always shows the current period (see `subscriptions-renewal.ts`).
 */
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { serializeSubscription, type SubscriptionRecord } from '../../store/records/monetization';
import { findSku, findSubscription } from './store';
import type { SubscriptionsQuery } from './schemas';
import { snowflakeKey } from '../core/snowflake';
import { readMonetization } from './subscriptions-renewal';
import { keyRange } from '../../store/port';

/** The user whose subscriptions are listed: the token's own, or the `user_id` the bot names. */
function subscriber(principal: Principal, userId: string | undefined): string {
  if (principal.kind === 'bearer') {
    if (userId !== undefined && userId !== principal.user.id) throw ApiError.of('MISSING_ACCESS');
    return principal.user.id;
  }
  if (userId === undefined)
    throw ApiError.invalidForm({ user_id: { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' } });
  return userId;
}

/**
 * `GET /skus/{sku.id}/subscriptions?user_id&before&after&limit`: newest first; with `after`
 * (and no `before`) oldest first from there.
 */
export async function listSkuSubscriptions(
  ctx: PlatformContext,
  principal: Principal,
  skuId: string,
  query: SubscriptionsQuery,
) {
  const userId = subscriber(principal, query.user_id);
  const tx = await readMonetization(ctx);
  await findSku(tx, principal.application.id, skuId);
  const lower = query.after === undefined ? '' : snowflakeKey(query.after);
  const upper = query.before === undefined ? '\uffff' : snowflakeKey(query.before);
  if (lower >= upper) return [];
  const range = keyRange.bound([userId, lower], [userId, upper], query.after !== undefined, query.before !== undefined);
  const direction = query.after !== undefined && query.before === undefined ? 'next' : 'prev';
  const found: SubscriptionRecord[] = [];
  for await (const { value } of tx.store('subscriptions').index('by_user').iterate(range, direction)) {
    if (found.length >= query.limit) break;
    if (value.application_id === principal.application.id && value.sku_ids.includes(skuId)) found.push(value);
  }
  return found.map(serializeSubscription);
}

/** `GET /skus/{sku.id}/subscriptions/{subscription.id}`: one subscription containing the SKU. */
export async function getSkuSubscription(
  ctx: PlatformContext,
  principal: Principal,
  skuId: string,
  subscriptionId: string,
) {
  const own = principal.kind === 'bearer' ? subscriber(principal, undefined) : null;
  const tx = await readMonetization(ctx);
  await findSku(tx, principal.application.id, skuId);
  const subscription = await findSubscription(tx, subscriptionId);
  if (
    subscription.application_id !== principal.application.id ||
    !subscription.sku_ids.includes(skuId) ||
    (own !== null && subscription.user_id !== own)
  ) {
    throw ApiError.of('UNKNOWN_SUBSCRIPTION');
  }
  return serializeSubscription(subscription);
}
