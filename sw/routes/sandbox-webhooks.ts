/**
 * Sandbox routes for webhook events (CONTRACT §3 and additions): an application's event
 * webhooks settings (validated with a PING), the outbox's deliveries, and sinks that receive
 * deliveries on the platform's own origin.
 */
import { Hono } from 'hono';
import { JSON_BODY_MAX_BYTES, WEBHOOK_DELIVERIES_LIST_DEFAULT } from '../../src/platform/core/limits';
import { ApiError } from '../../src/platform/core/errors';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { configureEventWebhooks, ensureEventWebhooks } from '../../src/platform/webhooks/config';
import { listWebhookDeliveries, serializeWebhookDelivery } from '../../src/platform/webhooks/deliveries';
import { serializeEventWebhooks } from '../../src/platform/webhooks/events';
import {
  createWebhookSink,
  getWebhookSink,
  receiveAtWebhookSink,
  serializeWebhookSink,
} from '../../src/platform/webhooks/sinks';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../src/platform/webhooks/signing';
import { readJson, readQuery, type AppContext, type AppEnv, snowflakeParam, publicOrigin } from '../http';
import {
  EventWebhooksSchema,
  WebhookDeliveriesQuerySchema,
  WebhookSinkSchema,
} from '../../src/platform/webhooks/schemas';

const origin = (c: AppContext): string => publicOrigin(c);

/**
 * An absolute http(s) URL; a path is taken on the platform's own origin (where the sandbox
 * sinks are). The message never repeats the value: a URL may carry a secret.
 */
function webhookUrl(c: AppContext, value: string): string {
  let url: URL;
  try {
    url = new URL(value.startsWith('/') ? origin(c) + value : value, origin(c) + '/');
  } catch {
    throw ApiError.invalidForm({ event_webhooks_url: 'Must be a valid URL.' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw ApiError.invalidForm({ event_webhooks_url: 'Must be an http or https URL.' });
  return url.href;
}

/** The `/sandbox` webhook routes; `send` delivers the configuration PING. */
export function sandboxWebhookRoutes(send: FetchLike): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/applications/:application_id/event-webhooks', async (c) => {
    return c.json(serializeEventWebhooks(await ensureEventWebhooks(c.get('ctx'), snowflakeParam(c, 'application_id'))));
  });
  r.put('/applications/:application_id/event-webhooks', async (c) => {
    const id = snowflakeParam(c, 'application_id');
    const body = await readJson(c, EventWebhooksSchema);
    const url = body.url === null ? null : webhookUrl(c, body.url);
    const record = await configureEventWebhooks(
      c.get('ctx'),
      id,
      { url, types: body.types, enabled: body.enabled },
      send,
    );
    return c.json(serializeEventWebhooks(record));
  });

  r.get('/webhook-deliveries', async (c) => {
    const query = readQuery(c, WebhookDeliveriesQuerySchema);
    const deliveries = await listWebhookDeliveries(c.get('ctx'), {
      application_id: query.application_id,
      limit: query.limit ?? WEBHOOK_DELIVERIES_LIST_DEFAULT,
    });
    return c.json({ deliveries: deliveries.map(serializeWebhookDelivery) });
  });

  r.post('/webhook-sinks', async (c) => {
    const sink = await createWebhookSink(c.get('ctx'), await readJson(c, WebhookSinkSchema));
    return c.json(serializeWebhookSink(sink, origin(c)), 201);
  });
  r.get('/webhook-sinks/:sink_id', async (c) => {
    return c.json(serializeWebhookSink(await getWebhookSink(c.get('ctx'), snowflakeParam(c, 'sink_id')), origin(c)));
  });
  // The sink itself: takes any body (it records what a real endpoint would see), answers with no body.
  r.post('/webhook-sinks/:sink_id', async (c) => {
    const id = snowflakeParam(c, 'sink_id');
    const body = await c.req.text();
    if (new TextEncoder().encode(body).byteLength > JSON_BODY_MAX_BYTES) throw ApiError.of('REQUEST_TOO_LARGE');
    const status = await receiveAtWebhookSink(c.get('ctx'), id, {
      signature: c.req.header(SIGNATURE_HEADER) ?? null,
      timestamp: c.req.header(TIMESTAMP_HEADER) ?? null,
      body,
    });
    return new Response(null, { status });
  });

  return r;
}
