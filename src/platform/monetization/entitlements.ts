/**
 * The entitlement API (`/applications/{id}/entitlements`): list with the public filters, get,
 * consume, and test entitlements (create and delete), for the application's bot; a user's
 * OAuth2 token with `applications.entitlements` reads and consumes that user's own. Also what
 * the platform's client tells an activity (GET_ENTITLEMENTS_EMBEDDED) and the sandbox's refund.
 */
import type { BearerPrincipal, BotPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  ENTITLEMENT_TYPES,
  SKU_TYPE,
  serializeEntitlement,
  type EntitlementRecord,
} from '../../store/records/monetization';
import {
  deleteEntitlementRecord,
  findEntitlement,
  findSku,
  grantEntitlement,
  hasEnded,
  loadApplication,
  refuseOwned,
  requireOwnApplication,
  type MonetizationTx,
} from './store';
import { snowflakeKey } from '../core/snowflake';
import { readMonetization, writeMonetization } from './subscriptions-renewal';
import type { EntitlementsQuery, TestEntitlementInput } from './schemas';
import { keyRange } from '../../store/port';

/** The scope a user's token needs to read its own entitlements. */
export const ENTITLEMENTS_SCOPE = 'applications.entitlements';

/**
 * The user whose entitlements a bearer caller may see (its own); null for the bot (any). A user's
 * token needs {@link ENTITLEMENTS_SCOPE} to get here (the access table's).
 */
function ownUser(principal: Principal): string | null {
  return principal.kind === 'bot' ? null : principal.user.id;
}

/** The index and key prefix that read the fewest records for a query. */
function indexFor(applicationId: string, userId: string | undefined, guildId: string | undefined) {
  if (userId !== undefined) return { name: 'by_user' as const, prefix: [applicationId, userId] };
  if (guildId !== undefined) return { name: 'by_guild' as const, prefix: [applicationId, guildId] };
  return { name: 'by_application' as const, prefix: [applicationId] };
}

/**
 * `GET /applications/{id}/entitlements`: active and ended entitlements, filtered by user, guild
 * and SKUs, ended ones left out with `exclude_ended`, deleted ones unless `exclude_deleted=false`.
 * Newest first; with `after` (and no `before`) oldest first from there. A user's token lists its
 * own (another `user_id` is 403 50001).
 */
export async function listEntitlements(
  ctx: PlatformContext,
  principal: Principal,
  applicationId: string,
  query: EntitlementsQuery,
) {
  requireOwnApplication(principal, applicationId);
  const own = ownUser(principal);
  if (own !== null && query.user_id !== undefined && query.user_id !== own) throw ApiError.of('MISSING_ACCESS');
  const userId = own ?? query.user_id;
  const lower = query.after === undefined ? '' : snowflakeKey(query.after);
  const upper = query.before === undefined ? '\uffff' : snowflakeKey(query.before);
  if (lower >= upper) return [];
  const tx = await readMonetization(ctx);
  const now = ctx.clock.now();
  const index = indexFor(applicationId, userId, query.guild_id);
  const range = keyRange.bound(
    [...index.prefix, lower],
    [...index.prefix, upper],
    query.after !== undefined,
    query.before !== undefined,
  );
  const skuIds = query.sku_ids ? new Set(query.sku_ids) : null;
  const wanted = (e: EntitlementRecord) =>
    (query.guild_id === undefined || e.guild_id === query.guild_id) &&
    (skuIds === null || skuIds.has(e.sku_id)) &&
    !(query.exclude_ended && hasEnded(e, now)) &&
    !(query.exclude_deleted !== false && e.deleted);
  const found: EntitlementRecord[] = [];
  const direction = query.after !== undefined && query.before === undefined ? 'next' : 'prev';
  // Iteration stops as soon as `limit` matched: filters never make it read the whole range.
  for await (const { value } of tx.store('entitlements').index(index.name).iterate(range, direction)) {
    if (found.length >= query.limit) break;
    if (wanted(value)) found.push(value);
  }
  return found.map(serializeEntitlement);
}

/** The entitlement as `principal` may see it: its application's, and a user's own (others are unknown). */
async function visibleEntitlement(
  tx: MonetizationTx,
  principal: Principal,
  applicationId: string,
  entitlementId: string,
) {
  requireOwnApplication(principal, applicationId);
  const own = ownUser(principal);
  const entitlement = await findEntitlement(tx, applicationId, entitlementId);
  if (own !== null && entitlement.user_id !== own) throw ApiError.of('UNKNOWN_ENTITLEMENT');
  return entitlement;
}

/** `GET /applications/{id}/entitlements/{entitlement.id}`. */
export async function getEntitlement(
  ctx: PlatformContext,
  principal: Principal,
  applicationId: string,
  entitlementId: string,
) {
  const tx = await readMonetization(ctx);
  return serializeEntitlement(await visibleEntitlement(tx, principal, applicationId, entitlementId));
}

