/**
 * Subscription periods by the platform clock. Nothing runs in the background: like the lobbies'
 * idle removal, every monetization read and write first settles the subscriptions whose period
 * end has passed (one range read of an index that holds only ongoing subscriptions), and
 * `POST /sandbox/subscriptions/advance` does it on demand.
 *
 * Settling a due subscription, period after period until its period end is in the future:
 * - ACTIVE, renewing into the same SKUs: the next period starts where the last one ended. No
 *   event is emitted at renewal (spec, Subscription entitlement), and the ongoing entitlement
 *   keeps ends_at null.
 * - ACTIVE, renewing into other SKUs (a downgrade set renewal_sku_ids): the current
 *   entitlements end at the period end (ENTITLEMENT_UPDATE), entitlements for the renewal SKUs
 *   are granted (ENTITLEMENT_CREATE), and SUBSCRIPTION_UPDATE tells the new sku_ids,
 *   entitlement_ids and period (the public docs' downgrade sequence).
 * - ENDING (canceled): it ends at its period end, see {@link endSubscription}.
 */
import type { PlatformDB } from '../../store/schema';
import type { Emit, WriteTx } from '../../store/write';
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { SUBSCRIPTION_PERIOD_MONTHS } from '../core/limits';
import { ENTITLEMENT_TYPES, SUBSCRIPTION_STATUS, type SubscriptionRecord } from '../../store/records/monetization';
import {
  MONETIZATION_STORES,
  addMonths,
  endEntitlement,
  grantEntitlement,
  loadApplication,
  saveSubscription,
  type MonetizationTx,
} from './store';
import type { ApplicationRecord } from '../../store/records/core';
import { keyRange } from '../../store/port';
import { type PlatformStoreName } from '../../store/schema';

/** What one settling did: subscriptions that renewed and that ended. */
export interface SettleResult {
  renewed: string[];
  ended: string[];
}

/**
 * Ends a subscription at `at`: status INACTIVE, each of its entitlements gets ends_at = `at`
 * with ENTITLEMENT_UPDATE emitted once (spec: the only time it is), then SUBSCRIPTION_UPDATE.
 */
export async function endSubscription(
  tx: WriteTx,
  emit: Emit,
  application: ApplicationRecord,
  subscription: SubscriptionRecord,
  at: number,
): Promise<SubscriptionRecord> {
  for (const id of subscription.entitlement_ids) await endEntitlement(tx, emit, application, id, at);
  const ended: SubscriptionRecord = { ...subscription, status: SUBSCRIPTION_STATUS.INACTIVE, due_at: null };
  await saveSubscription(tx, emit, application, ended, 'SUBSCRIPTION_UPDATE');
  return ended;
}

const sameSkus = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));

/** The same subscription one period later (in memory). */
function nextPeriod(subscription: SubscriptionRecord): SubscriptionRecord {
  const start = subscription.current_period_end;
  const end = addMonths(start, SUBSCRIPTION_PERIOD_MONTHS);
  return { ...subscription, current_period_start: start, current_period_end: end, due_at: end };
}

/** Renews into the renewal SKUs: the current entitlements end, new ones are granted, SUBSCRIPTION_UPDATE. */
async function renewIntoOtherSkus(
  tx: WriteTx,
  emit: Emit,
  ctx: PlatformContext,
  application: ApplicationRecord,
  subscription: SubscriptionRecord,
  now: number,
): Promise<SubscriptionRecord> {
  const start = subscription.current_period_end;
  for (const id of subscription.entitlement_ids) await endEntitlement(tx, emit, application, id, start);
  const granted: string[] = [];
  for (const skuId of subscription.renewal_sku_ids) {
    const entitlement = await grantEntitlement(
      tx,
      emit,
      application,
      ctx.ids.next(),
      {
        sku_id: skuId,
        user_id: subscription.user_id,
        guild_id: subscription.guild_id,
        type: ENTITLEMENT_TYPES.PURCHASE,
        test: false,
        starts_at: start,
        ends_at: null,
        subscription_id: subscription.id,
      },
      now,
    );
    granted.push(entitlement.id);
  }
  const renewed: SubscriptionRecord = {
    ...nextPeriod(subscription),
    sku_ids: [...subscription.renewal_sku_ids],
    entitlement_ids: granted,
  };
  await saveSubscription(tx, emit, application, renewed, 'SUBSCRIPTION_UPDATE');
  return renewed;
}

