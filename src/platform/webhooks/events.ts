/**
 * Webhook events (spec, Events > Webhook events): the event types an application may subscribe
 * to, its event webhooks settings, the outgoing payload in the platform's public shape
 * (`{version: 1, application_id, type: 0 PING | 1 Event, event?: {type, timestamp, data}}`),
 * and the records the outbox and the sandbox sinks keep.
 */
import type { EventRecord } from '../../store/schema';
import { WEBHOOK_TYPE, type EventWebhooksRecord, type WebhookPayload } from '../../store/records/webhooks';

/**
 * The Event payload of a logged event for one application. The event's data goes out as it
 * was logged: webhook events carry serialized users, never a token.
 */
export function webhookEventPayload(event: EventRecord, applicationId: string): WebhookPayload {
  return {
    version: 1,
    application_id: applicationId,
    type: WEBHOOK_TYPE.EVENT,
    event: {
      type: event.type,
      timestamp: new Date(event.created_at).toISOString(),
      ...(event.data === undefined ? {} : { data: event.data }),
    },
  };
}

/** The PING that validates an event webhooks URL. */
export function webhookPingPayload(applicationId: string): WebhookPayload {
  return { version: 1, application_id: applicationId, type: WEBHOOK_TYPE.PING };
}

/** The settings as the sandbox answers them (the application's `event_webhooks_*` fields and `verify_key`). */
export function serializeEventWebhooks(record: EventWebhooksRecord) {
  return {
    application_id: record.application_id,
    event_webhooks_url: record.url,
    event_webhooks_status: record.status,
    event_webhooks_types: record.types,
    verify_key: record.verify_key,
  };
}
