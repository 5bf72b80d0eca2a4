// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { addMonths } from '../../../src/platform/monetization/store';
import {
  T0,
  catalog,
  createSku,
  expectError,
  expectInvalidField,
  loggedEvents,
  monetizationCounts,
  monetizationWorld,
  purchase,
  setClock,
} from './monetization-fixtures';

const DAY = 24 * 3_600_000;

/** A world with a user subscription SKU alice subscribed to at T0. */
async function subscribed(options: { legacy?: boolean } = {}) {
  const w = await monetizationWorld();
  const skus = await catalog(w.client, w.application.id);
  const bought = await purchase(w.client, {
    user_id: w.alice.id,
    sku_id: skus.premium.id,
    ...(options.legacy ? { legacy: true } : {}),
  });
  return { ...w, ...skus, ...bought };
}

const subscriptionUrl = (skuId: string, id: string) => `/api/v10/skus/${skuId}/subscriptions/${id}`;
const entitlementUrl = (appId: string, id: string) => `/api/v10/applications/${appId}/entitlements/${id}`;

describe('subscription purchases (spec: Entitlement type and ends_at)', () => {
  it('a subscription entitlement has type PURCHASE (1), not the former APPLICATION_SUBSCRIPTION (8)', async () => {
    const w = await subscribed();
    expect(w.entitlement.type).toBe(1);
    expect(w.entitlement.subscription_id).toBe(w.subscription.id);
    const listed = (
      await w.client.get(`/api/v10/applications/${w.application.id}/entitlements?user_id=${w.alice.id}`, w.botAuth)
    ).body;
    expect(listed.map((e: any) => e.type)).toEqual([1]);
  });

  it('ends_at is null while the subscription is ongoing (indefinite), also after renewals', async () => {
    const w = await subscribed();
    expect(w.entitlement).toMatchObject({
      starts_at: new Date(T0).toISOString(),
      ends_at: null,
      deleted: false,
      consumed: false,
    });
    await setClock(w.client, addMonths(T0, 3) + DAY);
    const read = (await w.client.get(entitlementUrl(w.application.id, w.entitlement.id), w.botAuth)).body;
    expect(read.ends_at).toBeNull();
  });

  it('SUBSCRIPTION_CREATE then ENTITLEMENT_CREATE: status ACTIVE (0), one period of a month, renewal_sku_ids the SKU', async () => {
    const w = await subscribed();
    expect((await loggedEvents(w.client)).map((e) => e.type)).toEqual(['SUBSCRIPTION_CREATE', 'ENTITLEMENT_CREATE']);
    expect(w.subscription).toMatchObject({
      user_id: w.alice.id,
      sku_ids: [w.premium.id],
      entitlement_ids: [w.entitlement.id],
      renewal_sku_ids: [w.premium.id],
      status: 0,
      canceled_at: null,
      current_period_start: '2026-03-10T12:00:00.000Z',
      current_period_end: '2026-04-10T12:00:00.000Z',
    });
    const api = (await w.client.get(subscriptionUrl(w.premium.id, w.subscription.id), w.botAuth)).body;
    expect(Object.keys(api).sort()).toEqual([
      'canceled_at',
      'current_period_end',
      'current_period_start',
      'entitlement_ids',
      'id',
      'renewal_sku_ids',
      'sku_ids',
      'status',
      'user_id',
    ]);
  });

  it('periods are calendar months: Jan 31 + 1 month is the last day of February', () => {
    expect(new Date(addMonths(Date.parse('2026-01-31T10:00:00Z'), 1)).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(new Date(addMonths(Date.parse('2028-01-31T10:00:00Z'), 1)).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(new Date(addMonths(Date.parse('2026-12-15T00:00:00Z'), 1)).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it('a second subscription to the same SKU while one is ongoing is 400 40074, and stores nothing', async () => {
    const w = await subscribed();
    const before = await monetizationCounts(w.client);
    expectError(await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: w.premium.id }), 400, 40074);
    expect(await monetizationCounts(w.client)).toEqual(before);
  });
});

describe('cancel, renew, end (spec: Subscription entitlement states; statuses INACTIVE = 1, ENDING = 2)', () => {
  it('cancel: status ENDING (2) with canceled_at, SUBSCRIPTION_UPDATE, no entitlement event; access lasts until the period end', async () => {
    const w = await subscribed();
    await setClock(w.client, T0 + 5 * DAY);
    const res = await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({
      status: 2,
      canceled_at: new Date(T0 + 5 * DAY).toISOString(),
      renewal_sku_ids: null,
    });
    const events = await loggedEvents(w.client);
    expect(events.map((e) => e.type)).toEqual(['SUBSCRIPTION_CREATE', 'ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE']);
    expect(events[2].data).toMatchObject({ status: 2, canceled_at: new Date(T0 + 5 * DAY).toISOString() });
    await setClock(w.client, addMonths(T0, 1) - 1);
    expect((await w.client.get(entitlementUrl(w.application.id, w.entitlement.id), w.botAuth)).body.ends_at).toBeNull();
    expect((await w.client.get(subscriptionUrl(w.premium.id, w.subscription.id), w.botAuth)).body.status).toBe(2);
  });

  it('no event is emitted at renewal: two periods pass and the subscription and entitlement events stay as they were', async () => {
    const w = await subscribed();
    const before = await loggedEvents(w.client);
    await setClock(w.client, addMonths(T0, 2) + DAY);
    const read = (await w.client.get(subscriptionUrl(w.premium.id, w.subscription.id), w.botAuth)).body;
    expect(read).toMatchObject({
      status: 0,
      current_period_start: new Date(addMonths(T0, 2)).toISOString(),
      current_period_end: new Date(addMonths(T0, 3)).toISOString(),
    });
    expect(await loggedEvents(w.client)).toEqual(before);
    // The sandbox's advance settles the same way, and a third period passes just as quietly.
    await setClock(w.client, addMonths(T0, 3) + DAY);
    expect((await w.client.post('/sandbox/subscriptions/advance')).body).toEqual({
      renewed: [w.subscription.id],
      ended: [],
    });
    expect(await loggedEvents(w.client)).toEqual(before);
  });

  it('a canceled subscription ends at its period end: ENTITLEMENT_UPDATE exactly once with ends_at = the end, then SUBSCRIPTION_UPDATE status INACTIVE (1)', async () => {
    const w = await subscribed();
    await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/cancel`);
    const end = addMonths(T0, 1);
    await setClock(w.client, end + 7 * DAY);
    expect((await w.client.post('/sandbox/subscriptions/advance')).body).toEqual({
      renewed: [],
      ended: [w.subscription.id],
    });
    // Reads and later periods never end it again.
    await w.client.get(entitlementUrl(w.application.id, w.entitlement.id), w.botAuth);
    await setClock(w.client, addMonths(T0, 4));
    await w.client.post('/sandbox/subscriptions/advance');
    const updates = await loggedEvents(w.client, ['ENTITLEMENT_UPDATE']);
    expect(updates).toHaveLength(1);
    expect(updates[0].data).toMatchObject({ id: w.entitlement.id, ends_at: new Date(end).toISOString(), type: 1 });
    const last = (await loggedEvents(w.client)).at(-1)!;
    expect(last.type).toBe('SUBSCRIPTION_UPDATE');
    expect(last.data).toMatchObject({ status: 1, renewal_sku_ids: null });
    expect((await w.client.get(entitlementUrl(w.application.id, w.entitlement.id), w.botAuth)).body.ends_at).toBe(
      new Date(end).toISOString(),
    );
  });

  it('an expiring subscription ends now: ENTITLEMENT_UPDATE once with ends_at = now; an ended one cannot be canceled, resumed or expired again (400)', async () => {
    const w = await subscribed();
    const at = T0 + 12 * DAY;
    await setClock(w.client, at);
    const res = await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/expire`);
    expect(res.body.subscription.status).toBe(1);
    for (const step of ['expire', 'cancel', 'resume', 'migrate'])
      expectError(await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/${step}`), 400, 0);
    const updates = await loggedEvents(w.client, ['ENTITLEMENT_UPDATE']);
    expect(updates.map((e) => (e.data as any).ends_at)).toEqual([new Date(at).toISOString()]);
    const ended = await w.client.get(
      `/api/v10/applications/${w.application.id}/entitlements?exclude_ended=true`,
      w.botAuth,
    );
    expect(ended.body).toEqual([]);
    // Ended, the SKU may be bought again.
    await purchase(w.client, { user_id: w.alice.id, sku_id: w.premium.id });
  });

  it('resume before the period end: ACTIVE with canceled_at null (SUBSCRIPTION_UPDATE); it then renews quietly', async () => {
    const w = await subscribed();
    await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/cancel`);
    const res = await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/resume`);
    expect(res.body.subscription).toMatchObject({ status: 0, canceled_at: null, renewal_sku_ids: [w.premium.id] });
    await setClock(w.client, addMonths(T0, 1) + DAY);
    await w.client.post('/sandbox/subscriptions/advance');
    expect((await loggedEvents(w.client)).map((e) => e.type)).toEqual([
      'SUBSCRIPTION_CREATE',
      'ENTITLEMENT_CREATE',
      'SUBSCRIPTION_UPDATE',
      'SUBSCRIPTION_UPDATE',
    ]);
  });
});

describe('renewal_sku_ids (spec: present in SUBSCRIPTION_UPDATE events and API responses)', () => {
  it('changing what it renews into: SUBSCRIPTION_UPDATE carries renewal_sku_ids, the API shows them; at renewal the entitlement moves to the new SKU', async () => {
    const w = await subscribed();
    const basic = (
      await createSku(w.client, w.application.id, { name: 'Basic', type: 5, price: { amount: 199, currency: 'usd' } })
    ).sku;
    const res = await w.client.patch(`/sandbox/subscriptions/${w.subscription.id}`, { renewal_sku_ids: [basic.id] });
    expect(res.status).toBe(200);
    const [update] = await loggedEvents(w.client, ['SUBSCRIPTION_UPDATE']);
    expect(update.data).toMatchObject({ sku_ids: [w.premium.id], renewal_sku_ids: [basic.id] });
    expect(
      (await w.client.get(subscriptionUrl(w.premium.id, w.subscription.id), w.botAuth)).body.renewal_sku_ids,
    ).toEqual([basic.id]);
    const listed = (await w.client.get(`/api/v10/skus/${w.premium.id}/subscriptions?user_id=${w.alice.id}`, w.botAuth))
      .body;
    expect(listed.map((s: any) => s.renewal_sku_ids)).toEqual([[basic.id]]);

    await setClock(w.client, addMonths(T0, 1) + DAY);
    await w.client.post('/sandbox/subscriptions/advance');
    const after = (await loggedEvents(w.client)).slice(3);
    expect(after.map((e) => e.type)).toEqual(['ENTITLEMENT_UPDATE', 'ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE']);
    expect(after[0].data).toMatchObject({ id: w.entitlement.id, ends_at: new Date(addMonths(T0, 1)).toISOString() });
    expect(after[1].data).toMatchObject({
      sku_id: basic.id,
      type: 1,
      ends_at: null,
      subscription_id: w.subscription.id,
    });
    expect(after[2].data).toMatchObject({
      sku_ids: [basic.id],
      renewal_sku_ids: [basic.id],
      entitlement_ids: [(after[1].data as any).id],
    });
    // Found under its new SKU; no more events at the next renewal.
    expect((await w.client.get(subscriptionUrl(basic.id, w.subscription.id), w.botAuth)).status).toBe(200);
    await setClock(w.client, addMonths(T0, 2) + DAY);
    await w.client.post('/sandbox/subscriptions/advance');
    expect(await loggedEvents(w.client)).toHaveLength(6);
  });

  it('renewal SKUs must be available subscription SKUs of the application and kind; unchanged SKUs emit nothing', async () => {
    const w = await subscribed();
    const guildSku = (
      await createSku(w.client, w.application.id, { name: 'Server', type: 5, flags: (1 << 2) | (1 << 7) })
    ).sku;
    const theirs = (await createSku(w.client, w.otherApplication.id, { name: 'Theirs', type: 5 })).sku;
    for (const id of [w.durable.id, guildSku.id, theirs.id, '123']) {
      expectInvalidField(
        await w.client.patch(`/sandbox/subscriptions/${w.subscription.id}`, { renewal_sku_ids: [id] }),
        'renewal_sku_ids.0',
      );
    }
    expectInvalidField(
      await w.client.patch(`/sandbox/subscriptions/${w.subscription.id}`, { renewal_sku_ids: [] }),
      'renewal_sku_ids',
    );
    await w.client.patch(`/sandbox/subscriptions/${w.subscription.id}`, { renewal_sku_ids: [w.premium.id] });
    expect(await loggedEvents(w.client, ['SUBSCRIPTION_UPDATE'])).toEqual([]);
  });
});

describe('migration of an ongoing subscription (spec: ENTITLEMENT_CREATE once, not a net new entitlement, ends_at null)', () => {
  it('a pre-migration entitlement (type 8, ends_at the period end) becomes PURCHASE with ends_at null; ENTITLEMENT_CREATE once, same id', async () => {
    const w = await subscribed({ legacy: true });
    expect(w.entitlement).toMatchObject({ type: 8, ends_at: new Date(addMonths(T0, 1)).toISOString() });
    // Before migrating, its ends_at follows each renewal, silently.
    await setClock(w.client, addMonths(T0, 1) + DAY);
    expect((await w.client.get(entitlementUrl(w.application.id, w.entitlement.id), w.botAuth)).body.ends_at).toBe(
      new Date(addMonths(T0, 2)).toISOString(),
    );
    const count = await w.client.app.ctx.db.count('entitlements');
    await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/migrate`);
    await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/migrate`);
    const creates = await loggedEvents(w.client, ['ENTITLEMENT_CREATE']);
    expect(creates).toHaveLength(2);
    expect(creates[1].data).toMatchObject({ id: w.entitlement.id, type: 1, ends_at: null });
    expect(creates[1].channels).toEqual(['gateway', 'webhook']);
    expect(await w.client.app.ctx.db.count('entitlements')).toBe(count);
    const read = (await w.client.get(entitlementUrl(w.application.id, w.entitlement.id), w.botAuth)).body;
    expect(read).toMatchObject({ type: 1, ends_at: null });
  });

  it('a subscription bought after the migration emits its migration ENTITLEMENT_CREATE once too, with ends_at null', async () => {
    const w = await subscribed();
    await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/migrate`);
    await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/migrate`);
    const creates = await loggedEvents(w.client, ['ENTITLEMENT_CREATE']);
    expect(creates.map((e) => [(e.data as any).id, (e.data as any).ends_at])).toEqual([
      [w.entitlement.id, null],
      [w.entitlement.id, null],
    ]);
  });

  it("only the sandbox's purchases of a subscription SKU may be legacy", async () => {
    const w = await monetizationWorld();
    const { durable } = await catalog(w.client, w.application.id);
    expectInvalidField(
      await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: durable.id, legacy: true }),
      'legacy',
    );
  });
});

describe('delete a subscription (refund): ENTITLEMENT_DELETE and SUBSCRIPTION_DELETE', () => {
  it('deletes its entitlements and itself; the API no longer finds it', async () => {
    const w = await subscribed();
    expect((await w.client.delete(`/sandbox/subscriptions/${w.subscription.id}`)).status).toBe(204);
    expect((await loggedEvents(w.client)).slice(2).map((e) => e.type)).toEqual([
      'ENTITLEMENT_DELETE',
      'SUBSCRIPTION_DELETE',
    ]);
    expectError(await w.client.get(subscriptionUrl(w.premium.id, w.subscription.id), w.botAuth), 404, 0);
    expect((await w.client.get(entitlementUrl(w.application.id, w.entitlement.id), w.botAuth)).body.deleted).toBe(true);
    expectError(await w.client.delete(`/sandbox/subscriptions/${w.subscription.id}`), 404, 0);
  });
});

describe('settling by the platform clock and failed requests', () => {
  it('a read settles what is due (the canceled subscription ends on a GET); a failed request undoes the settling it started', async () => {
    const w = await subscribed();
    await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/cancel`);
    await setClock(w.client, addMonths(T0, 1) + DAY);
    const before = await monetizationCounts(w.client);
    // By the clock it has ended, so the change is refused; the ending it settled is undone with it.
    expectError(await w.client.post(`/sandbox/subscriptions/${w.subscription.id}/resume`), 400, 0);
    expect(await monetizationCounts(w.client)).toEqual(before);
    expect((await w.client.app.ctx.db.get('subscriptions', w.subscription.id))!.status).toBe(2);
    const read = (await w.client.get(entitlementUrl(w.application.id, w.entitlement.id), w.botAuth)).body;
    expect(read.ends_at).toBe(new Date(addMonths(T0, 1)).toISOString());
    expect(await loggedEvents(w.client, ['ENTITLEMENT_UPDATE'])).toHaveLength(1);
  });

  it('POST /sandbox/reset empties the SKUs, entitlements and subscriptions', async () => {
    const w = await subscribed();
    expect((await w.client.post('/sandbox/reset')).status).toBe(204);
    expect(await monetizationCounts(w.client)).toEqual({ skus: 0, entitlements: 0, subscriptions: 0, events: 0 });
  });
});
