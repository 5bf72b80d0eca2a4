/**
 * Sandbox monetization (the developer portal and a payment provider's test mode and test
 * clock, CONTRACT §3 style): `POST /sandbox/applications/{id}/skus` creates a SKU;
 * `POST /sandbox/purchases` completes a purchase; `/sandbox/subscriptions/{id}` shows a
 * subscription and drives its lifecycle (cancel, resume, expire, migrate, change renewal SKUs,
 * delete); `POST /sandbox/subscriptions/advance` settles the periods the platform clock passed;
 * `DELETE /sandbox/entitlements/{id}` refunds a one-time purchase.
 */
import { Hono } from 'hono';
import { refundEntitlement } from '../../src/platform/monetization/entitlements';
import { purchaseSku } from '../../src/platform/monetization/purchases';
import {
  serializeEntitlement,
  serializeSandboxSubscription,
  serializeSku,
  type SkuRecord,
} from '../../src/store/records/monetization';
import { findSubscription } from '../../src/platform/monetization/store';
import {
  CreateSkuSchema,
  MonetizationPathSchema,
  PurchaseSchema,
  RenewalSkusSchema,
} from '../../src/platform/monetization/schemas';
import { createSku } from '../../src/platform/monetization/skus';
import {
  cancelSubscription,
  changeRenewalSkus,
  deleteSubscription,
  expireSubscription,
  migrateSubscription,
  resumeSubscription,
} from '../../src/platform/monetization/subscriptions-lifecycle';
import { readMonetization, settleSubscriptions } from '../../src/platform/monetization/subscriptions-renewal';
import { noContent, readJson, validate, type AppContext, type AppEnv } from '../http';

const pathIds = (c: AppContext) => validate(MonetizationPathSchema, c.req.param());

/** A SKU as the sandbox answers it: the public object and its price. */
const sandboxSku = (sku: SkuRecord) => ({ ...serializeSku(sku), price: sku.price });

/** The sandbox monetization routes, mounted at `/sandbox`. */
export function sandboxMonetizationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/applications/:application_id/skus', async (c) => {
    const { application_id } = pathIds(c);
    const { sku, group } = await createSku(c.get('ctx'), application_id!, await readJson(c, CreateSkuSchema));
    return c.json({ sku: sandboxSku(sku), group: group && sandboxSku(group) }, 201);
  });

  r.post('/purchases', async (c) => {
    const { entitlement, subscription } = await purchaseSku(c.get('ctx'), await readJson(c, PurchaseSchema));
    return c.json(
      {
        entitlement: serializeEntitlement(entitlement),
        subscription: subscription && serializeSandboxSubscription(subscription),
      },
      201,
    );
  });

  // Before `/subscriptions/:subscription_id/...`: `advance` is not an id.
  r.post('/subscriptions/advance', async (c) => c.json(await settleSubscriptions(c.get('ctx'))));

  r.get('/subscriptions/:subscription_id', async (c) => {
    const { subscription_id } = pathIds(c);
    const tx = await readMonetization(c.get('ctx'));
    return c.json({ subscription: serializeSandboxSubscription(await findSubscription(tx, subscription_id!)) });
  });

  r.patch('/subscriptions/:subscription_id', async (c) => {
    const { subscription_id } = pathIds(c);
    const body = await readJson(c, RenewalSkusSchema);
    return c.json({
      subscription: serializeSandboxSubscription(
        await changeRenewalSkus(c.get('ctx'), subscription_id!, body.renewal_sku_ids),
      ),
    });
  });

  const steps = {
    cancel: cancelSubscription,
    resume: resumeSubscription,
    expire: expireSubscription,
    migrate: migrateSubscription,
  };
  for (const [name, step] of Object.entries(steps)) {
    r.post(`/subscriptions/:subscription_id/${name}`, async (c) => {
      const { subscription_id } = pathIds(c);
      return c.json({ subscription: serializeSandboxSubscription(await step(c.get('ctx'), subscription_id!)) });
    });
  }

  r.delete('/subscriptions/:subscription_id', async (c) => {
    const { subscription_id } = pathIds(c);
    await deleteSubscription(c.get('ctx'), subscription_id!);
    return noContent();
  });

  r.delete('/entitlements/:entitlement_id', async (c) => {
    const { entitlement_id } = pathIds(c);
    await refundEntitlement(c.get('ctx'), entitlement_id!);
    return noContent();
  });

  return r;
}
