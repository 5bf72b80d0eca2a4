// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PremiumButtonSchema, premiumButtonSkuProblem } from '../../../src/platform/monetization/premium-button';
import { skuSlug } from '../../../src/platform/monetization/skus';
import * as v from 'valibot';
import {
  createSku,
  expectError,
  expectInvalidField,
  monetizationCounts,
  monetizationWorld,
  purchase,
} from './monetization-fixtures';

describe('SKUs: sandbox creation and GET /applications/{id}/skus', () => {
  it('lists every SKU of the application in the public shape; a SUBSCRIPTION SKU comes with its system-generated SUBSCRIPTION_GROUP', async () => {
    const w = await monetizationWorld();
    const { sku, group } = await createSku(w.client, w.application.id, {
      name: 'Test Premium',
      type: 5,
      price: { amount: 499, currency: 'usd' },
    });
    expect(sku).toMatchObject({
      type: 5,
      flags: (1 << 2) | (1 << 8),
      slug: 'test-premium',
      price: { amount: 499, currency: 'usd' },
    });
    expect(group).toMatchObject({ type: 6, flags: sku.flags, name: 'Test Premium', price: null });
    const durable = (await createSku(w.client, w.application.id, { name: 'Soundtrack', type: 2 })).sku;
    const res = await w.client.get(`/api/v10/applications/${w.application.id}/skus`, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body.map((s: any) => [s.id, s.type])).toEqual([
      [group.id, 6],
      [sku.id, 5],
      [durable.id, 2],
    ]);
    expect(res.body[1]).toEqual({
      id: sku.id,
      type: 5,
      dependent_sku_id: null,
      application_id: w.application.id,
      manifest_labels: null,
      access_type: 1,
      name: 'Test Premium',
      features: [],
      release_date: null,
      premium: false,
      slug: 'test-premium',
      flags: 260,
      show_age_gate: false,
    });
    // A user's token of the application reads them too; another application's bot does not.
    expect((await w.client.get(`/api/v10/applications/${w.application.id}/skus`, w.aliceAuth)).body).toHaveLength(3);
    expectError(await w.client.get(`/api/v10/applications/${w.application.id}/skus`, w.otherBotAuth), 403, 20012);
    expectInvalidField(await w.client.get('/api/v10/applications/abc/skus', w.botAuth), 'application_id');
    expectError(await w.client.get(`/api/v10/applications/${w.application.id}/skus`), 401, 0);
  });

  it('flags: a subscription is for guilds or users (exactly one), a one-time SKU for neither; unknown bits refused; nothing stored', async () => {
    const w = await monetizationWorld();
    const before = await monetizationCounts(w.client);
    const post = (body: unknown) => w.client.post(`/sandbox/applications/${w.application.id}/skus`, body);
    expectInvalidField(await post({ name: 'Both', type: 5, flags: (1 << 7) | (1 << 8) }), 'flags');
    expectInvalidField(await post({ name: 'Neither', type: 5, flags: 1 << 2 }), 'flags');
    expectInvalidField(await post({ name: 'Item', type: 2, flags: 1 << 8 }), 'flags');
    expectInvalidField(await post({ name: 'Odd', type: 2, flags: 1 << 3 }), 'flags');
    expectInvalidField(await post({ name: 'Group', type: 6 }), 'type');
    expectInvalidField(await post({ name: '', type: 2 }), 'name');
    expectInvalidField(
      await post({ name: 'Priced', type: 2, price: { amount: 1.5, currency: 'usd' } }),
      'price.amount',
    );
    expectInvalidField(
      await post({ name: 'Priced', type: 2, price: { amount: 100, currency: 'USD' } }),
      'price.currency',
    );
    expectError(await w.client.post('/sandbox/applications/42/skus', { name: 'Lost', type: 2 }), 404, 10002);
    expect(await monetizationCounts(w.client)).toEqual(before);
  });

  it('slugs are the name in lower case with hyphens', () => {
    expect(skuSlug('Gold Pack (x10)')).toBe('gold-pack-x10');
    expect(skuSlug('  Épée  ')).toBe('epee');
  });
});

