/**
 * Sandbox routes for interactions: `POST /sandbox/interactions` makes a simulated user interact
 * with an app (`{application_id, user_id, type, guild_id?, channel_id?, locale?, data}`; answers
 * 201 `{interaction, delivery}`, the interaction with its token, the only time it is shown),
 * `GET /sandbox/interactions/{id}` shows how the app answered (never the token), and
 * `PUT/GET /sandbox/applications/{id}/interactions-endpoint` sets the app's interactions
 * endpoint URL (validated with a signed PING), the developer portal's field.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { ApiError } from '../../src/platform/core/errors';
import { createInteraction, SandboxInteractionSchema } from '../../src/platform/interactions/create';
import { configureInteractionsEndpoint } from '../../src/platform/interactions/delivery';
import { serializeStoredInteraction } from '../../src/platform/interactions/view';
import { SANDBOX_INTERACTION_BODY_MAX_BYTES, WEBHOOK_URL_MAX } from '../../src/platform/core/limits';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { ensureEventWebhooks } from '../../src/platform/webhooks/config';
import { readJson, schemas, validate, type AppContext, type AppEnv, publicOrigin } from '../http';

const EndpointBody = v.object({ url: v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(WEBHOOK_URL_MAX))) });
const idParam = (c: AppContext, name: string): string =>
  validate(v.object({ [name]: schemas.snowflake }), c.req.param())[name] as string;
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
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > SANDBOX_INTERACTION_BODY_MAX_BYTES) throw ApiError.of('REQUEST_TOO_LARGE');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw ApiError.of('INVALID_JSON');
  }
  return validate(SandboxInteractionSchema, json);
}

/** The `/sandbox` interaction routes; `send` reaches interactions endpoints. */
export function sandboxInteractionRoutes(send: FetchLike): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/interactions', async (c) => {
    const body = await readInteractionBody(c);
    return c.json(await createInteraction(c.get('ctx'), body, send, origin(c)), 201);
  });
  r.get('/interactions/:interaction_id', async (c) => {
    const record = await c.get('ctx').db.get('interactions', idParam(c, 'interaction_id'));
    if (!record) throw ApiError.of('UNKNOWN_INTERACTION');
    return c.json(serializeStoredInteraction(record));
  });
  r.get('/applications/:application_id/interactions-endpoint', async (c) => {
    const id = idParam(c, 'application_id');
    const keys = await ensureEventWebhooks(c.get('ctx'), id);
    const endpoint = await c.get('ctx').db.get('interaction_endpoints', id);
    return c.json({ interactions_endpoint_url: endpoint?.url ?? null, verify_key: keys.verify_key });
  });
  r.put('/applications/:application_id/interactions-endpoint', async (c) => {
    const id = idParam(c, 'application_id');
    const body = await readJson(c, EndpointBody);
    const url = body.url === null ? null : endpointUrl(c, body.url);
    const record = await configureInteractionsEndpoint(c.get('ctx'), id, url, send);
    const keys = await ensureEventWebhooks(c.get('ctx'), id);
    return c.json({ interactions_endpoint_url: record?.url ?? null, verify_key: keys.verify_key });
  });
  return r;
}
