/**
 * Sandbox webhook sinks: endpoints on the platform's own origin that behave like a correct
 * event webhooks endpoint (check the signature against the sending application's
 * `verify_key`; answer 204, or 401 to a bad signature) and record every request, so a
 * developer sees deliveries with no network at all.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { WEBHOOK_SINK_REQUESTS_MAX } from '../core/limits';
import { isSnowflake } from '../core/snowflake';
import { WEBHOOK_TYPE, type WebhookSinkRecord, type WebhookSinkRequest } from '../../store/records/webhooks';
import { verifyWebhookSignature } from './signing';

/** The path of a sink under the platform's origin. */
export const WEBHOOK_SINK_PATH = '/sandbox/webhook-sinks';

/** True for the path of a sink's receiving endpoint (`/sandbox/webhook-sinks/{id}`). */
export function isWebhookSinkPath(pathname: string): boolean {
  return new RegExp(`^${WEBHOOK_SINK_PATH}/\\d{1,20}/?$`).test(pathname);
}

/**
 * A new sink. `respond_with` makes it answer correctly signed events with another status (a
 * 500 to watch retries, say); it still acknowledges PINGs, so it can be configured.
 * @example const sink = await createWebhookSink(ctx, {}); `${origin}${WEBHOOK_SINK_PATH}/${sink.id}`
 */
export async function createWebhookSink(
  ctx: PlatformContext,
  input: { respond_with?: number },
): Promise<WebhookSinkRecord> {
  const sink: WebhookSinkRecord = {
    id: ctx.ids.next(),
    respond_with: input.respond_with ?? 204,
    requests: [],
    created_at: ctx.clock.now(),
  };
  await write(ctx, ['webhook_sinks'], async (tx) => {
    await tx.store('webhook_sinks').add(sink);
  });
  return sink;
}

/** A sink, or 404. */
export async function getWebhookSink(ctx: PlatformContext, id: string): Promise<WebhookSinkRecord> {
  const sink = await ctx.db.get('webhook_sinks', id);
  if (!sink) throw ApiError.of('UNKNOWN_ROUTE');
  return sink;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Receives one request: checks its signature against the `verify_key` of the application its
 * body names, records it, and resolves with the status to answer.
 */
export async function receiveAtWebhookSink(
  ctx: PlatformContext,
  id: string,
  request: { signature: string | null; timestamp: string | null; body: string },
): Promise<number> {
  const sink = await getWebhookSink(ctx, id);
  const body = parseBody(request.body);
  const named = (body as { application_id?: unknown } | null)?.application_id;
  const applicationId = isSnowflake(named) ? named : null;
  const keys = applicationId ? await ctx.db.get('event_webhooks', applicationId) : undefined;
  // Signature checks await WebCrypto: before the write.
  const valid = keys
    ? await verifyWebhookSignature(keys.verify_key, request.signature, request.timestamp, request.body)
    : false;
  const ping = (body as { type?: unknown } | null)?.type === WEBHOOK_TYPE.PING;
  const answered = !valid ? 401 : ping ? 204 : sink.respond_with;
  const received: WebhookSinkRequest = {
    received_at: ctx.clock.now(),
    signature: request.signature,
    timestamp: request.timestamp,
    body,
    application_id: applicationId,
    signature_valid: valid,
    answered,
  };
  await write(ctx, ['webhook_sinks'], async (tx) => {
    const current = await tx.store('webhook_sinks').get(id);
    if (!current) throw ApiError.of('UNKNOWN_ROUTE');
    await tx
      .store('webhook_sinks')
      .put({ ...current, requests: [...current.requests, received].slice(-WEBHOOK_SINK_REQUESTS_MAX) });
  });
  return answered;
}

/** A sink as the sandbox shows it: its URL and what it received, newest first. */
export function serializeWebhookSink(sink: WebhookSinkRecord, origin: string) {
  return {
    id: sink.id,
    url: `${origin}${WEBHOOK_SINK_PATH}/${sink.id}`,
    respond_with: sink.respond_with,
    requests: [...sink.requests].reverse().map((r) => ({
      received_at: new Date(r.received_at).toISOString(),
      headers: { 'x-signature-ed25519': r.signature, 'x-signature-timestamp': r.timestamp },
      body: r.body,
      application_id: r.application_id,
      signature_valid: r.signature_valid,
      answered: r.answered,
    })),
  };
}
