/**
 * The webhook outbox's runner: collects deliveries from the event log, sends those that are
 * due (signed with the application's key), and records each attempt. It runs in the service
 * worker after a commit that appended events, and lazily on later requests when a retry falls
 * due by the platform clock; an in-memory note of the earliest due time keeps requests that
 * have nothing to deliver from touching the store. So does a run that found no application
 * listening: until a write changes the webhook settings or deliveries (as the read cache
 * tells: {@link WEBHOOK_STORES}), the events later commits log are not looked at, since events from before a
 * listener was enabled are never delivered. Memory is only a hint: after a restart of the
 * worker the first run looks at the store again. Delivery is at least once: a worker stopped
 * between sending and recording sends again.
 */
import type { PlatformContext } from '../core/context';
import { WEBHOOK_RESPONSE_TIMEOUT_MS } from '../core/limits';
import type { FetchLike } from '../oauth2/oidc';
import { redactSecrets } from '../core/secrets';
import {
  abandonWebhookDelivery,
  collectWebhookDeliveries,
  dueWebhookDeliveries,
  nextWebhookDueAt,
  recordWebhookAttempt,
  type WebhookAttemptOutcome,
} from './deliveries';
import { EVENT_WEBHOOKS_STATUS, type WebhookDeliveryRecord } from '../../store/records/webhooks';
import { signedWebhookRequest } from './signing';
import { faultBookOf } from '../faults/fault-book';

/** What the outbox reads to learn it has nothing to do: a commit that changes none of them keeps it idle. */
export const WEBHOOK_STORES = ['event_webhooks', 'webhook_deliveries'] as const;

/** Deliveries sent at the same time. */
const BATCH = 8;

/** Why a request got no answer, without its message (which may repeat the URL). */
function failureReason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return `No answer within ${WEBHOOK_RESPONSE_TIMEOUT_MS / 1000} s.`;
  return 'The request failed: network error (offline, refused, or the endpoint does not allow this origin by CORS).';
}

/** What an answer means for the delivery. */
function answerOutcome(response: Response): WebhookAttemptOutcome {
  // With `redirect: 'manual'` a browser answers an opaque redirect with status 0.
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    return { status: response.status, error: 'The endpoint answered with a redirect; redirects are not followed.' };
  }
  return { status: response.status };
}

/**
 * Sends one delivery to the application's current URL and records the attempt. A delivery of
 * an application whose events were disabled (by the developer or the platform) meanwhile ends
 * `failed` unsent.
 */
export async function attemptWebhookDelivery(
  ctx: PlatformContext,
  send: FetchLike,
  delivery: WebhookDeliveryRecord,
): Promise<void> {
  const config = await ctx.db.get('event_webhooks', delivery.application_id);
  if (!config || config.status !== EVENT_WEBHOOKS_STATUS.ENABLED || config.url === null) {
    await abandonWebhookDelivery(ctx, delivery.id, 'Event webhooks were disabled before the event was delivered.');
    return;
  }
  let outcome: WebhookAttemptOutcome;
  // A `webhook_failure` fault (`POST /sandbox/faults`): this attempt fails unsent, and is retried as any failure.
  const fault = await faultBookOf(ctx).takeWebhook(delivery.application_id);
  if (fault?.type === 'webhook_failure') {
    await recordWebhookAttempt(ctx, delivery.id, config.url, {
      status: fault.status,
      error: `Failed by a sandbox fault (${fault.status}).`,
    });
    return;
  }
  try {
    const init = await signedWebhookRequest(config.private_key, JSON.stringify(delivery.payload), ctx.clock.now());
    const response = await send(config.url, { ...init, signal: AbortSignal.timeout(WEBHOOK_RESPONSE_TIMEOUT_MS) });
    outcome = answerOutcome(response);
    await response.body?.cancel().catch(() => undefined);
  } catch (error) {
    outcome = { status: null, error: failureReason(error) };
  }
  await recordWebhookAttempt(ctx, delivery.id, config.url, outcome);
}

/**
 * The outbox of one platform context.
 * @example const outbox = new WebhookOutbox(ctx, fetch); if (outbox.due) event.waitUntil(outbox.run());
 */
export class WebhookOutbox {
  #running: Promise<void> | null = null;
  #again = false;
  // Unknown after a start: the first run looks at the store.
  #dirty = true;
  #nextDueAt: number | null = null;
  /** The webhooks generation at which a run found no application listening; null: not known. */
  #unheardSince: number | null = null;

  constructor(
    readonly ctx: PlatformContext,
    readonly send: FetchLike,
    readonly log: (line: string) => void = console.error,
  ) {}

  /** Hears this context's announcements: committed events may include webhook events. */
  observe(commit: { events: readonly unknown[] }): void {
    // A reset needs no pass: it empties the log and the deliveries alike.
    if (commit.events.length > 0) this.#dirty = true;
  }

  /** Whether a run has work: events not looked at yet that someone may listen to, or a retry due by the platform clock. */
  get due(): boolean {
    const unheard =
      this.#unheardSince !== null && this.ctx.cache?.unchangedSince(WEBHOOK_STORES, this.#unheardSince) === true;
    return (this.#dirty && !unheard) || (this.#nextDueAt !== null && this.ctx.clock.now() >= this.#nextDueAt);
  }

  /**
   * Runs the outbox; while a run is in progress, asks it for one more pass (when there is new
   * work) and resolves with it. Never rejects: a failing pass is logged and retried later.
   */
  run(): Promise<void> {
    if (this.#running) {
      if (this.due) this.#again = true;
      return this.#running;
    }
    this.#running = this.#loop().finally(() => (this.#running = null));
    return this.#running;
  }

  /** When the earliest retry falls due by the platform clock, as the last run found; null: none. */
  get nextDueAt(): number | null {
    return this.#nextDueAt;
  }

  /** Resolves once no run is in progress. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#pass();
      } catch (error) {
        // The store may be closing for an upgrade: look again on a later request.
        this.#dirty = true;
        const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        this.log(redactSecrets(`platformpp: webhook outbox: ${detail}`));
      }
    } while (this.#again);
  }

  async #pass(): Promise<void> {
    this.#dirty = false;
    const generation = this.ctx.cache?.generation ?? null;
    const { listening } = await collectWebhookDeliveries(this.ctx);
    this.#unheardSince = listening ? null : generation;
    for (;;) {
      const due = await dueWebhookDeliveries(this.ctx, BATCH);
      await Promise.all(due.map((delivery) => attemptWebhookDelivery(this.ctx, this.send, delivery)));
      // A failed attempt is rescheduled into the future, so the next page holds only what is still due.
      if (due.length < BATCH) break;
    }
    this.#nextDueAt = await nextWebhookDueAt(this.ctx);
  }
}
