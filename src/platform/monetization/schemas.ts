/**
 * The request shapes of the monetization API and its sandbox routes, as valibot schemas
 * (ARCHITECTURE rule 4). Query values arrive as strings; booleans in queries take the
 * platform's forms (`true`/`True`/`1`, `false`/`False`/`0`). Limits come from `limits.ts`.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { flagsInt, queryInt, snowflakeSchema } from '../core/schema-parts';
import {
  ENTITLEMENTS_LIST_DEFAULT,
  ENTITLEMENTS_LIST_MAX,
  SKU_NAME_MAX,
  SUBSCRIPTIONS_LIST_DEFAULT,
  SUBSCRIPTIONS_LIST_MAX,
} from '../core/limits';
import { SKU_FLAGS, SKU_TYPE } from '../../store/records/monetization';
import { isSnowflake } from '../core/snowflake';

const snowflake = snowflakeSchema;

const queryBoolean = v.pipe(
  v.string(),
  v.picklist(['true', 'True', '1', 'false', 'False', '0'], 'Value is not a boolean (true, false, 1 or 0).'),
  v.transform((s) => s === 'true' || s === 'True' || s === '1'),
);

const queryLimit = (max: number) => queryInt(1, max);

/** Path parameters of the monetization routes (each a snowflake when present). */
export const MonetizationPathSchema = v.object({
  application_id: v.optional(snowflake),
  entitlement_id: v.optional(snowflake),
  sku_id: v.optional(snowflake),
  subscription_id: v.optional(snowflake),
});

/** `GET /applications/{id}/entitlements` query: `sku_ids` is a comma-delimited set of snowflakes. */
export const EntitlementsQuerySchema = v.pipe(
  v.object({
    user_id: v.optional(snowflake),
    sku_ids: v.optional(
      v.pipe(
        v.string(),
        v.transform((s) => s.split(',').map((id) => id.trim())),
        v.check((ids) => ids.every((id) => isSnowflake(id)), 'Value is not a comma-delimited set of snowflakes.'),
      ),
    ),
    before: v.optional(snowflake),
    after: v.optional(snowflake),
    limit: v.optional(queryLimit(ENTITLEMENTS_LIST_MAX)),
    guild_id: v.optional(snowflake),
    exclude_ended: v.optional(queryBoolean),
    exclude_deleted: v.optional(queryBoolean),
  }),
  v.transform((q) => ({ ...q, limit: q.limit ?? ENTITLEMENTS_LIST_DEFAULT })),
);

/** A validated List Entitlements query. */
export type EntitlementsQuery = v.InferOutput<typeof EntitlementsQuerySchema>;

/** `GET /skus/{id}/subscriptions` query. */
export const SubscriptionsQuerySchema = v.pipe(
  v.object({
    user_id: v.optional(snowflake),
    before: v.optional(snowflake),
    after: v.optional(snowflake),
    limit: v.optional(queryLimit(SUBSCRIPTIONS_LIST_MAX)),
  }),
  v.transform((q) => ({ ...q, limit: q.limit ?? SUBSCRIPTIONS_LIST_DEFAULT })),
);

/** A validated List SKU Subscriptions query. */
export type SubscriptionsQuery = v.InferOutput<typeof SubscriptionsQuerySchema>;

/** Create Test Entitlement: `owner_type` 1 for a guild, 2 for a user. */
export const TestEntitlementSchema = jsonObject({
  sku_id: snowflake,
  owner_id: snowflake,
  owner_type: v.picklist([1, 2], 'Value must be one of (1, 2).'),
});

/** A validated test entitlement body. */
export type TestEntitlementInput = v.InferOutput<typeof TestEntitlementSchema>;

const KNOWN_SKU_FLAGS = Object.values(SKU_FLAGS).reduce((all, bit) => all | bit, 0);

/** Sandbox: `POST /sandbox/applications/{id}/skus`. A SUBSCRIPTION_GROUP is never created directly. */
export const CreateSkuSchema = jsonObject({
  name: v.pipe(
    v.string(),
    v.minLength(1, `Must be between 1 and ${SKU_NAME_MAX} in length.`),
    v.maxLength(SKU_NAME_MAX, `Must be between 1 and ${SKU_NAME_MAX} in length.`),
  ),
  type: v.picklist(
    [SKU_TYPE.DURABLE, SKU_TYPE.CONSUMABLE, SKU_TYPE.SUBSCRIPTION],
    'Value must be 2 (DURABLE), 3 (CONSUMABLE) or 5 (SUBSCRIPTION).',
  ),
  flags: v.optional(
    flagsInt(
      KNOWN_SKU_FLAGS,
      'Unknown SKU flag (AVAILABLE 1 << 2, GUILD_SUBSCRIPTION 1 << 7, USER_SUBSCRIPTION 1 << 8).',
    ),
  ),
  price: v.optional(
    v.nullable(
      jsonObject({
        amount: v.pipe(
          v.number('Value is not int.'),
          v.integer('Value is not int.'),
          v.minValue(0, 'int value should be greater than or equal to 0.'),
          v.maxValue(Number.MAX_SAFE_INTEGER),
        ),
        currency: v.pipe(v.string(), v.regex(/^[a-z]{3}$/, 'Must be an ISO 4217 currency code in lower case (usd).')),
      }),
    ),
  ),
});

/** Sandbox: `POST /sandbox/purchases`. */
export const PurchaseSchema = jsonObject({
  user_id: snowflake,
  sku_id: snowflake,
  guild_id: v.optional(v.nullable(snowflake)),
  legacy: v.optional(v.boolean()),
  country: v.optional(
    v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'Must be an ISO 3166-1 alpha-2 country code (US).'))),
  ),
});

/** Sandbox: `PATCH /sandbox/subscriptions/{id}` changes what it renews into. */
export const RenewalSkusSchema = jsonObject({
  renewal_sku_ids: v.pipe(
    v.array(snowflake),
    v.minLength(1, 'A subscription renews into at least one SKU: cancel it instead.'),
    v.check((ids) => new Set(ids).size === ids.length, 'SKUs must be unique.'),
  ),
});

/** The platform client's purchase (START_PURCHASE): the SKU, and the guild the activity runs in. */
export const ClientPurchaseSchema = jsonObject({
  sku_id: snowflake,
  guild_id: v.optional(v.nullable(snowflake)),
});
