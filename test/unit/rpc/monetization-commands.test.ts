// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { HostUi } from '../../../src/rpc/context';
import { createActivity, createRpcWorld, participant } from './rpc-harness';

/** An authenticated activity of alice in the world's guild, with the SKUs of a small store. */
async function store(ui: Partial<HostUi> = {}) {
  const world = await createRpcWorld();
  const sku = async (body: Record<string, unknown>) =>
    (await world.client.post(`/sandbox/applications/${world.application.id}/skus`, body)).body.sku;
  const premium = await sku({ name: 'Premium', type: 5, price: { amount: 499, currency: 'usd' } });
  const server = await sku({
    name: 'Server Boost',
    type: 5,
    flags: (1 << 2) | (1 << 7),
    price: { amount: 999, currency: 'usd' },
  });
  const potion = await sku({ name: 'Potion', type: 3, price: { amount: 99, currency: 'eur' } });
  const unpriced = await sku({ name: 'Portal only', type: 2 });
  const hidden = await sku({ name: 'Retired', type: 2, flags: 0, price: { amount: 1, currency: 'usd' } });
  const activity = createActivity(world.client, {
    applicationId: world.application.id,
    user: participant(world.alice),
    guildId: world.guild.id,
    channelId: world.text.id,
    ui,
  });
  activity.handshake();
  await activity.authenticate(world.aliceTokens.access_token);
  return { world, activity, premium, server, potion, unpriced, hidden };
}

