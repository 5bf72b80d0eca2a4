// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { itInProcess } from '../app-harness';
import { write } from '../../../src/store/write';
import { createGatewayHarness } from './gateway-harness';
import { placeholderEvent } from '../store/placeholder-events';

describe('webhook-only events never reach the gateway (spec: APPLICATION_AUTHORIZED is not available over the gateway)', () => {
  it("APPLICATION_AUTHORIZED of a first authorization is not dispatched to the app's bot or to the user's sessions", async () => {
    const h = await createGatewayHarness();
    const bot = await h.identify(h.world.botAuth, { intents: 0 });
    const alice = await h.identify(h.world.aliceAuth);
    const carol = (await h.api.post('/sandbox/users', { username: 'carol' })).body.user;
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: h.world.application.id,
      scope: 'identify',
      integration_type: '1',
    });
    expect((await h.api.post(`/oauth2/authorize?${query}`, { authorize: true, user_id: carol.id })).status).toBe(200);
    // A later gateway event for alice proves the gateway has read past the authorization.
    await h.api.put('/api/v10/lobbies', { secret: 'after' }, h.world.aliceAuth);
    await alice.waitForDispatch('LOBBY_CREATE');
    await h.flush();
    const logged = (await h.api.db.getAll('events')).filter((e) => e.type === 'APPLICATION_AUTHORIZED');
    expect(logged).toHaveLength(1);
    expect(bot.dispatches('APPLICATION_AUTHORIZED')).toEqual([]);
    expect(alice.dispatches('APPLICATION_AUTHORIZED')).toEqual([]);
  });

  itInProcess(
    "an event logged for the webhook channel only is skipped even when its audience names the session's user",
    async () => {
      const h = await createGatewayHarness();
      const alice = await h.identify(h.world.aliceAuth);
      await write(h.api.app.ctx, [], async (_tx, emit) => {
        const audience = { user_ids: [h.world.alice.id], application_id: h.world.application.id };
        emit(placeholderEvent('APPLICATION_DEAUTHORIZED', { user: { id: h.world.alice.id } }, audience, ['webhook']));
        emit(placeholderEvent('ENTITLEMENT_CREATE', { id: '1' }, audience, ['gateway', 'webhook']));
      });
      await alice.waitForDispatch('ENTITLEMENT_CREATE');
      await h.flush();
      expect(alice.dispatches('APPLICATION_DEAUTHORIZED')).toEqual([]);
    },
  );
});
