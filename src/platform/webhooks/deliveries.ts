/**
 * The webhook outbox's records (ARCHITECTURE rule 3: it delivers from the event log). Events
 * whose `channels` include `webhook` become one delivery each for the application their
 * audience names, when that application's events are enabled and it subscribes to the type.
 * The outbox keeps its position in the log, so every event is considered once, whichever
 * request or restart of the worker gets there first.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import {
  WEBHOOK_DELIVERY_ATTEMPTS_MAX,
  WEBHOOK_FAILED_DELIVERIES_BEFORE_DISABLE,
  WEBHOOK_RETRY_BASE_MS,
} from '../core/limits';
import { webhookEventPayload } from './events';
import {
  EVENT_WEBHOOKS_STATUS,
  type EventWebhooksRecord,
  type WebhookDeliveryRecord,
} from '../../store/records/webhooks';
import { keyRange } from '../../store/port';

/** Events read from the log per transaction. */
const LOG_PAGE = 500;

/** The wait after failed attempt number `attempts` (1-based): doubling from the base. */
export function webhookRetryDelay(attempts: number): number {
  return WEBHOOK_RETRY_BASE_MS * 2 ** (attempts - 1);
}

function subscribed(config: EventWebhooksRecord | undefined, type: string, seq: number): config is EventWebhooksRecord {
  return (
    !!config &&
    config.status === EVENT_WEBHOOKS_STATUS.ENABLED &&
    config.url !== null &&
    seq > config.enabled_after_seq &&
    (config.types as string[]).includes(type)
  );
}

/**
 * Turns the webhook events logged since the outbox's position into pending deliveries, due
 * now, and moves the position past them. Resolves with whether any application listens and
 * how many deliveries it made.
 */
export async function collectWebhookDeliveries(ctx: PlatformContext): Promise<{ listening: boolean; made: number }> {
  // With no application listening there is nothing to collect. A read-only look at the settings
  // keeps this from locking the event log, which every write appends to.
  const listening = (await ctx.db.getAll('event_webhooks')).some((c) => c.status === EVENT_WEBHOOKS_STATUS.ENABLED);
  if (!listening) return { listening, made: 0 };
  let made = 0;
  for (;;) {
    const { created, more } = await write(
      ctx,
      ['webhook_outbox', 'event_webhooks', 'webhook_deliveries'],
      async (tx) => {
        const enabled = (await tx.store('event_webhooks').getAll()).filter(
          (c) => c.status === EVENT_WEBHOOKS_STATUS.ENABLED,
        );
        if (enabled.length === 0) return { created: 0, more: false };
        const configs = new Map(enabled.map((c) => [c.application_id, c]));
        // Events from before every listener was enabled are never delivered: start past them.
        const floor = Math.min(...enabled.map((c) => c.enabled_after_seq));
        const cursor = Math.max((await tx.store('webhook_outbox').get('cursor'))?.seq ?? 0, floor);
        const events = await tx.store('events').getAll(keyRange.lowerBound(cursor, true), LOG_PAGE);
        let count = 0;
        for (const event of events) {
          const applicationId = event.audience.application_id;
          const config = applicationId ? configs.get(applicationId) : undefined;
          if (!event.channels.includes('webhook') || !subscribed(config, event.type, event.seq!)) continue;
          const delivery: WebhookDeliveryRecord = {
            id: ctx.ids.next(),
            event_seq: event.seq!,
            application_id: config.application_id,
            event_type: event.type,
            url: config.url!,
            status: 'pending',
            attempts: 0,
            next_attempt_at: ctx.clock.now(),
            last_status: null,
            last_error: null,
            payload: webhookEventPayload(event, config.application_id),
            created_at: ctx.clock.now(),
            delivered_at: null,
          };
          await tx.store('webhook_deliveries').add(delivery);
          count++;
        }
        if (events.length > 0) await tx.store('webhook_outbox').put({ seq: events[events.length - 1].seq! }, 'cursor');
        return { created: count, more: events.length === LOG_PAGE };
      },
    );
    made += created;
    if (!more) return { listening, made };
  }
}

/** Pending deliveries whose next attempt is due by the platform clock, oldest due first. */
export async function dueWebhookDeliveries(ctx: PlatformContext, limit: number): Promise<WebhookDeliveryRecord[]> {
  return ctx.db.getAllFromIndex('webhook_deliveries', 'by_next_attempt', keyRange.upperBound(ctx.clock.now()), limit);
}

