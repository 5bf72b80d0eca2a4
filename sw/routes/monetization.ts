/**
 * The monetization API: `/applications/{id}/skus`, `/applications/{id}/entitlements...`
 * (list, get, consume, test entitlements), `/skus/{id}/subscriptions...`, and the platform
 * client's view for the embedded-app RPC under `/rpc` (GET_SKUS_EMBEDDED,
 * GET_ENTITLEMENTS_EMBEDDED, START_PURCHASE). Validate, check the kind of caller, call the
 * domain, answer.
 */
import { Hono } from 'hono';
import {
  clientEntitlements,
  consumeEntitlement,
  createTestEntitlement,
  deleteTestEntitlement,
  getEntitlement,
  listEntitlements,
} from '../../src/platform/monetization/entitlements';
import { purchaseFromClient } from '../../src/platform/monetization/purchases';
import { serializeEntitlement, serializeTestEntitlement } from '../../src/store/records/monetization';
import {
  ClientPurchaseSchema,
  EntitlementsQuerySchema,
  MonetizationPathSchema,
  SubscriptionsQuerySchema,
  TestEntitlementSchema,
} from '../../src/platform/monetization/schemas';
import { clientSkus, listSkus } from '../../src/platform/monetization/skus';
import { getSkuSubscription, listSkuSubscriptions } from '../../src/platform/monetization/subscriptions';
import { bearerOf, botOf, noContent, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';

/** The validated ids of the request path (a bad id is 400 50035). */
const pathIds = (c: AppContext) => validate(MonetizationPathSchema, c.req.param());

/** `/applications/{application.id}/skus` and `/entitlements`, mounted at `/applications`. */
export function applicationMonetizationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/:application_id/skus', async (c) => {
    const { application_id } = pathIds(c);
    return c.json(await listSkus(c.get('ctx'), c.get('principal'), application_id!));
  });

  r.get('/:application_id/entitlements', async (c) => {
    const { application_id } = pathIds(c);
    const query = readQuery(c, EntitlementsQuerySchema);
    return c.json(await listEntitlements(c.get('ctx'), c.get('principal'), application_id!, query));
  });

  r.post('/:application_id/entitlements', async (c) => {
    const principal = botOf(c);
    const { application_id } = pathIds(c);
    const body = await readJson(c, TestEntitlementSchema);
    return c.json(
      serializeTestEntitlement(await createTestEntitlement(c.get('ctx'), principal, application_id!, body)),
    );
  });

  r.get('/:application_id/entitlements/:entitlement_id', async (c) => {
    const { application_id, entitlement_id } = pathIds(c);
    return c.json(await getEntitlement(c.get('ctx'), c.get('principal'), application_id!, entitlement_id!));
  });

  r.delete('/:application_id/entitlements/:entitlement_id', async (c) => {
    const principal = botOf(c);
    const { application_id, entitlement_id } = pathIds(c);
    await deleteTestEntitlement(c.get('ctx'), principal, application_id!, entitlement_id!);
    return noContent();
  });

  r.post('/:application_id/entitlements/:entitlement_id/consume', async (c) => {
    const { application_id, entitlement_id } = pathIds(c);
    await consumeEntitlement(c.get('ctx'), c.get('principal'), application_id!, entitlement_id!);
    return noContent();
  });

  return r;
}

/** `/skus/{sku.id}/subscriptions...`, mounted at `/skus`. */
export function skuSubscriptionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/:sku_id/subscriptions', async (c) => {
    const { sku_id } = pathIds(c);
    const query = readQuery(c, SubscriptionsQuerySchema);
    return c.json(await listSkuSubscriptions(c.get('ctx'), c.get('principal'), sku_id!, query));
  });

  r.get('/:sku_id/subscriptions/:subscription_id', async (c) => {
    const { sku_id, subscription_id } = pathIds(c);
    return c.json(await getSkuSubscription(c.get('ctx'), c.get('principal'), sku_id!, subscription_id!));
  });

  return r;
}

/**
 * The platform client's monetization for an activity's token, mounted at `/rpc` (not part of
 * the public API): the SKUs it sells, what the user holds, and a purchase (whose
 * ENTITLEMENT_CREATE reaches the activity through the user's gateway session).
 */
export function rpcMonetizationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/skus', async (c) => {
    const principal = bearerOf(c);
    return c.json({ skus: await clientSkus(c.get('ctx'), principal) });
  });

  r.get('/entitlements', async (c) => {
    const principal = bearerOf(c);
    return c.json({ entitlements: await clientEntitlements(c.get('ctx'), principal) });
  });

  r.post('/purchases', async (c) => {
    const principal = bearerOf(c);
    const body = await readJson(c, ClientPurchaseSchema);
    const { entitlement } = await purchaseFromClient(c.get('ctx'), principal, body.sku_id, body.guild_id ?? null);
    return c.json({ entitlements: [serializeEntitlement(entitlement)] });
  });

  return r;
}
