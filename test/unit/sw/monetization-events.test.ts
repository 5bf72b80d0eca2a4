// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createGatewayHarness } from '../gateway/gateway-harness';
import { deliveries, enableWebhooks, webhookWorld } from './webhook-fixtures';

const MONETIZATION = [
  'ENTITLEMENT_CREATE',
  'ENTITLEMENT_UPDATE',
  'ENTITLEMENT_DELETE',
  'SUBSCRIPTION_CREATE',
  'SUBSCRIPTION_UPDATE',
  'SUBSCRIPTION_DELETE',
];

describe("monetization events on the gateway: the application's bot and the user concerned", () => {
  it("the bot (whatever its intents) and the buyer's own sessions of the application receive them; another application's bot and other users do not", async () => {
    const h = await createGatewayHarness();
    const other = (await h.api.post('/sandbox/applications', { name: 'Other' })).body;
    const bot = await h.identify(h.world.botAuth, { intents: 0 });
    const otherBot = await h.identify(`Bot ${other.bot_token}`, { intents: 0 });
    const alice = await h.identify(h.world.aliceAuth);
    const bob = await h.identify(h.world.bobAuth);
    const sku = (await h.api.post(`/sandbox/applications/${h.world.application.id}/skus`, { name: 'Premium', type: 5 }))
      .body.sku;
    const { subscription } = (await h.api.post('/sandbox/purchases', { user_id: h.world.alice.id, sku_id: sku.id }))
      .body;
    await h.api.post(`/sandbox/subscriptions/${subscription.id}/cancel`);
    await h.api.post(`/sandbox/subscriptions/${subscription.id}/expire`);
    await h.api.delete(`/sandbox/subscriptions/${subscription.id}`);
    await bot.waitForDispatch('SUBSCRIPTION_DELETE');
    await alice.waitForDispatch('SUBSCRIPTION_DELETE');
    // A later event for bob and the other bot proves the gateway read past all of it.
    await h.api.put('/api/v10/lobbies', { secret: 'after' }, h.world.bobAuth);
    await bob.waitForDispatch('LOBBY_CREATE');
    await h.flush();
    const seen = (client: typeof bot) =>
      client
        .dispatches()
        .map((p) => p.t)
        .filter((t): t is string => t !== null && MONETIZATION.includes(t));
    const expected = [
      'SUBSCRIPTION_CREATE',
      'ENTITLEMENT_CREATE',
      'SUBSCRIPTION_UPDATE',
      'ENTITLEMENT_UPDATE',
      'SUBSCRIPTION_UPDATE',
      'ENTITLEMENT_DELETE',
      'SUBSCRIPTION_DELETE',
    ];
    expect(seen(bot)).toEqual(expected);
    expect(seen(alice)).toEqual(expected);
    expect(seen(otherBot)).toEqual([]);
    expect(seen(bob)).toEqual([]);
    expect(bot.dispatches('ENTITLEMENT_CREATE')[0].d).toMatchObject({
      user_id: h.world.alice.id,
      sku_id: sku.id,
      type: 1,
      ends_at: null,
    });
    expect(bot.dispatches('SUBSCRIPTION_CREATE')[0].d).toMatchObject({
      id: subscription.id,
      renewal_sku_ids: [sku.id],
      status: 0,
    });
  });

  it("a guild's test entitlement reaches the bot alone", async () => {
    const h = await createGatewayHarness();
    const bot = await h.identify(h.world.botAuth, { intents: 0 });
    const alice = await h.identify(h.world.aliceAuth);
    const guild = (await h.api.post('/sandbox/guilds', { name: 'Guild', owner_id: h.world.alice.id })).body.guild;
    const sku = (
      await h.api.post(`/sandbox/applications/${h.world.application.id}/skus`, {
        name: 'Server',
        type: 5,
        flags: (1 << 2) | (1 << 7),
      })
    ).body.sku;
    const res = await h.api.post(
      `/api/v10/applications/${h.world.application.id}/entitlements`,
      { sku_id: sku.id, owner_id: guild.id, owner_type: 1 },
      h.world.botAuth,
    );
    expect(res.status).toBe(200);
    const event = await bot.waitForDispatch('ENTITLEMENT_CREATE');
    expect(event.d).toMatchObject({ guild_id: guild.id, type: 4 });
    await h.api.put('/api/v10/lobbies', { secret: 'after' }, h.world.aliceAuth);
    await alice.waitForDispatch('LOBBY_CREATE');
    expect(alice.dispatches('ENTITLEMENT_CREATE')).toEqual([]);
  });
});

describe('monetization by webhook (spec: ENTITLEMENT_CREATE is the only monetization event available by webhook)', () => {
  it("a purchase's ENTITLEMENT_CREATE is delivered; subscription events, ENTITLEMENT_UPDATE and ENTITLEMENT_DELETE stay on the gateway", async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id, ['ENTITLEMENT_CREATE']);
    const sku = (await client.post(`/sandbox/applications/${world.application.id}/skus`, { name: 'Premium', type: 5 }))
      .body.sku;
    const { entitlement, subscription } = (
      await client.post('/sandbox/purchases', { user_id: world.alice.id, sku_id: sku.id })
    ).body;
    await client.post(`/sandbox/subscriptions/${subscription.id}/cancel`);
    await client.post(`/sandbox/subscriptions/${subscription.id}/migrate`);
    await client.post(`/sandbox/subscriptions/${subscription.id}/expire`);
    await client.delete(`/sandbox/subscriptions/${subscription.id}`);
    const sent = (await deliveries(client)).map((d) => d.event_type);
    expect(sent).toEqual(['ENTITLEMENT_CREATE', 'ENTITLEMENT_CREATE']);
    const events = endpoint.events().map((r) => r.payload.event);
    expect(events[0]).toMatchObject({ type: 'ENTITLEMENT_CREATE', data: entitlement });
    // The migration's is the same entitlement, with ends_at null.
    expect(events[1].data).toMatchObject({ id: entitlement.id, ends_at: null });
    const logged = (await client.app.ctx.db.getAll('events')).filter((e) => MONETIZATION.includes(e.type));
    for (const event of logged)
      expect(event.channels).toEqual(event.type === 'ENTITLEMENT_CREATE' ? ['gateway', 'webhook'] : ['gateway']);
    expect(new Set(logged.map((e) => e.type))).toEqual(new Set(MONETIZATION));
  });

  it('the other monetization events cannot be subscribed to by webhook (400 naming types)', async () => {
    const { client, world } = await webhookWorld();
    for (const type of MONETIZATION.filter((t) => t !== 'ENTITLEMENT_CREATE')) {
      const res = await client.put(`/sandbox/applications/${world.application.id}/event-webhooks`, {
        url: 'https://game.example/webhooks',
        types: [type],
        enabled: true,
      });
      expect(res.status, type).toBe(400);
    }
  });
});
