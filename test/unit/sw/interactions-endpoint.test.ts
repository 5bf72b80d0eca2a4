// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../../src/platform/webhooks/signing';
import { eventsOf, expectInvalidField } from './messages-fixtures';
import { interactionWorld, invoked } from './interactions-fixtures';

const URL_ = 'https://bot.example/interactions';

/** A fake interactions endpoint: checks signatures with the app's verify_key, answers PINGs, then `answer`. */
function endpoint(answer: (body: any) => Response) {
  const state = { verifyKey: '', received: [] as any[], signatures: [] as boolean[] };
  const fetch = async (_url: string | URL, init?: RequestInit) => {
    const body = String(init?.body ?? '');
    const headers = new Headers(init?.headers);
    const valid = await verifyWebhookSignature(
      state.verifyKey,
      headers.get('X-Signature-Ed25519'),
      headers.get('X-Signature-Timestamp'),
      body,
    );
    state.signatures.push(valid);
    if (!valid) return new Response('invalid request signature', { status: 401 });
    const json = JSON.parse(body);
    if (json.type === 1) return Response.json({ type: 1 });
    state.received.push(json);
    return answer(json);
  };
  return { state, fetch };
}

describe('interactions endpoint URL: interactions by signed HTTP POST instead of the gateway', () => {
  it('a URL is accepted only when it answers a signed PING with PONG and refuses a bad signature', async () => {
    const ok = endpoint(() => new Response(null, { status: 202 }));
    const w = await interactionWorld({ webhookFetch: ok.fetch });
    ok.state.verifyKey = (
      await w.client.get(`/sandbox/applications/${w.application.id}/interactions-endpoint`)
    ).body.verify_key;
    const set = await w.client.put(`/sandbox/applications/${w.application.id}/interactions-endpoint`, { url: URL_ });
    expect(set.body).toEqual({ interactions_endpoint_url: URL_, verify_key: ok.state.verifyKey });
    expect(ok.state.signatures).toEqual([true, false]);
  });

  it('refuses an endpoint that does not PONG, or that accepts bad signatures (400 50035 naming interactions_endpoint_url)', async () => {
    const lax = async () => Response.json({ type: 1 });
    const w = await interactionWorld({ webhookFetch: lax });
    expectInvalidField(
      await w.client.put(`/sandbox/applications/${w.application.id}/interactions-endpoint`, { url: URL_ }),
      'interactions_endpoint_url',
    );
    const silent = await interactionWorld({ webhookFetch: async () => new Response(null, { status: 204 }) });
    expectInvalidField(
      await silent.client.put(`/sandbox/applications/${silent.application.id}/interactions-endpoint`, { url: URL_ }),
      'interactions_endpoint_url',
    );
  });

  it('delivers the interaction (with its token) signed to the endpoint, not over the gateway; an inline 200 response is applied as the callback', async () => {
    const ep = endpoint(() => Response.json({ type: 4, data: { content: 'inline pong' } }));
    const w = await interactionWorld({ webhookFetch: ep.fetch });
    ep.state.verifyKey = (
      await w.client.get(`/sandbox/applications/${w.application.id}/interactions-endpoint`)
    ).body.verify_key;
    await w.client.put(`/sandbox/applications/${w.application.id}/interactions-endpoint`, { url: URL_ });
    const reply = await w.interact();
    expect(reply.body.delivery).toEqual({ via: 'http', status: 200, inline_response_type: 4 });
    expect(ep.state.received[0]).toMatchObject({
      id: reply.body.interaction.id,
      token: reply.body.interaction.token,
      type: 2,
    });
    expect(await eventsOf(w.client, 'INTERACTION_CREATE')).toHaveLength(0);
    const [message] = await eventsOf(w.client, 'MESSAGE_CREATE');
    expect(message.data).toMatchObject({
      content: 'inline pong',
      interaction_metadata: { id: reply.body.interaction.id },
    });
  });

  it('an endpoint answering 202 responds through the callback route instead; removing the URL goes back to the gateway', async () => {
    const ep = endpoint(() => new Response(null, { status: 202 }));
    const w = await interactionWorld({ webhookFetch: ep.fetch });
    ep.state.verifyKey = (
      await w.client.get(`/sandbox/applications/${w.application.id}/interactions-endpoint`)
    ).body.verify_key;
    await w.client.put(`/sandbox/applications/${w.application.id}/interactions-endpoint`, { url: URL_ });
    const reply = await w.interact();
    expect(reply.body.delivery).toEqual({ via: 'http', status: 202 });
    expect((await w.callback(reply.body.interaction, { type: 4, data: { content: 'later' } })).status).toBe(204);
    await w.client.put(`/sandbox/applications/${w.application.id}/interactions-endpoint`, { url: null });
    await invoked(w);
    expect(await eventsOf(w.client, 'INTERACTION_CREATE')).toHaveLength(1);
  });
});
