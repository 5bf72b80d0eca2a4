/**
 * Purchases, as the payment provider completes them: a one-time SKU (durable or consumable)
 * becomes an entitlement; a subscription SKU becomes a subscription with its first period and
 * an ongoing entitlement (type PURCHASE, ends_at null until the subscription ends). Reached by
 * `POST /sandbox/purchases` (a test purchase, in the spirit of a payment provider's test mode)
 * and by the embedded-app RPC's START_PURCHASE through the platform's client.
 */
import type { Emit, WriteTx } from '../../store/write';
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { SUBSCRIPTION_PERIOD_MONTHS } from '../core/limits';
import {
  ENTITLEMENT_TYPES,
  SKU_FLAGS,
  SKU_TYPE,
  SUBSCRIPTION_STATUS,
  type EntitlementRecord,
  type SkuRecord,
  type SubscriptionRecord,
} from '../../store/records/monetization';
import { addMonths, findSku, grantEntitlement, loadApplication, refuseOwned, saveSubscription } from './store';
import type { ApplicationRecord, UserRecord } from '../../store/records/core';
import { isSoldInClient } from './skus';
import { snowflakeKey } from '../core/snowflake';
import { writeMonetization } from './subscriptions-renewal';

/** What a purchase made: the entitlement, and for a subscription SKU the subscription. */
export interface PurchaseResult {
  entitlement: EntitlementRecord;
  subscription: SubscriptionRecord | null;
}

/** A sandbox purchase. */
export interface PurchaseInput {
  user_id: string;
  sku_id: string;
  /** The guild a guild subscription is bought for (required for those, refused for others). */
  guild_id?: string | null;
  /**
   * A subscription as it was before the platform's migration: its entitlement has the former
   * type APPLICATION_SUBSCRIPTION (8) and ends_at at its period end, until it is migrated.
   */
  legacy?: boolean;
  /** ISO 3166-1 alpha-2 country of the payment source. */
  country?: string | null;
}

/** The guild a purchase is for: checked against the SKU's kind and the buyer's membership. */
async function purchaseGuild(
  tx: WriteTx,
  sku: SkuRecord,
  user: UserRecord,
  guildId: string | null,
): Promise<string | null> {
  if ((sku.flags & SKU_FLAGS.GUILD_SUBSCRIPTION) === 0) {
    if (guildId !== null)
      throw ApiError.invalidForm({ guild_id: 'Only a guild subscription SKU is bought for a guild.' });
    return null;
  }
  if (guildId === null)
    throw ApiError.invalidForm({ guild_id: 'A guild subscription SKU is bought for a guild: guild_id is required.' });
  if (!(await tx.store('guilds').get(guildId))) throw ApiError.of('UNKNOWN_GUILD');
  if (!(await tx.store('members').get([guildId, user.id])))
    throw ApiError.of('MISSING_ACCESS', 'The buyer is not a member of this guild.');
  return guildId;
}