/**
 * A pre-migration entitlement (type APPLICATION_SUBSCRIPTION) carried its period's end as
 * ends_at: after a silent renewal it follows the new period end, without an event.
 */
async function followPeriodEnd(tx: WriteTx, subscription: SubscriptionRecord): Promise<void> {
  for (const id of subscription.entitlement_ids) {
    const entitlement = await tx.store('entitlements').get(id);
    if (
      entitlement &&
      !entitlement.deleted &&
      entitlement.type === ENTITLEMENT_TYPES.APPLICATION_SUBSCRIPTION &&
      entitlement.ends_at !== null
    ) {
      await tx.store('entitlements').put({ ...entitlement, ends_at: subscription.current_period_end });
    }
  }
}

/** Inside a write: settles every subscription whose period end is at or before `now`. */
export async function settleDueSubscriptions(
  tx: WriteTx,
  emit: Emit,
  ctx: PlatformContext,
  now: number,
): Promise<SettleResult> {
  const result: SettleResult = { renewed: [], ended: [] };
  const due = await tx.store('subscriptions').index('by_due').getAll(keyRange.upperBound(now));
  for (const stored of due) {
    const application = await loadApplication(tx, stored.application_id);
    let subscription = stored;
    // Silent renewals are applied in memory and stored once, however many periods passed.
    let silent = false;
    while (subscription.status !== SUBSCRIPTION_STATUS.INACTIVE && subscription.current_period_end <= now) {
      // The status never changes between periods here (only requests cancel or resume), so an
      // ENDING subscription ends at its first due period end, with nothing silent before it.
      if (subscription.status === SUBSCRIPTION_STATUS.ENDING) {
        subscription = await endSubscription(tx, emit, application, subscription, subscription.current_period_end);
        silent = false;
        result.ended.push(subscription.id);
      } else if (sameSkus(subscription.sku_ids, subscription.renewal_sku_ids)) {
        subscription = nextPeriod(subscription);
        silent = true;
      } else {
        subscription = await renewIntoOtherSkus(tx, emit, ctx, application, subscription, now);
        silent = false;
      }
    }
    if (silent) {
      await tx.store('subscriptions').put(subscription);
      await followPeriodEnd(tx, subscription);
    }
    if (subscription.status !== SUBSCRIPTION_STATUS.INACTIVE) result.renewed.push(subscription.id);
  }
  return result;
}

/**
 * Runs `body` in one monetization write (see `write`) over the monetization stores and
 * `extra`, after settling the due subscriptions in the same transaction: a request never sees a
 * period that has passed (if the request fails, the settling is undone with it and simply runs
 * again next time).
 */
export function writeMonetization<T>(
  ctx: PlatformContext,
  body: (tx: WriteTx, emit: Emit, now: number) => Promise<T>,
  extra: PlatformStoreName[] = [],
): Promise<T> {
  return write(ctx, [...MONETIZATION_STORES, ...extra], async (tx, emit) => {
    const now = ctx.clock.now();
    await settleDueSubscriptions(tx, emit, ctx, now);
    return body(tx, emit, now);
  });
}

/**
 * Settles the subscriptions whose period end has passed by the platform clock. Cheap when none
 * is due: one index count. Monetization reads run it first.
 * @example await settleSubscriptions(ctx); // after `PUT /sandbox/clock` moved past a period end
 */
export async function settleSubscriptions(ctx: PlatformContext): Promise<SettleResult> {
  const now = ctx.clock.now();
  const due = await ctx.db.countFromIndex('subscriptions', 'by_due', keyRange.upperBound(now));
  if (due === 0) return { renewed: [], ended: [] };
  return write(ctx, MONETIZATION_STORES, (tx, emit) => settleDueSubscriptions(tx, emit, ctx, now));
}

/** A read-only transaction over the monetization stores, after settling what is due. */
export async function readMonetization(ctx: PlatformContext): Promise<MonetizationTx> {
  await settleSubscriptions(ctx);
  return ctx.db.read(MONETIZATION_STORES);
}
