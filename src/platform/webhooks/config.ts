/**
 * An application's event webhooks settings: the URL, whether events are enabled, the event
 * types it subscribes to, and its Ed25519 key pair (`verify_key`). Setting a URL validates it
 * as the platform does: a signed PING must be acknowledged with 204, and a PING with a bad
 * signature must be refused (401), proving the endpoint checks signatures. A URL that fails
 * is refused with 50035 naming `event_webhooks_url`, and the settings stay as they were.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { WEBHOOK_RESPONSE_TIMEOUT_MS } from '../core/limits';
import type { FetchLike } from '../oauth2/oidc';
import { webhookPingPayload } from './events';
import { EVENT_WEBHOOKS_STATUS, type EventWebhooksRecord, type WebhookEventType } from '../../store/records/webhooks';
import { generateWebhookKeyPair, signedWebhookRequest } from './signing';

/** What the sandbox sets: `url` null removes it (and disables events). */
export interface EventWebhooksInput {
  url: string | null;
  types?: WebhookEventType[];
  enabled?: boolean;
}

/**
 * The application's settings, made (disabled, no URL, a new key pair) the first time they are
 * needed: the key pair is the application's identity, so a developer can read its
 * `verify_key` before configuring an endpoint that checks it.
 * @example const { verify_key } = await ensureEventWebhooks(ctx, appId);
 */
export async function ensureEventWebhooks(ctx: PlatformContext, applicationId: string): Promise<EventWebhooksRecord> {
  const existing = await ctx.db.get('event_webhooks', applicationId);
  if (existing) return existing;
  if (!(await ctx.db.getKey('applications', applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
  // Key generation awaits WebCrypto: done before the write, whose transaction may await only IndexedDB.
  const { privateKey, verifyKey } = await generateWebhookKeyPair(ctx.db.keysMustBeExtractable);
  return write(ctx, ['applications', 'event_webhooks'], async (tx) => {
    if (!(await tx.store('applications').getKey(applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
    // Another request made them meanwhile: its key pair is the one.
    const raced = await tx.store('event_webhooks').get(applicationId);
    if (raced) return raced;
    const record: EventWebhooksRecord = {
      application_id: applicationId,
      url: null,
      status: EVENT_WEBHOOKS_STATUS.DISABLED,
      types: [],
      verify_key: verifyKey,
      private_key: privateKey,
      enabled_after_seq: 0,
      failed_in_a_row: 0,
      updated_at: ctx.clock.now(),
    };
    await tx.store('event_webhooks').add(record);
    return record;
  });
}

/** Why a URL failed validation, in words that never repeat the URL (it may hold a secret). */
async function pingProblem(
  send: FetchLike,
  url: string,
  record: EventWebhooksRecord,
  now: number,
): Promise<string | null> {
  const body = JSON.stringify(webhookPingPayload(record.application_id));
  const post = async (tamper: boolean): Promise<Response | null> => {
    try {
      const init = await signedWebhookRequest(record.private_key, body, now, tamper);
      return await send(url, { ...init, signal: AbortSignal.timeout(WEBHOOK_RESPONSE_TIMEOUT_MS) });
    } catch {
      return null;
    }
  };
  const signed = await post(false);
  if (!signed)
    return `The PING could not be delivered (network error, or no answer within ${WEBHOOK_RESPONSE_TIMEOUT_MS / 1000} s).`;
  if (signed.status !== 204)
    return `The URL must acknowledge a PING with 204 No Content; it answered ${signed.status}.`;
  const forged = await post(true);
  if (!forged) return 'The PING with an invalid signature could not be delivered (network error or timeout).';
  if (forged.status >= 200 && forged.status < 300) {
    return 'The URL accepted a PING with an invalid signature: it must verify X-Signature-Ed25519 and answer 401.';
  }
  return null;
}

/**
 * Sets the application's event webhooks. A new URL is validated with the PING first (so the
 * settings are stored only for an endpoint that works); enabling requires a URL. Turning events
 * on starts at the current end of the event log: nothing from before is delivered.
 * @example await configureEventWebhooks(ctx, appId, { url, types: ['APPLICATION_AUTHORIZED'], enabled: true }, fetch);
 */
export async function configureEventWebhooks(
  ctx: PlatformContext,
  applicationId: string,
  input: EventWebhooksInput,
  send: FetchLike,
): Promise<EventWebhooksRecord> {
  const current = await ensureEventWebhooks(ctx, applicationId);
  const enabled = input.enabled ?? input.url !== null;
  if (enabled && input.url === null)
    throw ApiError.invalidForm({ event_webhooks_url: 'Events cannot be enabled without a URL.' });
  if (input.url !== null) {
    const problem = await pingProblem(send, input.url, current, ctx.clock.now());
    if (problem)
      throw ApiError.invalidForm({
        event_webhooks_url: { code: 'APPLICATION_EVENT_WEBHOOKS_URL_INVALID', message: problem },
      });
  }
  return write(ctx, ['applications', 'event_webhooks'], async (tx) => {
    if (!(await tx.store('applications').getKey(applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
    const record = (await tx.store('event_webhooks').get(applicationId)) ?? current;
    const wasEnabled = record.status === EVENT_WEBHOOKS_STATUS.ENABLED;
    let enabledAfter = record.enabled_after_seq;
    if (enabled && !wasEnabled) {
      const [last] = await tx.store('events').getAllKeys(null, 1, 'prev');
      enabledAfter = last ?? 0;
    }
    const next: EventWebhooksRecord = {
      ...record,
      url: input.url,
      types: input.types ? [...new Set(input.types)] : record.types,
      status: enabled ? EVENT_WEBHOOKS_STATUS.ENABLED : EVENT_WEBHOOKS_STATUS.DISABLED,
      enabled_after_seq: enabledAfter,
      // A URL that just passed validation starts with a clean record.
      failed_in_a_row: 0,
      updated_at: ctx.clock.now(),
    };
    await tx.store('event_webhooks').put(next);
    return next;
  });
}