/**
 * `POST .../entitlements/{id}/consume`: marks a consumable's entitlement consumed (the owner
 * may then buy it again). Only consumable SKUs (400 40018). No event: ENTITLEMENT_UPDATE is only
 * for a subscription entitlement that ends. Consuming again changes nothing.
 */
export async function consumeEntitlement(
  ctx: PlatformContext,
  principal: Principal,
  applicationId: string,
  entitlementId: string,
): Promise<void> {
  await writeMonetization(ctx, async (tx) => {
    const entitlement = await visibleEntitlement(tx, principal, applicationId, entitlementId);
    if (entitlement.deleted) throw ApiError.of('UNKNOWN_ENTITLEMENT');
    const sku = await tx.store('skus').get(entitlement.sku_id);
    if (sku?.type !== SKU_TYPE.CONSUMABLE) throw ApiError.of('ONLY_CONSUMABLE_SKUS');
    if (!entitlement.consumed) await tx.store('entitlements').put({ ...entitlement, consumed: true });
  });
}

/**
 * `POST /applications/{id}/entitlements`: a test entitlement (type TEST_MODE_PURCHASE) to a
 * SKU for a guild (`owner_type` 1) or a user (2), valid in perpetuity; emits ENTITLEMENT_CREATE.
 * An owner who already has access to the SKU is 400 40074.
 */
export async function createTestEntitlement(
  ctx: PlatformContext,
  principal: BotPrincipal,
  applicationId: string,
  input: TestEntitlementInput,
): Promise<EntitlementRecord> {
  requireOwnApplication(principal, applicationId);
  return writeMonetization(
    ctx,
    async (tx, emit, now) => {
      const application = await loadApplication(tx, applicationId);
      const sku = await findSku(tx, applicationId, input.sku_id);
      if (sku.type === SKU_TYPE.SUBSCRIPTION_GROUP) throw ApiError.of('INVALID_SKU');
      const forGuild = input.owner_type === 1;
      if (forGuild && !(await tx.store('guilds').get(input.owner_id))) throw ApiError.of('UNKNOWN_GUILD');
      if (!forGuild && !(await tx.store('users').get(input.owner_id))) throw ApiError.of('UNKNOWN_USER');
      const owner = forGuild
        ? { user_id: null, guild_id: input.owner_id }
        : { user_id: input.owner_id, guild_id: null };
      await refuseOwned(tx, sku, owner, now);
      return grantEntitlement(
        tx,
        emit,
        application,
        ctx.ids.next(),
        {
          ...owner,
          sku_id: sku.id,
          type: ENTITLEMENT_TYPES.TEST_MODE_PURCHASE,
          test: true,
          starts_at: null,
          ends_at: null,
          subscription_id: null,
        },
        now,
      );
    },
    ['users', 'guilds'],
  );
}

/**
 * `DELETE /applications/{id}/entitlements/{id}`: deletes a test entitlement (ENTITLEMENT_DELETE);
 * any other is 400 40019, a deleted one unknown.
 */
export async function deleteTestEntitlement(
  ctx: PlatformContext,
  principal: BotPrincipal,
  applicationId: string,
  entitlementId: string,
): Promise<void> {
  requireOwnApplication(principal, applicationId);
  await writeMonetization(ctx, async (tx, emit) => {
    const entitlement = await findEntitlement(tx, applicationId, entitlementId);
    if (entitlement.deleted) throw ApiError.of('UNKNOWN_ENTITLEMENT');
    if (!entitlement.test) throw ApiError.of('ONLY_TEST_ENTITLEMENTS');
    await deleteEntitlementRecord(tx, emit, await loadApplication(tx, applicationId), entitlement);
  });
}

/**
 * Sandbox: the platform refunds a one-time purchase: the entitlement is deleted,
 * ENTITLEMENT_DELETE. A subscription's entitlement goes with its subscription instead.
 */
export async function refundEntitlement(ctx: PlatformContext, entitlementId: string): Promise<void> {
  await writeMonetization(ctx, async (tx, emit) => {
    const entitlement = await tx.store('entitlements').get(entitlementId);
    if (!entitlement || entitlement.deleted) throw ApiError.of('UNKNOWN_ENTITLEMENT');
    if (entitlement.subscription_id !== null) {
      throw ApiError.invalidForm({
        entitlement_id:
          'A subscription entitlement is refunded with its subscription: DELETE /sandbox/subscriptions/{id}.',
      });
    }
    await deleteEntitlementRecord(tx, emit, await loadApplication(tx, entitlement.application_id), entitlement);
  });
}

/**
 * GET_ENTITLEMENTS_EMBEDDED: what the token's user holds of the token's application now (not
 * deleted, not ended), oldest first.
 */
export async function clientEntitlements(ctx: PlatformContext, principal: BearerPrincipal) {
  const tx = await readMonetization(ctx);
  const now = ctx.clock.now();
  const range = keyRange.bound(
    [principal.application.id, principal.user.id, ''],
    [principal.application.id, principal.user.id, '\uffff'],
  );
  const held = await tx.store('entitlements').index('by_user').getAll(range);
  return held.filter((e) => !e.deleted && !hasEnded(e, now)).map(serializeEntitlement);
}