/** Inside a write: the purchase of `sku` by `user`, with its events. */
async function completePurchase(
  tx: WriteTx,
  emit: Emit,
  ctx: PlatformContext,
  now: number,
  purchase: {
    application: ApplicationRecord;
    sku: SkuRecord;
    user: UserRecord;
    guildId: string | null;
    legacy: boolean;
    country: string | null;
  },
): Promise<PurchaseResult> {
  const { application, sku, user, legacy } = purchase;
  if (sku.type === SKU_TYPE.SUBSCRIPTION_GROUP || (sku.flags & SKU_FLAGS.AVAILABLE) === 0)
    throw ApiError.of('INVALID_SKU');
  if (legacy && sku.type !== SKU_TYPE.SUBSCRIPTION)
    throw ApiError.invalidForm({ legacy: 'Only a subscription can be bought as it was before the migration.' });
  const guildId = await purchaseGuild(tx, sku, user, purchase.guildId);
  await refuseOwned(tx, sku, { user_id: user.id, guild_id: guildId }, now);
  const grant = { sku_id: sku.id, user_id: user.id, guild_id: guildId, test: false, starts_at: now };
  if (sku.type !== SKU_TYPE.SUBSCRIPTION) {
    const entitlement = await grantEntitlement(
      tx,
      emit,
      application,
      ctx.ids.next(),
      { ...grant, type: ENTITLEMENT_TYPES.PURCHASE, ends_at: null, subscription_id: null },
      now,
    );
    return { entitlement, subscription: null };
  }
  const subscriptionId = ctx.ids.next();
  const entitlementId = ctx.ids.next();
  const periodEnd = addMonths(now, SUBSCRIPTION_PERIOD_MONTHS);
  const subscription: SubscriptionRecord = {
    id: subscriptionId,
    order_key: snowflakeKey(subscriptionId),
    application_id: application.id,
    user_id: user.id,
    guild_id: guildId,
    sku_ids: [sku.id],
    entitlement_ids: [entitlementId],
    renewal_sku_ids: [sku.id],
    current_period_start: now,
    current_period_end: periodEnd,
    status: SUBSCRIPTION_STATUS.ACTIVE,
    canceled_at: null,
    due_at: periodEnd,
    country: purchase.country,
    created_at: now,
  };
  // Created with its entitlement granted, so ACTIVE from the start (the public docs' rule).
  await saveSubscription(tx, emit, application, subscription, 'SUBSCRIPTION_CREATE');
  const entitlement = await grantEntitlement(
    tx,
    emit,
    application,
    entitlementId,
    {
      ...grant,
      // Spec: subscription entitlements are PURCHASE with ends_at null while ongoing.
      type: legacy ? ENTITLEMENT_TYPES.APPLICATION_SUBSCRIPTION : ENTITLEMENT_TYPES.PURCHASE,
      ends_at: legacy ? periodEnd : null,
      subscription_id: subscriptionId,
    },
    now,
  );
  return { entitlement, subscription };
}

/**
 * `POST /sandbox/purchases`: completes a purchase of any application's SKU for a user.
 * @example await purchaseSku(ctx, { user_id: alice.id, sku_id: premium.id })
 */
export async function purchaseSku(ctx: PlatformContext, input: PurchaseInput): Promise<PurchaseResult> {
  return writeMonetization(
    ctx,
    async (tx, emit, now) => {
      const stored = await tx.store('skus').get(input.sku_id);
      if (!stored) throw ApiError.of('UNKNOWN_SKU');
      const user = await tx.store('users').get(input.user_id);
      if (!user || user.bot) throw ApiError.invalidForm({ user_id: user ? 'Bots cannot buy SKUs.' : 'Unknown user.' });
      const application = await loadApplication(tx, stored.application_id);
      return completePurchase(tx, emit, ctx, now, {
        application,
        sku: stored,
        user,
        guildId: input.guild_id ?? null,
        legacy: input.legacy ?? false,
        country: input.country ?? null,
      });
    },
    ['users', 'guilds', 'members'],
  );
}

/**
 * START_PURCHASE through the platform's client: the token's user buys a SKU of the token's
 * application that the client sells (available, priced, not a group; others are unknown to it).
 * A guild subscription is bought for the guild the activity runs in (`contextGuildId`); other
 * SKUs ignore it.
 */
export async function purchaseFromClient(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  skuId: string,
  contextGuildId: string | null,
): Promise<PurchaseResult> {
  return writeMonetization(
    ctx,
    async (tx, emit, now) => {
      const sku = await findSku(tx, principal.application.id, skuId);
      if (!isSoldInClient(sku)) throw ApiError.of('UNKNOWN_SKU');
      const guildId = (sku.flags & SKU_FLAGS.GUILD_SUBSCRIPTION) !== 0 ? contextGuildId : null;
      const application = await loadApplication(tx, sku.application_id);
      return completePurchase(tx, emit, ctx, now, {
        application,
        sku,
        user: principal.user,
        guildId,
        legacy: false,
        country: null,
      });
    },
    ['users', 'guilds', 'members'],
  );
}
