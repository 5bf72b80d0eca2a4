/**
 * Sandbox routes for interactions: `POST /sandbox/interactions` makes a simulated user interact
 * with an app (`{application_id, user_id, type, guild_id?, channel_id?, locale?, data}`; answers
 * 201 `{interaction, delivery}`, the interaction with its token, the only time it is shown),
 * `GET /sandbox/interactions/{id}` shows how the app answered (never the token), and
 * `PUT/GET /sandbox/applications/{id}/interactions-endpoint` sets the app's interactions
 * endpoint URL (validated with a signed PING), the developer portal's field.
 */
import { Hono } from 'hono';
import { ApiError } from '../../src/platform/core/errors';
import { createInteraction, SandboxInteractionSchema } from '../../src/platform/interactions/create';
import { configureInteractionsEndpoint, interactionsEndpointOf } from '../../src/platform/interactions/delivery';
import { getStoredInteraction } from '../../src/platform/interactions/view';
import { SANDBOX_INTERACTION_BODY_MAX_BYTES } from '../../src/platform/core/limits';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { ensureEventWebhooks } from '../../src/platform/webhooks/config';
import { parseJsonBody, readJson, validate, type AppContext, type AppEnv, snowflakeParam, publicOrigin } from '../http';
import { InteractionsEndpointSchema } from '../../src/platform/interactions/schemas';

const origin = (c: AppContext) => publicOrigin(c);

/** An absolute http(s) URL (a path is taken on the platform's own origin); the message never repeats it. */
function endpointUrl(c: AppContext, value: string): string {
  let url: URL;
  try {
    url = new URL(value.startsWith('/') ? origin(c) + value : value, origin(c) + '/');
  } catch {
    throw ApiError.invalidForm({ interactions_endpoint_url: 'Must be a valid URL.' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw ApiError.invalidForm({ interactions_endpoint_url: 'Must be an http or https URL.' });
  return url.href;
}

/**
 * The interaction body: JSON like any other, but files travel in it as base64, so it may be as
 * large as SANDBOX_INTERACTION_BODY_MAX_BYTES (413 above, 50109 when not JSON).
 */
async function readInteractionBody(c: AppContext) {
  return validate(SandboxInteractionSchema, parseJsonBody(await c.req.text(), SANDBOX_INTERACTION_BODY_MAX_BYTES));
}

/** The `/sandbox` interaction routes; `send` reaches interactions endpoints. */
export function sandboxInteractionRoutes(send: FetchLike): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/interactions', async (c) => {
    const body = await readInteractionBody(c);
    return c.json(await createInteraction(c.get('ctx'), body, send, origin(c)), 201);
  });
  r.get('/interactions/:interaction_id', async (c) => {
    return c.json(await getStoredInteraction(c.get('ctx'), snowflakeParam(c, 'interaction_id')));
  });
  r.get('/applications/:application_id/interactions-endpoint', async (c) => {
    const id = snowflakeParam(c, 'application_id');
    const keys = await ensureEventWebhooks(c.get('ctx'), id);
    const url = await interactionsEndpointOf(c.get('ctx'), id);
    return c.json({ interactions_endpoint_url: url, verify_key: keys.verify_key });
  });
  r.put('/applications/:application_id/interactions-endpoint', async (c) => {
    const id = snowflakeParam(c, 'application_id');
    const body = await readJson(c, InteractionsEndpointSchema);
    const url = body.url === null ? null : endpointUrl(c, body.url);
    const record = await configureInteractionsEndpoint(c.get('ctx'), id, url, send);
    const keys = await ensureEventWebhooks(c.get('ctx'), id);
    return c.json({ interactions_endpoint_url: record?.url ?? null, verify_key: keys.verify_key });
  });
  return r;
}
