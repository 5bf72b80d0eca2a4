/**
 * Monetization records (SKUs, entitlements, subscriptions) as stored, and their wire forms in
 * the platform's public shapes (docs: SKU, Entitlement and Subscription resources). Field rules
 * of the spec are noted on the fields they govern; where the spec and the public docs disagree
 * (subscription status values), the spec wins.
 */
import { ENTITLEMENT_TYPE, SUBSCRIPTION_STATUS, type Snowflake } from './core';

/** SKU types in the public values. */
export const SKU_TYPE = { DURABLE: 2, CONSUMABLE: 3, SUBSCRIPTION: 5, SUBSCRIPTION_GROUP: 6 } as const;
/** One of {@link SKU_TYPE}. */
export type SkuType = (typeof SKU_TYPE)[keyof typeof SKU_TYPE];

/** SKU flags in the public bit positions. */
export const SKU_FLAGS = { AVAILABLE: 1 << 2, GUILD_SUBSCRIPTION: 1 << 7, USER_SUBSCRIPTION: 1 << 8 } as const;

/**
 * Entitlement types: the spec's PURCHASE (subscriptions and one-time purchases) and the former
 * APPLICATION_SUBSCRIPTION, plus TEST_MODE_PURCHASE, the public type of test entitlements.
 */
export const ENTITLEMENT_TYPES = { ...ENTITLEMENT_TYPE, TEST_MODE_PURCHASE: 4 } as const;

/** Subscription statuses: the spec's INACTIVE = 1 and ENDING = 2 (not the docs' 2 and 1). */
export { SUBSCRIPTION_STATUS };
/** One of {@link SUBSCRIPTION_STATUS}. */
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUS)[keyof typeof SUBSCRIPTION_STATUS];

/** A price in the currency's smallest unit (cents), as the embedded-app SDK shows it. */
export interface SkuPrice {
  amount: number;
  currency: string;
}

/** A SKU of an application. */
export interface SkuRecord {
  id: Snowflake;
  application_id: Snowflake;
  type: SkuType;
  name: string;
  slug: string;
  flags: number;
  /** What the platform's client shows and charges; null for SKUs not sold in the client (groups). */
  price: SkuPrice | null;
  created_at: number;
}

/** An entitlement: a user's (or guild's) access to a SKU. */
export interface EntitlementRecord {
  id: Snowflake;
  /** The id padded to one length: index order is creation order. */
  order_key: string;
  application_id: Snowflake;
  sku_id: Snowflake;
  /** The user granted access (the purchaser); null for a test entitlement granted to a guild. */
  user_id: Snowflake | null;
  /** The guild granted access (guild subscriptions, guild test entitlements); null otherwise. */
  guild_id: Snowflake | null;
  type: number;
  /** Created by the test entitlement route: only these may be deleted through the API. */
  test: boolean;
  deleted: boolean;
  consumed: boolean;
  starts_at: number | null;
  /** null while a platform-managed subscription is ongoing (indefinite); set when it ends. */
  ends_at: number | null;
  subscription_id: Snowflake | null;
  /** When the migration of its ongoing subscription announced it (ENTITLEMENT_CREATE once). */
  migrated_at: number | null;
  created_at: number;
}

/** A subscription: recurring payments for SKUs over ongoing periods. */
export interface SubscriptionRecord {
  id: Snowflake;
  order_key: string;
  application_id: Snowflake;
  user_id: Snowflake;
  /** The guild a guild subscription applies to; null for a user subscription. */
  guild_id: Snowflake | null;
  sku_ids: Snowflake[];
  /** The entitlements it grants now (renewing into other SKUs replaces them). */
  entitlement_ids: Snowflake[];
  /** The SKUs it renews into (a downgrade changes them before the period ends). */
  renewal_sku_ids: Snowflake[];
  current_period_start: number;
  current_period_end: number;
  status: SubscriptionStatus;
  canceled_at: number | null;
  /** When the period or expiry falls due (the lazy renewal index); null once inactive. */
  due_at: number | null;
  /** Country of the payment source; the public API shows it only with a private scope. */
  country: string | null;
  created_at: number;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The SKU object of the HTTP API. */
export function serializeSku(sku: SkuRecord) {
  return {
    id: sku.id,
    type: sku.type,
    dependent_sku_id: null,
    application_id: sku.application_id,
    manifest_labels: null,
    access_type: 1,
    name: sku.name,
    features: [],
    release_date: null,
    premium: false,
    slug: sku.slug,
    flags: sku.flags,
    show_age_gate: false,
  };
}

/** A SKU as the embedded-app SDK's `getSkus()` returns it (with its price). */
export function serializeRpcSku(sku: SkuRecord & { price: SkuPrice }) {
  return {
    id: sku.id,
    name: sku.name,
    type: sku.type,
    price: { ...sku.price },
    application_id: sku.application_id,
    flags: sku.flags,
    release_date: null,
  };
}

/** The entitlement object on the wire (HTTP answers, gateway and webhook events, RPC). */
export function serializeEntitlement(entitlement: EntitlementRecord) {
  return {
    id: entitlement.id,
    sku_id: entitlement.sku_id,
    application_id: entitlement.application_id,
    ...(entitlement.user_id !== null ? { user_id: entitlement.user_id } : {}),
    ...(entitlement.guild_id !== null ? { guild_id: entitlement.guild_id } : {}),
    promotion_id: null,
    type: entitlement.type,
    deleted: entitlement.deleted,
    gift_code_flags: 0,
    consumed: entitlement.consumed,
    starts_at: iso(entitlement.starts_at),
    ends_at: iso(entitlement.ends_at),
    ...(entitlement.subscription_id !== null ? { subscription_id: entitlement.subscription_id } : {}),
  };
}

/** A test entitlement as its creation answers it: partial, with no subscription_id, starts_at or ends_at. */
export function serializeTestEntitlement(entitlement: EntitlementRecord) {
  const { starts_at: _s, ends_at: _e, ...partial } = serializeEntitlement(entitlement);
  return partial;
}

/**
 * The subscription object (HTTP answers and SUBSCRIPTION_* events). `renewal_sku_ids` is
 * always present: the SKUs it renews into while active, null once it will not renew. `country`
 * is left out, as the public API does without its private scope.
 */
export function serializeSubscription(subscription: SubscriptionRecord) {
  return {
    id: subscription.id,
    user_id: subscription.user_id,
    sku_ids: [...subscription.sku_ids],
    entitlement_ids: [...subscription.entitlement_ids],
    renewal_sku_ids: subscription.status === SUBSCRIPTION_STATUS.ACTIVE ? [...subscription.renewal_sku_ids] : null,
    current_period_start: iso(subscription.current_period_start),
    current_period_end: iso(subscription.current_period_end),
    status: subscription.status,
    canceled_at: iso(subscription.canceled_at),
  };
}

/**
 * A subscription as the sandbox shows it (the developer's and payment provider's view): the
 * public object plus its application, guild and country.
 */
export function serializeSandboxSubscription(subscription: SubscriptionRecord) {
  return {
    ...serializeSubscription(subscription),
    application_id: subscription.application_id,
    guild_id: subscription.guild_id,
    country: subscription.country,
  };
}
