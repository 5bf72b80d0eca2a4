// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CAPABILITY_PLATFORM_CLIENT } from '../../../src/gateway/protocol';
import { createGatewayHarness } from './gateway-harness';

describe("the platform client's own dispatches (audience.client: activity joins, quest status, the device)", () => {
  it("reach only the user's sessions that identified as the platform's client, of the application concerned", async () => {
    const h = await createGatewayHarness();
    const client = await h.identify(h.world.aliceAuth, { capabilities: CAPABILITY_PLATFORM_CLIENT });
    const game = await h.identify(h.world.aliceAuth);
    const bob = await h.identify(h.world.bobAuth, { capabilities: CAPABILITY_PLATFORM_CLIENT });
    const bot = await h.identify(h.world.botAuth, { intents: 0 });
    await h.api.put(`/sandbox/users/${h.world.alice.id}/device`, { thermal_state: 3 });
    const { quest } = (await h.api.post('/sandbox/quests', { application_id: h.world.application.id, name: 'Q' })).body;
    await h.api.post(`/sandbox/quests/${quest.id}/enrollments`, {
      application_id: h.world.application.id,
      user_id: h.world.alice.id,
    });
    const thermal = await client.waitForDispatch('THERMAL_STATE_UPDATE');
    expect(thermal.d).toMatchObject({ user_id: h.world.alice.id, thermal_state: 3 });
    await client.waitForDispatch('QUEST_ENROLLMENT_STATUS_UPDATE');
    // A public event after them proves the other sessions read past them.
    await h.api.put('/api/v10/lobbies', { secret: 'after' }, h.world.aliceAuth);
    await game.waitForDispatch('LOBBY_CREATE');
    await h.flush();
    for (const other of [game, bob, bot]) {
      expect(other.dispatches('THERMAL_STATE_UPDATE')).toEqual([]);
      expect(other.dispatches('QUEST_ENROLLMENT_STATUS_UPDATE')).toEqual([]);
    }
  });
});
