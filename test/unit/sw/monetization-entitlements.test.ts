// @vitest-environment node
import { describe, expect, it } from 'vitest';
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

const entitlementsUrl = (appId: string, query = '') => `/api/v10/applications/${appId}/entitlements${query}`;

describe('one-time purchases: durable and consumable SKUs', () => {
  it('a durable purchase is an entitlement of type PURCHASE with ends_at null, announced by ENTITLEMENT_CREATE; buying it again is 400 40074', async () => {
    const w = await monetizationWorld();
    const { durable } = await catalog(w.client, w.application.id);
    const { entitlement, subscription } = await purchase(w.client, { user_id: w.alice.id, sku_id: durable.id });
    expect(subscription).toBeNull();
    expect(entitlement).toEqual({
      id: expect.any(String),
      sku_id: durable.id,
      application_id: w.application.id,
      user_id: w.alice.id,
      promotion_id: null,
      type: 1,
      deleted: false,
      gift_code_flags: 0,
      consumed: false,
      starts_at: new Date(T0).toISOString(),
      ends_at: null,
    });
    const [created] = await loggedEvents(w.client);
    expect(created).toMatchObject({ type: 'ENTITLEMENT_CREATE', data: entitlement, channels: ['gateway', 'webhook'] });
    expect(created.audience).toEqual({ application_id: w.application.id, user_ids: [w.alice.id, w.bot.id] });
    const before = await monetizationCounts(w.client);
    expectError(await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: durable.id }), 400, 40074);
    expect(await monetizationCounts(w.client)).toEqual(before);
  });

  it('consume: a consumable becomes consumed (204) with no event (ENTITLEMENT_UPDATE is only for subscriptions that end); it may then be bought again', async () => {
    const w = await monetizationWorld();
    const { consumable, durable } = await catalog(w.client, w.application.id);
    const first = (await purchase(w.client, { user_id: w.alice.id, sku_id: consumable.id })).entitlement;
    expectError(await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: consumable.id }), 400, 40074);
    const consume = await w.client.post(
      `${entitlementsUrl(w.application.id)}/${first.id}/consume`,
      undefined,
      w.botAuth,
    );
    expect(consume.status).toBe(204);
    expect(
      (await w.client.post(`${entitlementsUrl(w.application.id)}/${first.id}/consume`, undefined, w.botAuth)).status,
    ).toBe(204);
    expect((await w.client.get(`${entitlementsUrl(w.application.id)}/${first.id}`, w.botAuth)).body.consumed).toBe(
      true,
    );
    expect((await loggedEvents(w.client)).map((e) => e.type)).toEqual(['ENTITLEMENT_CREATE']);
    await purchase(w.client, { user_id: w.alice.id, sku_id: consumable.id });
    const owned = (await purchase(w.client, { user_id: w.alice.id, sku_id: durable.id })).entitlement;
    expectError(
      await w.client.post(`${entitlementsUrl(w.application.id)}/${owned.id}/consume`, undefined, w.botAuth),
      400,
      40018,
    );
  });

  it('a SKU that is not available, a SUBSCRIPTION_GROUP, an unknown SKU or user, a bot buyer: refused, nothing stored', async () => {
    const w = await monetizationWorld();
    const hidden = (await createSku(w.client, w.application.id, { name: 'Hidden', type: 2, flags: 0 })).sku;
    const { group } = await createSku(w.client, w.application.id, { name: 'Premium', type: 5 });
    const shirt = (await createSku(w.client, w.application.id, { name: 'Shirt', type: 2 })).sku;
    const before = await monetizationCounts(w.client);
    expectError(await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: hidden.id }), 400, 50057);
    expectError(await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: group.id }), 400, 50057);
    expectError(await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: '42' }), 404, 10027);
    expectInvalidField(await w.client.post('/sandbox/purchases', { user_id: '42', sku_id: hidden.id }), 'user_id');
    expectInvalidField(await w.client.post('/sandbox/purchases', { user_id: w.bot.id, sku_id: hidden.id }), 'user_id');
    expectInvalidField(
      await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: shirt.id, guild_id: '1' }),
      'guild_id',
    );
    expect(await monetizationCounts(w.client)).toEqual(before);
  });

  it('a guild subscription is bought for a guild the buyer is in: guild_id required, the guild gets the entitlement', async () => {
    const w = await monetizationWorld();
    const server = (
      await createSku(w.client, w.application.id, { name: 'Server', type: 5, flags: (1 << 2) | (1 << 7) })
    ).sku;
    const guild = (await w.client.post('/sandbox/guilds', { name: 'Guild', owner_id: w.alice.id })).body.guild;
    expectInvalidField(
      await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: server.id }),
      'guild_id',
    );
    expectError(
      await w.client.post('/sandbox/purchases', { user_id: w.bob.id, sku_id: server.id, guild_id: guild.id }),
      403,
      50001,
    );
    expectError(
      await w.client.post('/sandbox/purchases', { user_id: w.alice.id, sku_id: server.id, guild_id: '42' }),
      404,
      10004,
    );
    const { entitlement } = await purchase(w.client, { user_id: w.alice.id, sku_id: server.id, guild_id: guild.id });
    expect(entitlement).toMatchObject({ user_id: w.alice.id, guild_id: guild.id, type: 1, ends_at: null });
    await w.client.put(`/sandbox/guilds/${guild.id}/members/${w.bob.id}`, {});
    expectError(
      await w.client.post('/sandbox/purchases', { user_id: w.bob.id, sku_id: server.id, guild_id: guild.id }),
      400,
      40074,
    );
    expect(
      (await w.client.get(entitlementsUrl(w.application.id, `?guild_id=${guild.id}`), w.botAuth)).body.map(
        (e: any) => e.id,
      ),
    ).toEqual([entitlement.id]);
  });
});

