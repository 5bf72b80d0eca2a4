// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { deliveries, enableWebhooks, webhookWorld } from './webhook-fixtures';

describe('lobby webhook events (spec: "game direct message and lobby webhook events also exist")', () => {
  it('LOBBY_MESSAGE_CREATE reaches an application subscribed to it, with the message and no token', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id, ['LOBBY_MESSAGE_CREATE']);
    const lobby = (await client.put('/api/v10/lobbies', { secret: 'hooked' }, world.aliceAuth)).body;
    const message = (
      await client.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'hello hooks' }, world.aliceAuth)
    ).body;
    await client.app.webhooks.settled();
    const sent = endpoint.events().filter((e) => e.payload.event?.type === 'LOBBY_MESSAGE_CREATE');
    expect(sent).toHaveLength(1);
    expect(sent[0].payload.event.data).toMatchObject({ id: message.id, lobby_id: lobby.id, content: 'hello hooks' });
    expect(sent[0].body).not.toContain(world.aliceTokens.access_token);
    expect((await deliveries(client)).map((d) => d.event_type)).toEqual(['LOBBY_MESSAGE_CREATE']);
  });

  it('an application not subscribed to LOBBY_MESSAGE_CREATE gets no delivery for it', async () => {
    const { client, world, endpoint } = await webhookWorld();
    await enableWebhooks(client, world.application.id, ['APPLICATION_AUTHORIZED']);
    const lobby = (await client.put('/api/v10/lobbies', { secret: 'quiet' }, world.aliceAuth)).body;
    await client.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'shh' }, world.aliceAuth);
    await client.app.webhooks.settled();
    expect(endpoint.events().filter((e) => e.payload.event?.type === 'LOBBY_MESSAGE_CREATE')).toHaveLength(0);
  });
});
