/**
 * Monetization in the store: the stores a write touches, who may address an application's
 * SKUs and entitlements, finding records, and the changes every lifecycle step shares (grant
 * an entitlement, end it, announce a subscription), each emitting its event in the caller's
 * transaction so that the change and its event commit together.
 */
import type { PlatformDB } from '../../store/schema';
import type { Emit, WriteTx } from '../../store/write';
import type { Principal } from '../oauth2/auth';
import { ApiError } from '../core/errors';
import {
  serializeEntitlement,
  serializeSubscription,
  type EntitlementRecord,
  type SkuRecord,
  type SubscriptionRecord,
} from '../../store/records/monetization';
import type { ApplicationRecord } from '../../store/records/core';
import { snowflakeKey } from '../core/snowflake';
import { keyRange } from '../../store/port';
import { type PlatformStoreName, type ReadTx } from '../../store/schema';
import { monetizationAudience } from './audience';

/** Every store a monetization write touches (the event log is added by `write`). */
export const MONETIZATION_STORES: PlatformStoreName[] = ['applications', 'skus', 'entitlements', 'subscriptions'];

/** A transaction over the monetization stores, read-only or read-write. */
export type MonetizationTx = ReadTx;

/**
 * Throws 403 20012 unless `principal` acts for application `applicationId`: a bot or token of
 * one application never reads another's SKUs, entitlements or subscriptions.
 */
export function requireOwnApplication(principal: Principal, applicationId: string): void {
  if (principal.application.id !== applicationId) throw ApiError.of('ENDPOINT_UNAVAILABLE');
}

/** The application `applicationId` (404 10002 when there is none). */
export async function loadApplication(tx: MonetizationTx, applicationId: string): Promise<ApplicationRecord> {
  const application = await tx.store('applications').get(applicationId);
  if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
  return application;
}

/** The SKU `skuId` of application `applicationId`; another application's SKU is unknown (404 10027). */
export async function findSku(tx: MonetizationTx, applicationId: string, skuId: string): Promise<SkuRecord> {
  const sku = await tx.store('skus').get(skuId);
  if (!sku || sku.application_id !== applicationId) throw ApiError.of('UNKNOWN_SKU');
  return sku;
}

/** The entitlement `entitlementId` of application `applicationId` (404 10029 otherwise). */
export async function findEntitlement(
  tx: MonetizationTx,
  applicationId: string,
  entitlementId: string,
): Promise<EntitlementRecord> {
  const entitlement = await tx.store('entitlements').get(entitlementId);
  if (!entitlement || entitlement.application_id !== applicationId) throw ApiError.of('UNKNOWN_ENTITLEMENT');
  return entitlement;
}

/** The subscription `subscriptionId` (404 Unknown Subscription when there is none). */
export async function findSubscription(tx: MonetizationTx, subscriptionId: string): Promise<SubscriptionRecord> {
  const subscription = await tx.store('subscriptions').get(subscriptionId);
  if (!subscription) throw ApiError.of('UNKNOWN_SUBSCRIPTION');
  return subscription;
}

/**
 * `ms` moved by `months` calendar months in UTC; a day the target month lacks becomes its last
 * day (Jan 31 + 1 month = Feb 28 or 29), as billing periods do.
 * @example addMonths(Date.parse('2026-01-31T10:00:00Z'), 1) // 2026-02-28T10:00:00Z
 */