describe('GET /applications/{id}/entitlements: filters and pages', () => {
  async function history() {
    const w = await monetizationWorld();
    const skus = await catalog(w.client, w.application.id);
    const a1 = (await purchase(w.client, { user_id: w.alice.id, sku_id: skus.durable.id })).entitlement;
    const b1 = (await purchase(w.client, { user_id: w.bob.id, sku_id: skus.consumable.id })).entitlement;
    const a2 = (await purchase(w.client, { user_id: w.alice.id, sku_id: skus.premium.id })).entitlement;
    const b2 = (await purchase(w.client, { user_id: w.bob.id, sku_id: skus.durable.id })).entitlement;
    return { ...w, ...skus, a1, b1, a2, b2 };
  }
  const ids = (res: { body: any[] }) => res.body.map((e) => e.id);

  it('newest first; user_id, sku_ids (comma-delimited), before, after (oldest first from there) and limit', async () => {
    const w = await history();
    const get = (q: string) => w.client.get(entitlementsUrl(w.application.id, q), w.botAuth);
    expect(ids(await get(''))).toEqual([w.b2.id, w.a2.id, w.b1.id, w.a1.id]);
    expect(ids(await get(`?user_id=${w.alice.id}`))).toEqual([w.a2.id, w.a1.id]);
    expect(ids(await get(`?sku_ids=${w.durable.id},${w.consumable.id}`))).toEqual([w.b2.id, w.b1.id, w.a1.id]);
    expect(ids(await get(`?before=${w.a2.id}`))).toEqual([w.b1.id, w.a1.id]);
    expect(ids(await get(`?after=${w.a1.id}&limit=2`))).toEqual([w.b1.id, w.a2.id]);
    expect(ids(await get(`?after=${w.a1.id}&before=${w.b2.id}`))).toEqual([w.a2.id, w.b1.id]);
    expect(ids(await get(`?limit=1&user_id=${w.bob.id}&sku_ids=${w.durable.id}`))).toEqual([w.b2.id]);
    expect(ids(await get(`?after=${w.b2.id}&before=${w.a1.id}`))).toEqual([]);
  });

  it('deleted ones are left out unless exclude_deleted=false; ended ones are in unless exclude_ended=true', async () => {
    const w = await history();
    const get = (q: string) => w.client.get(entitlementsUrl(w.application.id, q), w.botAuth);
    expect((await w.client.delete(`/sandbox/entitlements/${w.a1.id}`)).status).toBe(204);
    expect(ids(await get(`?user_id=${w.alice.id}`))).toEqual([w.a2.id]);
    expect(ids(await get(`?user_id=${w.alice.id}&exclude_deleted=false`))).toEqual([w.a2.id, w.a1.id]);
    await w.client.post(
      `/sandbox/subscriptions/${(await w.client.app.ctx.db.get('entitlements', w.a2.id))!.subscription_id}/expire`,
    );
    expect(ids(await get(`?user_id=${w.alice.id}&exclude_ended=true&exclude_deleted=False`))).toEqual([w.a1.id]);
    expect(ids(await get(`?user_id=${w.alice.id}&exclude_ended=1`))).toEqual([]);
    expect(ids(await get(`?user_id=${w.alice.id}&exclude_ended=0`))).toEqual([w.a2.id]);
  });

  it('bad query values are 400 50035 naming them: limit 0 and 101, a non-snowflake, a non-boolean', async () => {
    const w = await history();
    const get = (q: string) => w.client.get(entitlementsUrl(w.application.id, q), w.botAuth);
    expectInvalidField(await get('?limit=0'), 'limit');
    expectInvalidField(await get('?limit=101'), 'limit');
    expect(ids(await get('?limit=100'))).toHaveLength(4);
    expectInvalidField(await get('?user_id=alice'), 'user_id');
    expectInvalidField(await get('?sku_ids=1,x'), 'sku_ids');
    expectInvalidField(await get('?exclude_ended=yes'), 'exclude_ended');
  });

  it("another application's bot is 403 20012; a user's token sees its own with applications.entitlements, and nothing without", async () => {
    const w = await history();
    expectError(await w.client.get(entitlementsUrl(w.application.id), w.otherBotAuth), 403, 20012);
    expectError(await w.client.get(`${entitlementsUrl(w.application.id)}/${w.a1.id}`, w.otherBotAuth), 403, 20012);
    expect(ids(await w.client.get(entitlementsUrl(w.application.id), w.aliceAuth))).toEqual([w.a2.id, w.a1.id]);
    expectError(await w.client.get(entitlementsUrl(w.application.id, `?user_id=${w.bob.id}`), w.aliceAuth), 403, 50001);
    expectError(await w.client.get(`${entitlementsUrl(w.application.id)}/${w.b1.id}`, w.aliceAuth), 404, 10029);
    expectError(
      await w.client.post(`${entitlementsUrl(w.application.id)}/${w.b1.id}/consume`, undefined, w.aliceAuth),
      404,
      10029,
    );
    expect(
      (await w.client.post(`${entitlementsUrl(w.application.id)}/${w.b1.id}/consume`, undefined, w.bobAuth)).status,
    ).toBe(204);
    const narrow = (
      await w.client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.alice.id,
        scopes: 'identify',
      })
    ).body;
    expectError(await w.client.get(entitlementsUrl(w.application.id), `Bearer ${narrow.access_token}`), 403, 50001);
    expectError(await w.client.get(`${entitlementsUrl(w.application.id)}/1234`, w.botAuth), 404, 10029);
  });
});

