/**
 * Sandbox routes for webhook events (CONTRACT §3 and additions): an application's event
 * webhooks settings (validated with a PING), the outbox's deliveries, and sinks that receive
 * deliveries on the platform's own origin.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import {
  JSON_BODY_MAX_BYTES,
  WEBHOOK_DELIVERIES_LIST_DEFAULT,
  WEBHOOK_DELIVERIES_LIST_MAX,
  WEBHOOK_URL_MAX,
} from '../../src/platform/core/limits';
import { ApiError } from '../../src/platform/core/errors';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { configureEventWebhooks, ensureEventWebhooks } from '../../src/platform/webhooks/config';
import { listWebhookDeliveries, serializeWebhookDelivery } from '../../src/platform/webhooks/deliveries';
import { serializeEventWebhooks } from '../../src/platform/webhooks/events';
import { WEBHOOK_EVENT_TYPES } from '../../src/store/records/webhooks';
import {
  createWebhookSink,
  getWebhookSink,
  receiveAtWebhookSink,
  serializeWebhookSink,
} from '../../src/platform/webhooks/sinks';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../src/platform/webhooks/signing';
import { readJson, readQuery, schemas, validate, type AppContext, type AppEnv, publicOrigin } from '../http';

const EventWebhooksBody = v.object({
  url: v.nullable(
    v.pipe(
      v.string('Must be a string.'),
      v.minLength(1, 'Must be 1 or more in length.'),
      v.maxLength(WEBHOOK_URL_MAX, `Must be ${WEBHOOK_URL_MAX} or fewer in length.`),
    ),
  ),
  types: v.optional(v.array(v.picklist(WEBHOOK_EVENT_TYPES, `Must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}.`))),
  enabled: v.optional(v.boolean('Must be a boolean.')),
});
const SinkBody = v.object({
  respond_with: v.optional(
    v.pipe(
      v.number('Must be a number.'),
      v.integer('Must be an integer.'),
      v.minValue(200, 'Must be an HTTP status.'),
      v.maxValue(599, 'Must be an HTTP status.'),
    ),
  ),
});
const DeliveriesQuery = v.object({
  application_id: v.optional(schemas.snowflake),
  limit: v.optional(schemas.queryInt(1, WEBHOOK_DELIVERIES_LIST_MAX)),
});

const idParam = (c: AppContext, name: string): string =>
  validate(v.object({ [name]: schemas.snowflake }), c.req.param())[name] as string;
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
    return c.json(serializeEventWebhooks(await ensureEventWebhooks(c.get('ctx'), idParam(c, 'application_id'))));
  });
  r.put('/applications/:application_id/event-webhooks', async (c) => {
    const id = idParam(c, 'application_id');
    const body = await readJson(c, EventWebhooksBody);
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
    const query = readQuery(c, DeliveriesQuery);
    const deliveries = await listWebhookDeliveries(c.get('ctx'), {
      application_id: query.application_id,
      limit: query.limit ?? WEBHOOK_DELIVERIES_LIST_DEFAULT,
    });
    return c.json({ deliveries: deliveries.map(serializeWebhookDelivery) });
  });

  r.post('/webhook-sinks', async (c) => {
    const sink = await createWebhookSink(c.get('ctx'), await readJson(c, SinkBody));
    return c.json(serializeWebhookSink(sink, origin(c)), 201);
  });
  r.get('/webhook-sinks/:sink_id', async (c) => {
    return c.json(serializeWebhookSink(await getWebhookSink(c.get('ctx'), idParam(c, 'sink_id')), origin(c)));
  });
  // The sink itself: takes any body (it records what a real endpoint would see), answers with no body.
  r.post('/webhook-sinks/:sink_id', async (c) => {
    const id = idParam(c, 'sink_id');
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
