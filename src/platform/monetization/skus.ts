/**
 * SKUs: what an application sells. The sandbox creates them (the developer portal's part); the
 * API lists them (`GET /applications/{id}/skus`), and the platform's client shows an activity
 * the ones it sells (GET_SKUS_EMBEDDED). As on the platform, creating a SUBSCRIPTION SKU also
 * creates its system-generated SUBSCRIPTION_GROUP SKU, which is listed but never sold.
 */
import { write } from '../../store/write';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  SKU_FLAGS,
  SKU_TYPE,
  serializeRpcSku,
  serializeSku,
  type SkuPrice,
  type SkuRecord,
} from '../../store/records/monetization';
import { loadApplication, requireOwnApplication } from './store';
import { snowflakeKey } from '../core/snowflake';

/** A SKU as the sandbox creates it. */
export interface CreateSkuInput {
  name: string;
  type: typeof SKU_TYPE.DURABLE | typeof SKU_TYPE.CONSUMABLE | typeof SKU_TYPE.SUBSCRIPTION;
  flags?: number;
  price?: SkuPrice | null;
}

/**
 * The URL slug the platform generates from a name: lower case without accents, runs of anything
 * but letters and digits as one hyphen.
 * @example skuSlug('Gold Pack (x10)') // 'gold-pack-x10'
 */
export function skuSlug(name: string): string {
  // Accents come off (é is e and a combining mark after NFKD) before the rest becomes hyphens.
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The flags of a new SKU: AVAILABLE (plus USER_SUBSCRIPTION for a subscription) unless given.
 * A subscription is for guilds or for users, exactly one; a one-time SKU is neither.
 */
function skuFlags(input: CreateSkuInput): number {
  const flags =
    input.flags ?? SKU_FLAGS.AVAILABLE | (input.type === SKU_TYPE.SUBSCRIPTION ? SKU_FLAGS.USER_SUBSCRIPTION : 0);
  const kinds = [SKU_FLAGS.GUILD_SUBSCRIPTION, SKU_FLAGS.USER_SUBSCRIPTION].filter((bit) => (flags & bit) !== 0).length;
  if (input.type === SKU_TYPE.SUBSCRIPTION && kinds !== 1) {
    throw ApiError.invalidForm({
      flags: 'A subscription SKU has exactly one of GUILD_SUBSCRIPTION (1 << 7) and USER_SUBSCRIPTION (1 << 8).',
    });
  }
  if (input.type !== SKU_TYPE.SUBSCRIPTION && kinds !== 0) {
    throw ApiError.invalidForm({ flags: 'GUILD_SUBSCRIPTION and USER_SUBSCRIPTION are for subscription SKUs.' });
  }
  return flags;
}

/**
 * Sandbox: creates a SKU of an application, and for a subscription its SUBSCRIPTION_GROUP.
 * @example await createSku(ctx, app.id, { name: 'Premium', type: SKU_TYPE.SUBSCRIPTION, price: { amount: 499, currency: 'usd' } })
 */
export async function createSku(
  ctx: PlatformContext,
  applicationId: string,
  input: CreateSkuInput,
): Promise<{ sku: SkuRecord; group: SkuRecord | null }> {
  const flags = skuFlags(input);
  return write(ctx, ['applications', 'skus'], async (tx) => {
    await loadApplication(tx, applicationId);
    const now = ctx.clock.now();
    const base = { application_id: applicationId, name: input.name, slug: skuSlug(input.name), flags, created_at: now };
    // The group comes first, as the platform lists it before the SKU it was generated for.
    const group: SkuRecord | null =
      input.type === SKU_TYPE.SUBSCRIPTION
        ? { ...base, id: ctx.ids.next(), type: SKU_TYPE.SUBSCRIPTION_GROUP, price: null }
        : null;
    const sku: SkuRecord = { ...base, id: ctx.ids.next(), type: input.type, price: input.price ?? null };
    if (group) await tx.store('skus').add(group);
    await tx.store('skus').add(sku);
    return { sku, group };
  });
}

/** Every SKU of an application, oldest first. */
async function applicationSkus(ctx: PlatformContext, applicationId: string): Promise<SkuRecord[]> {
  const skus = await ctx.db.getAllFromIndex('skus', 'by_application', applicationId);
  return skus.sort((a, b) => (snowflakeKey(a.id) < snowflakeKey(b.id) ? -1 : 1));
}

/** `GET /applications/{id}/skus`: every SKU of the caller's application (groups included). */
export async function listSkus(ctx: PlatformContext, principal: Principal, applicationId: string) {
  requireOwnApplication(principal, applicationId);
  return (await applicationSkus(ctx, applicationId)).map(serializeSku);
}

/** True for a SKU the platform's client sells: available, priced, not a group. */
export function isSoldInClient(sku: SkuRecord): sku is SkuRecord & { price: SkuPrice } {
  return sku.type !== SKU_TYPE.SUBSCRIPTION_GROUP && sku.price !== null && (sku.flags & SKU_FLAGS.AVAILABLE) !== 0;
}

/** GET_SKUS_EMBEDDED: the SKUs of the token's application that the client sells, with their prices. */
export async function clientSkus(ctx: PlatformContext, principal: Principal) {
  return (await applicationSkus(ctx, principal.application.id)).filter(isSoldInClient).map(serializeRpcSku);
}