export function addMonths(ms: number, months: number): number {
  const date = new Date(ms);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/** True once an entitlement has ended by `now` (its ends_at passed). */
export function hasEnded(entitlement: EntitlementRecord, now: number): boolean {
  return entitlement.ends_at !== null && entitlement.ends_at <= now;
}

/** True while an entitlement grants access: not deleted, not ended, and for consumables not consumed. */
export function grantsAccess(entitlement: EntitlementRecord, now: number): boolean {
  return !entitlement.deleted && !entitlement.consumed && !hasEnded(entitlement, now);
}

/** What a new entitlement is made of (the rest is derived). */
export type EntitlementGrant = Pick<
  EntitlementRecord,
  'sku_id' | 'user_id' | 'guild_id' | 'type' | 'test' | 'starts_at' | 'ends_at' | 'subscription_id'
>;

/**
 * Stores a new entitlement and emits ENTITLEMENT_CREATE, to the gateway and as a webhook event
 * (the only monetization event available by webhook).
 */
export async function grantEntitlement(
  tx: WriteTx,
  emit: Emit,
  application: ApplicationRecord,
  id: string,
  grant: EntitlementGrant,
  now: number,
): Promise<EntitlementRecord> {
  const entitlement: EntitlementRecord = {
    id,
    order_key: snowflakeKey(id),
    application_id: application.id,
    ...grant,
    deleted: false,
    consumed: false,
    migrated_at: null,
    created_at: now,
  };
  await tx.store('entitlements').add(entitlement);
  announceEntitlementCreate(emit, application, entitlement);
  return entitlement;
}

/** Emits ENTITLEMENT_CREATE for `entitlement` (gateway and webhook). */
export function announceEntitlementCreate(
  emit: Emit,
  application: ApplicationRecord,
  entitlement: EntitlementRecord,
): void {
  emit({
    type: 'ENTITLEMENT_CREATE',
    data: serializeEntitlement(entitlement),
    audience: monetizationAudience(application, entitlement.user_id),
    channels: ['gateway', 'webhook'],
  });
}

/**
 * Ends a subscription entitlement at `at` and emits ENTITLEMENT_UPDATE with that ends_at. Called
 * only when its subscription leaves it (the subscription ends, or renews into other SKUs), which
 * happens once per entitlement. A deleted (refunded) entitlement is left as it is. A
 * pre-migration entitlement, whose ends_at was only its period's end, ends here too.
 */
export async function endEntitlement(
  tx: WriteTx,
  emit: Emit,
  application: ApplicationRecord,
  entitlementId: string,
  at: number,
): Promise<void> {
  const entitlement = await tx.store('entitlements').get(entitlementId);
  if (!entitlement || entitlement.deleted) return;
  const ended: EntitlementRecord = { ...entitlement, ends_at: at };
  await tx.store('entitlements').put(ended);
  emit({
    type: 'ENTITLEMENT_UPDATE',
    data: serializeEntitlement(ended),
    audience: monetizationAudience(application, ended.user_id),
  });
}

/** Marks an entitlement deleted and emits ENTITLEMENT_DELETE (a deleted test entitlement, a refund). */
export async function deleteEntitlementRecord(
  tx: WriteTx,
  emit: Emit,
  application: ApplicationRecord,
  entitlement: EntitlementRecord,
): Promise<void> {
  const deleted: EntitlementRecord = { ...entitlement, deleted: true };
  await tx.store('entitlements').put(deleted);
  emit({
    type: 'ENTITLEMENT_DELETE',
    data: serializeEntitlement(deleted),
    audience: monetizationAudience(application, deleted.user_id),
  });
}

/** Stores a subscription and emits SUBSCRIPTION_CREATE or SUBSCRIPTION_UPDATE (gateway only). */
export async function saveSubscription(
  tx: WriteTx,
  emit: Emit,
  application: ApplicationRecord,
  subscription: SubscriptionRecord,
  type: 'SUBSCRIPTION_CREATE' | 'SUBSCRIPTION_UPDATE',
): Promise<void> {
  await tx.store('subscriptions').put(subscription);
  emit({
    type,
    data: serializeSubscription(subscription),
    audience: monetizationAudience(application, subscription.user_id),
  });
}

/**
 * Refuses (400 40074) a new entitlement to what its owner already has access to: a durable SKU
 * owned, a consumable not consumed yet (the public docs: one unconsumed entitlement at a time),
 * a subscription that has not ended. The owner is a guild when `guild_id` is set, else the user.
 */
export async function refuseOwned(
  tx: WriteTx,
  sku: SkuRecord,
  owner: { user_id: string | null; guild_id: string | null },
  now: number,
): Promise<void> {
  const byGuild = owner.guild_id !== null;
  const key = byGuild ? owner.guild_id! : owner.user_id!;
  const range = keyRange.bound([sku.application_id, key, ''], [sku.application_id, key, '\uffff']);
  const held = await tx
    .store('entitlements')
    .index(byGuild ? 'by_guild' : 'by_user')
    .getAll(range);
  // A user's own access: entitlements they bought for a guild are the guild's, not theirs.
  if (held.some((e) => e.sku_id === sku.id && (byGuild || e.guild_id === null) && grantsAccess(e, now))) {
    throw ApiError.of('ENTITLEMENT_ALREADY_GRANTED');
  }
}