/** When the earliest pending delivery is due (platform-clock epoch ms), or null when none is pending. */
export async function nextWebhookDueAt(ctx: PlatformContext): Promise<number | null> {
  const [first] = await ctx.db.getAllFromIndex('webhook_deliveries', 'by_next_attempt', null, 1);
  return first?.next_attempt_at ?? null;
}

/** How one attempt went: the HTTP status (null when no answer came) and, for a failure, why. */
export interface WebhookAttemptOutcome {
  status: number | null;
  error?: string;
}

/**
 * Records one attempt of a delivery. A 2xx answer delivers it; anything else schedules a retry
 * with backoff, until the last attempt makes it `failed`. Too many failed deliveries in a row
 * disable the application's events (status 3), as the platform stops sending to an endpoint
 * that fails too often. A delivery that is gone (reset) or no longer pending is left alone.
 * @example await recordWebhookAttempt(ctx, delivery.id, url, { status: 204 });
 */
export async function recordWebhookAttempt(
  ctx: PlatformContext,
  id: string,
  url: string,
  outcome: WebhookAttemptOutcome,
): Promise<WebhookDeliveryRecord | null> {
  return write(ctx, ['webhook_deliveries', 'event_webhooks'], async (tx) => {
    const delivery = await tx.store('webhook_deliveries').get(id);
    if (!delivery || delivery.status !== 'pending') return null;
    const now = ctx.clock.now();
    const attempts = delivery.attempts + 1;
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const status = ok ? 'delivered' : attempts >= WEBHOOK_DELIVERY_ATTEMPTS_MAX ? 'failed' : 'pending';
    const next: WebhookDeliveryRecord = {
      ...delivery,
      // The URL the attempt went to: the application's current one, if it changed since the event.
      url,
      attempts,
      status,
      next_attempt_at: status === 'pending' ? now + webhookRetryDelay(attempts) : null,
      last_status: outcome.status,
      last_error: ok ? null : (outcome.error ?? `The endpoint answered ${outcome.status}.`),
      delivered_at: ok ? now : null,
    };
    await tx.store('webhook_deliveries').put(next);
    if (status !== 'pending') await countOutcome(tx.store('event_webhooks'), delivery.application_id, ok, now);
    return next;
  });
}

type ConfigStore = {
  get(key: string): Promise<EventWebhooksRecord | undefined>;
  put(value: EventWebhooksRecord): Promise<unknown>;
};

async function countOutcome(store: ConfigStore, applicationId: string, ok: boolean, now: number): Promise<void> {
  const config = await store.get(applicationId);
  if (!config) return;
  const failed = ok ? 0 : config.failed_in_a_row + 1;
  const disable = failed >= WEBHOOK_FAILED_DELIVERIES_BEFORE_DISABLE && config.status === EVENT_WEBHOOKS_STATUS.ENABLED;
  await store.put({
    ...config,
    failed_in_a_row: failed,
    ...(disable ? { status: EVENT_WEBHOOKS_STATUS.DISABLED_BY_PLATFORM, updated_at: now } : {}),
  });
}

/**
 * Ends a pending delivery without sending it: the application's events were disabled or its URL
 * removed after the event happened.
 */
export async function abandonWebhookDelivery(ctx: PlatformContext, id: string, reason: string): Promise<void> {
  await write(ctx, ['webhook_deliveries'], async (tx) => {
    const delivery = await tx.store('webhook_deliveries').get(id);
    if (!delivery || delivery.status !== 'pending') return;
    await tx
      .store('webhook_deliveries')
      .put({ ...delivery, status: 'failed', next_attempt_at: null, last_error: reason });
  });
}

/** Deliveries newest first (by event), optionally of one application. */
export async function listWebhookDeliveries(
  ctx: PlatformContext,
  options: { application_id?: string; limit: number },
): Promise<WebhookDeliveryRecord[]> {
  const out: WebhookDeliveryRecord[] = [];
  const byEvent = ctx.db.read('webhook_deliveries').store('webhook_deliveries').index('by_event');
  for await (const { value } of byEvent.iterate(null, 'prev')) {
    if (out.length >= options.limit) break;
    if (!options.application_id || value.application_id === options.application_id) out.push(value);
  }
  return out;
}

/** A delivery as the sandbox lists it (CONTRACT §3 fields first). */
export function serializeWebhookDelivery(d: WebhookDeliveryRecord) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: d.id,
    event_type: d.event_type,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    payload: d.payload,
    application_id: d.application_id,
    created_at: iso(d.created_at),
    next_attempt_at: iso(d.next_attempt_at),
    last_status: d.last_status,
    last_error: d.last_error,
    delivered_at: iso(d.delivered_at),
  };
}
