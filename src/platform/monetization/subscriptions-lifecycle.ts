/**
 * What happens to a subscription besides renewing (`subscriptions-renewal.ts`), driven by the
 * sandbox as a payment provider's test clock would: the user cancels or resumes, changes what it
 * renews into, the payment fails for good (it expires), the platform migrates it, or deletes it.
 * Every step first settles what the platform clock made due, in the same transaction.
 */
import type { Emit, WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  ENTITLEMENT_TYPES,
  SKU_FLAGS,
  SKU_TYPE,
  SUBSCRIPTION_STATUS,
  serializeSubscription,
  type SubscriptionRecord,
} from '../../store/records/monetization';
import {
  announceEntitlementCreate,
  deleteEntitlementRecord,
  findSubscription,
  loadApplication,
  saveSubscription,
} from './store';
import type { ApplicationRecord } from '../../store/records/core';
import { endSubscription, writeMonetization } from './subscriptions-renewal';
import { monetizationAudience } from './audience';

type Step = (
  tx: WriteTx,
  emit: Emit,
  application: ApplicationRecord,
  subscription: SubscriptionRecord,
  now: number,
) => Promise<SubscriptionRecord>;

/** Runs one lifecycle step on subscription `subscriptionId`; an ended one is refused (400). */
function lifecycleStep(ctx: PlatformContext, subscriptionId: string, step: Step): Promise<SubscriptionRecord> {
  return writeMonetization(ctx, async (tx, emit, now) => {
    const subscription = await findSubscription(tx, subscriptionId);
    if (subscription.status === SUBSCRIPTION_STATUS.INACTIVE) throw ApiError.of('SUBSCRIPTION_NOT_ONGOING');
    return step(tx, emit, await loadApplication(tx, subscription.application_id), subscription, now);
  });
}

/**
 * The user cancels: status ENDING, canceled_at now, SUBSCRIPTION_UPDATE. The subscription and
 * its entitlement stay valid until the period end, where it ends. No entitlement event now.
 * Canceling a canceled subscription changes nothing.
 */
export function cancelSubscription(ctx: PlatformContext, subscriptionId: string): Promise<SubscriptionRecord> {
  return lifecycleStep(ctx, subscriptionId, async (tx, emit, application, subscription, now) => {
    if (subscription.status === SUBSCRIPTION_STATUS.ENDING) return subscription;
    const canceled: SubscriptionRecord = { ...subscription, status: SUBSCRIPTION_STATUS.ENDING, canceled_at: now };
    await saveSubscription(tx, emit, application, canceled, 'SUBSCRIPTION_UPDATE');
    return canceled;
  });
}

/** The user resumes a canceled subscription before its period end: ACTIVE, canceled_at null, SUBSCRIPTION_UPDATE. */
export function resumeSubscription(ctx: PlatformContext, subscriptionId: string): Promise<SubscriptionRecord> {
  return lifecycleStep(ctx, subscriptionId, async (tx, emit, application, subscription) => {
    if (subscription.status === SUBSCRIPTION_STATUS.ACTIVE) return subscription;
    const resumed: SubscriptionRecord = { ...subscription, status: SUBSCRIPTION_STATUS.ACTIVE, canceled_at: null };
    await saveSubscription(tx, emit, application, resumed, 'SUBSCRIPTION_UPDATE');
    return resumed;
  });
}

/** The subscription expires now (a payment that could not be recovered): it ends at once. */
export function expireSubscription(ctx: PlatformContext, subscriptionId: string): Promise<SubscriptionRecord> {
  return lifecycleStep(ctx, subscriptionId, (tx, emit, application, subscription, now) =>
    endSubscription(tx, emit, application, subscription, now),
  );
}

/**
 * The user changes what an active subscription renews into (a downgrade takes effect at the
 * period end): renewal_sku_ids change, SUBSCRIPTION_UPDATE. Each SKU must be an available
 * subscription SKU of the same application and of the same kind (guild or user).
 */
export function changeRenewalSkus(
  ctx: PlatformContext,
  subscriptionId: string,
  skuIds: string[],
): Promise<SubscriptionRecord> {
  return lifecycleStep(ctx, subscriptionId, async (tx, emit, application, subscription) => {
    if (subscription.status !== SUBSCRIPTION_STATUS.ACTIVE) {
      throw ApiError.invalidForm({ renewal_sku_ids: 'A canceled subscription does not renew: resume it first.' });
    }
    const kind = subscription.guild_id === null ? SKU_FLAGS.USER_SUBSCRIPTION : SKU_FLAGS.GUILD_SUBSCRIPTION;
    for (const [i, skuId] of skuIds.entries()) {
      const sku = await tx.store('skus').get(skuId);
      if (
        !sku ||
        sku.application_id !== application.id ||
        sku.type !== SKU_TYPE.SUBSCRIPTION ||
        (sku.flags & SKU_FLAGS.AVAILABLE) === 0 ||
        (sku.flags & kind) === 0
      ) {
        throw ApiError.invalidForm({
          [`renewal_sku_ids.${i}`]: 'Not an available subscription SKU of this application and kind.',
        });
      }
    }
    const unchanged =
      skuIds.length === subscription.renewal_sku_ids.length &&
      skuIds.every((id, i) => id === subscription.renewal_sku_ids[i]);
    if (unchanged) return subscription;
    const changed: SubscriptionRecord = { ...subscription, renewal_sku_ids: [...skuIds] };
    await saveSubscription(tx, emit, application, changed, 'SUBSCRIPTION_UPDATE');
    return changed;
  });
}

/**
 * The platform migrates an ongoing subscription: its entitlements become type PURCHASE with
 * ends_at null (those from before the migration had type APPLICATION_SUBSCRIPTION and their
 * period's end), and ENTITLEMENT_CREATE is emitted once for each (spec: not a net new
 * entitlement, with ends_at null). Migrating again emits nothing.
 */
export function migrateSubscription(ctx: PlatformContext, subscriptionId: string): Promise<SubscriptionRecord> {
  return lifecycleStep(ctx, subscriptionId, async (tx, emit, application, subscription, now) => {
    for (const id of subscription.entitlement_ids) {
      const entitlement = await tx.store('entitlements').get(id);
      if (!entitlement || entitlement.deleted || entitlement.migrated_at !== null) continue;
      const migrated = { ...entitlement, type: ENTITLEMENT_TYPES.PURCHASE, ends_at: null, migrated_at: now };
      await tx.store('entitlements').put(migrated);
      announceEntitlementCreate(emit, application, migrated);
    }
    return subscription;
  });
}

/**
 * The platform deletes a subscription (a refund or a removal): its entitlements are deleted
 * (ENTITLEMENT_DELETE each), the subscription is removed, SUBSCRIPTION_DELETE. Works on ended
 * subscriptions too.
 */
export async function deleteSubscription(ctx: PlatformContext, subscriptionId: string): Promise<void> {
  await writeMonetization(ctx, async (tx, emit) => {
    const subscription = await findSubscription(tx, subscriptionId);
    const application = await loadApplication(tx, subscription.application_id);
    for (const id of subscription.entitlement_ids) {
      const entitlement = await tx.store('entitlements').get(id);
      if (entitlement && !entitlement.deleted) await deleteEntitlementRecord(tx, emit, application, entitlement);
    }
    await tx.store('subscriptions').delete(subscription.id);
    emit({
      type: 'SUBSCRIPTION_DELETE',
      data: serializeSubscription(subscription),
      audience: monetizationAudience(application, subscription.user_id),
    });
  });
}