describe('premium button (spec: PREMIUM_REQUIRED (10) deprecated in favor of a premium button style carrying a sku_id)', () => {
  it('PremiumButtonSchema: type 2, style 6 and a sku_id; custom_id, label, emoji and url are refused by name', () => {
    expect(v.safeParse(PremiumButtonSchema, { type: 2, style: 6, sku_id: '123' }).success).toBe(true);
    expect(v.safeParse(PremiumButtonSchema, { type: 2, style: 6, sku_id: '123', disabled: true }).success).toBe(true);
    expect(v.safeParse(PremiumButtonSchema, { type: 2, style: 1, sku_id: '123' }).success).toBe(false);
    expect(v.safeParse(PremiumButtonSchema, { type: 2, style: 6 }).success).toBe(false);
    for (const key of ['custom_id', 'label', 'emoji', 'url']) {
      const result = v.safeParse(PremiumButtonSchema, { type: 2, style: 6, sku_id: '123', [key]: 'x' });
      expect(result.success).toBe(false);
      expect(v.getDotPath(result.issues![0])).toBe(key);
    }
  });

  it("premiumButtonSkuProblem: an available SKU of the application is fine; unknown, another app's, a group or unavailable is not", async () => {
    const w = await monetizationWorld();
    const { sku, group } = await createSku(w.client, w.application.id, { name: 'Premium', type: 5 });
    const hidden = (await createSku(w.client, w.application.id, { name: 'Hidden', type: 2, flags: 0 })).sku;
    const ctx = w.client.app.ctx;
    expect(await premiumButtonSkuProblem(ctx, w.application.id, sku.id)).toBeNull();
    for (const id of [group.id, hidden.id, '42'])
      expect(await premiumButtonSkuProblem(ctx, w.application.id, id)).toEqual(expect.any(String));
    expect(await premiumButtonSkuProblem(ctx, w.otherApplication.id, sku.id)).toEqual(expect.any(String));
  });
});

describe('GET /skus/{sku.id}/subscriptions', () => {
  it("the bot names the user (user_id required); newest first, before/after/limit; a user's token lists its own", async () => {
    const w = await monetizationWorld();
    const { sku } = await createSku(w.client, w.application.id, { name: 'Premium', type: 5 });
    const first = (await purchase(w.client, { user_id: w.alice.id, sku_id: sku.id })).subscription;
    await w.client.post(`/sandbox/subscriptions/${first.id}/expire`);
    const second = (await purchase(w.client, { user_id: w.alice.id, sku_id: sku.id })).subscription;
    await purchase(w.client, { user_id: w.bob.id, sku_id: sku.id });
    const url = `/api/v10/skus/${sku.id}/subscriptions`;
    expectInvalidField(await w.client.get(url, w.botAuth), 'user_id');
    expect(
      (await w.client.get(`${url}?user_id=${w.alice.id}`, w.botAuth)).body.map((s: any) => [s.id, s.status]),
    ).toEqual([
      [second.id, 0],
      [first.id, 1],
    ]);
    expect((await w.client.get(`${url}?user_id=${w.alice.id}&limit=1`, w.botAuth)).body.map((s: any) => s.id)).toEqual([
      second.id,
    ]);
    expect(
      (await w.client.get(`${url}?user_id=${w.alice.id}&after=${first.id}`, w.botAuth)).body.map((s: any) => s.id),
    ).toEqual([second.id]);
    expect(
      (await w.client.get(`${url}?user_id=${w.alice.id}&before=${second.id}`, w.botAuth)).body.map((s: any) => s.id),
    ).toEqual([first.id]);
    expect((await w.client.get(url, w.aliceAuth)).body.map((s: any) => s.id)).toEqual([second.id, first.id]);
    expectError(await w.client.get(`${url}?user_id=${w.bob.id}`, w.aliceAuth), 403, 50001);
    expectError(await w.client.get(`${url}/${second.id}`, w.bobAuth), 404, 0);
    expectError(await w.client.get(`${url}?user_id=${w.alice.id}`, w.otherBotAuth), 404, 10027);
    expectInvalidField(await w.client.get(`${url}?user_id=${w.alice.id}&limit=101`, w.botAuth), 'limit');
  });
});