describe('test entitlements (POST and DELETE /applications/{id}/entitlements)', () => {
  it('creates a TEST_MODE_PURCHASE (4) entitlement for a user, answered partial (no subscription_id, starts_at, ends_at); ENTITLEMENT_CREATE', async () => {
    const w = await monetizationWorld();
    const { premium } = await catalog(w.client, w.application.id);
    const res = await w.client.post(
      entitlementsUrl(w.application.id),
      { sku_id: premium.id, owner_id: w.alice.id, owner_type: 2 },
      w.botAuth,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      sku_id: premium.id,
      application_id: w.application.id,
      user_id: w.alice.id,
      promotion_id: null,
      type: 4,
      deleted: false,
      gift_code_flags: 0,
      consumed: false,
    });
    expect((await loggedEvents(w.client)).map((e) => e.type)).toEqual(['ENTITLEMENT_CREATE']);
    expectError(
      await w.client.post(
        entitlementsUrl(w.application.id),
        { sku_id: premium.id, owner_id: w.alice.id, owner_type: 2 },
        w.botAuth,
      ),
      400,
      40074,
    );
    const listed = (await w.client.get(entitlementsUrl(w.application.id), w.botAuth)).body;
    expect(listed[0]).toMatchObject({ id: res.body.id, starts_at: null, ends_at: null });
  });

  it('a guild test entitlement has a guild_id and no user_id', async () => {
    const w = await monetizationWorld();
    const { premium } = await catalog(w.client, w.application.id);
    const guild = (await w.client.post('/sandbox/guilds', { name: 'Guild', owner_id: w.alice.id })).body.guild;
    const res = await w.client.post(
      entitlementsUrl(w.application.id),
      { sku_id: premium.id, owner_id: guild.id, owner_type: 1 },
      w.botAuth,
    );
    expect(res.body.guild_id).toBe(guild.id);
    expect(res.body).not.toHaveProperty('user_id');
    const [event] = await loggedEvents(w.client);
    expect(event.audience).toEqual({ application_id: w.application.id, user_ids: [w.bot.id] });
  });

  it('delete: a test entitlement is deleted with ENTITLEMENT_DELETE (204); a purchase is 400 40019; unknown owners and SKUs refused', async () => {
    const w = await monetizationWorld();
    const { premium, durable } = await catalog(w.client, w.application.id);
    const test = (
      await w.client.post(
        entitlementsUrl(w.application.id),
        { sku_id: premium.id, owner_id: w.alice.id, owner_type: 2 },
        w.botAuth,
      )
    ).body;
    expect((await w.client.delete(`${entitlementsUrl(w.application.id)}/${test.id}`, w.botAuth)).status).toBe(204);
    expectError(await w.client.delete(`${entitlementsUrl(w.application.id)}/${test.id}`, w.botAuth), 404, 10029);
    const events = await loggedEvents(w.client);
    expect(events.map((e) => e.type)).toEqual(['ENTITLEMENT_CREATE', 'ENTITLEMENT_DELETE']);
    expect(events[1].data).toMatchObject({ id: test.id, deleted: true });
    expect(events[1].channels).toEqual(['gateway']);
    const bought = (await purchase(w.client, { user_id: w.alice.id, sku_id: durable.id })).entitlement;
    expectError(await w.client.delete(`${entitlementsUrl(w.application.id)}/${bought.id}`, w.botAuth), 400, 40019);
    expectError(
      await w.client.post(
        entitlementsUrl(w.application.id),
        { sku_id: premium.id, owner_id: '42', owner_type: 2 },
        w.botAuth,
      ),
      404,
      10013,
    );
    expectError(
      await w.client.post(
        entitlementsUrl(w.application.id),
        { sku_id: premium.id, owner_id: '42', owner_type: 1 },
        w.botAuth,
      ),
      404,
      10004,
    );
    expectError(
      await w.client.post(
        entitlementsUrl(w.application.id),
        { sku_id: '42', owner_id: w.alice.id, owner_type: 2 },
        w.botAuth,
      ),
      404,
      10027,
    );
    expectInvalidField(
      await w.client.post(
        entitlementsUrl(w.application.id),
        { sku_id: premium.id, owner_id: w.alice.id, owner_type: 3 },
        w.botAuth,
      ),
      'owner_type',
    );
    expectError(
      await w.client.post(
        entitlementsUrl(w.application.id),
        { sku_id: premium.id, owner_id: w.alice.id, owner_type: 2 },
        w.aliceAuth,
      ),
      403,
      20002,
    );
    expectError(
      await w.client.post(
        entitlementsUrl(w.application.id),
        { sku_id: premium.id, owner_id: w.alice.id, owner_type: 2 },
        w.otherBotAuth,
      ),
      403,
      20012,
    );
  });

  it('a refund of a one-time purchase deletes it (ENTITLEMENT_DELETE); a subscription entitlement goes with its subscription', async () => {
    const w = await monetizationWorld();
    const { premium, durable } = await catalog(w.client, w.application.id);
    const bought = (await purchase(w.client, { user_id: w.alice.id, sku_id: durable.id })).entitlement;
    const sub = (await purchase(w.client, { user_id: w.alice.id, sku_id: premium.id })).entitlement;
    expect((await w.client.delete(`/sandbox/entitlements/${bought.id}`)).status).toBe(204);
    expectInvalidField(await w.client.delete(`/sandbox/entitlements/${sub.id}`), 'entitlement_id');
    expectError(await w.client.delete(`/sandbox/entitlements/${bought.id}`), 404, 10029);
    expect((await loggedEvents(w.client, ['ENTITLEMENT_DELETE'])).map((e) => (e.data as any).id)).toEqual([bought.id]);
    // Refunded, it may be bought again.
    await setClock(w.client, T0 + 1000);
    await purchase(w.client, { user_id: w.alice.id, sku_id: durable.id });
  });
});