describe('monetization commands answer from the store', () => {
  it("GET_SKUS_EMBEDDED: the SKUs the client sells (available, priced, no SUBSCRIPTION_GROUP) in the SDK's shape, with prices", async () => {
    const { world, activity, premium, server, potion } = await store();
    const reply = await activity.command('GET_SKUS_EMBEDDED');
    expect(reply.data).toEqual({
      skus: [
        {
          id: premium.id,
          name: 'Premium',
          type: 5,
          price: { amount: 499, currency: 'usd' },
          application_id: world.application.id,
          flags: premium.flags,
          release_date: null,
        },
        {
          id: server.id,
          name: 'Server Boost',
          type: 5,
          price: { amount: 999, currency: 'usd' },
          application_id: world.application.id,
          flags: server.flags,
          release_date: null,
        },
        {
          id: potion.id,
          name: 'Potion',
          type: 3,
          price: { amount: 99, currency: 'eur' },
          application_id: world.application.id,
          flags: potion.flags,
          release_date: null,
        },
      ],
    });
  });

  it("GET_ENTITLEMENTS_EMBEDDED: what the user holds now (not deleted, not ended), never another user's", async () => {
    const { world, activity, premium, potion } = await store();
    const mine = (await world.client.post('/sandbox/purchases', { user_id: world.alice.id, sku_id: potion.id })).body
      .entitlement;
    await world.client.post('/sandbox/purchases', { user_id: world.bob.id, sku_id: potion.id });
    const sub = (await world.client.post('/sandbox/purchases', { user_id: world.alice.id, sku_id: premium.id })).body;
    expect((await activity.command('GET_ENTITLEMENTS_EMBEDDED')).data.entitlements.map((e: any) => e.id)).toEqual([
      mine.id,
      sub.entitlement.id,
    ]);
    await world.client.post(`/sandbox/subscriptions/${sub.subscription.id}/expire`);
    expect((await activity.command('GET_ENTITLEMENTS_EMBEDDED')).data).toEqual({ entitlements: [mine] });
  });

  it("START_PURCHASE of a SKU the client does not sell (unknown, another app's, unpriced, unavailable, a group) is ERROR 4000 naming args.sku_id", async () => {
    const { world, activity, unpriced, hidden } = await store();
    const theirs = (await world.client.post('/sandbox/applications', { name: 'Other' })).body.application;
    const foreign = (
      await world.client.post(`/sandbox/applications/${theirs.id}/skus`, {
        name: 'X',
        type: 2,
        price: { amount: 1, currency: 'usd' },
      })
    ).body.sku;
    const { group } = (
      await world.client.post(`/sandbox/applications/${world.application.id}/skus`, {
        name: 'Tier',
        type: 5,
        price: { amount: 1, currency: 'usd' },
      })
    ).body;
    for (const id of ['1234567890', foreign.id, unpriced.id, hidden.id, group.id]) {
      const reply = await activity.command('START_PURCHASE', { sku_id: id });
      expect(reply.data).toEqual({
        code: 4000,
        message: 'Invalid payload: args.sku_id: Unknown SKU of this application',
      });
    }
    expect(await world.client.app.ctx.db.count('entitlements')).toBe(0);
  });

  it('START_PURCHASE completes the purchase and answers the entitlements; ENTITLEMENT_CREATE reaches the subscribed activity; buying an unconsumed consumable again is 4000', async () => {
    const { world, activity, potion } = await store();
    await activity.command('SUBSCRIBE', {}, 'ENTITLEMENT_CREATE');
    const reply = await activity.command('START_PURCHASE', { sku_id: potion.id });
    expect(reply.data).toEqual([
      expect.objectContaining({
        sku_id: potion.id,
        user_id: world.alice.id,
        application_id: world.application.id,
        type: 1,
        consumed: false,
      }),
    ]);
    // The host hears the gateway's dispatch of the logged event (the frame's session is the user's).
    const logged = (await world.client.app.ctx.db.getAll('events')).filter((e) => e.type === 'ENTITLEMENT_CREATE');
    expect(logged).toHaveLength(1);
    expect(logged[0].audience.user_ids).toContain(world.alice.id);
    activity.host.platformEvent(logged[0].type, logged[0].data);
    expect(activity.dispatched('ENTITLEMENT_CREATE')).toEqual([{ entitlement: reply.data[0] }]);
    const again = await activity.command('START_PURCHASE', { sku_id: potion.id });
    expect(again.data).toEqual({
      code: 4000,
      message: 'Invalid payload: An entitlement has already been granted for this resource',
    });
  });

  it("a guild subscription bought through START_PURCHASE is for the activity's guild", async () => {
    const { world, activity, server } = await store();
    const reply = await activity.command('START_PURCHASE', { sku_id: server.id });
    expect(reply.data).toEqual([
      expect.objectContaining({ sku_id: server.id, guild_id: world.guild.id, ends_at: null }),
    ]);
  });

  it("the host's purchase dialog decides: shown the SKU with its price; closed, START_PURCHASE answers null and nothing is bought", async () => {
    const asked: unknown[] = [];
    let answer = false;
    const { world, activity, premium } = await store({
      confirmPurchase: async (request) => (asked.push(request), answer),
    });
    expect((await activity.command('START_PURCHASE', { sku_id: premium.id })).data).toBeNull();
    expect(await world.client.app.ctx.db.count('subscriptions')).toBe(0);
    expect(asked).toEqual([
      {
        application_id: world.application.id,
        sku: expect.objectContaining({ id: premium.id, name: 'Premium', price: { amount: 499, currency: 'usd' } }),
        user: { id: world.alice.id, username: 'alice' },
      },
    ]);
    answer = true;
    expect((await activity.command('START_PURCHASE', { sku_id: premium.id })).data).toHaveLength(1);
    expect(await world.client.app.ctx.db.count('subscriptions')).toBe(1);
  });

  it('monetization commands need an authenticated session (4006)', async () => {
    const world = await createRpcWorld();
    const activity = createActivity(world.client, {
      applicationId: world.application.id,
      user: participant(world.alice),
      guildId: world.guild.id,
      channelId: world.text.id,
    });
    activity.handshake();
    for (const cmd of ['GET_SKUS_EMBEDDED', 'GET_ENTITLEMENTS_EMBEDDED'])
      expect((await activity.command(cmd)).data.code).toBe(4006);
    expect((await activity.command('START_PURCHASE', { sku_id: '1' })).data.code).toBe(4006);
  });
});
