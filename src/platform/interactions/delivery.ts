/**
 * HTTP interactions: an application's interactions endpoint URL and the signed POSTs that carry
 * interactions there instead of the gateway (the two are mutually exclusive, as the public docs
 * have it). A URL is accepted only if the endpoint answers a signed PING (`{type: 1}`) with 200
 * and `{type: 1}` (PONG), and refuses the same PING with a bad signature. Requests are signed
 * like webhook events (Ed25519 over timestamp + body, the application's one key pair and
 * `verify_key`). An endpoint may answer an interaction inline with a 200 and an interaction
 * response (applied like a callback), or with 202 / 204 and use the callback route.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { InteractionEndpointRecord } from '../../store/records/interactions';
import { WEBHOOK_RESPONSE_TIMEOUT_MS } from '../core/limits';
import type { FetchLike } from '../oauth2/oidc';
import { ensureEventWebhooks } from '../webhooks/config';
import { signedWebhookRequest } from '../webhooks/signing';

/** What happened to a delivery, as the sandbox answers it (never the URL: it may hold a secret). */
export interface InteractionDelivery {
  via: 'gateway' | 'http' | 'platform';
  status?: number | null;
  error?: string;
  /** The endpoint answered inline with this callback type. */
  inline_response_type?: number;
}

/** POSTs `body` signed with the application's key; the answer, or null when none came in time. */
async function post(
  ctx: PlatformContext,
  send: FetchLike,
  applicationId: string,
  url: string,
  body: string,
  tamper = false,
): Promise<Response | null> {
  const keys = await ensureEventWebhooks(ctx, applicationId);
  try {
    const init = await signedWebhookRequest(keys.private_key, body, ctx.clock.now(), tamper);
    return await send(url, { ...init, signal: AbortSignal.timeout(WEBHOOK_RESPONSE_TIMEOUT_MS) });
  } catch {
    return null;
  }
}

async function readJsonBody(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/**
 * Sets (or with null removes) the application's interactions endpoint URL after validating it.
 * @example await configureInteractionsEndpoint(ctx, appId, 'https://bot.example/interactions', fetch);
 */
export async function configureInteractionsEndpoint(
  ctx: PlatformContext,
  applicationId: string,
  url: string | null,
  send: FetchLike,
): Promise<InteractionEndpointRecord | null> {
  if (!(await ctx.db.getKey('applications', applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
  if (url !== null) {
    const ping = JSON.stringify({ id: ctx.ids.next(), application_id: applicationId, type: 1, version: 1 });
    const signed = await post(ctx, send, applicationId, url, ping);
    const pong = signed && signed.status === 200 ? ((await readJsonBody(signed)) as { type?: unknown } | null) : null;
    if (!signed || pong?.type !== 1) {
      throw ApiError.invalidForm({
        interactions_endpoint_url: {
          code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
          message: 'The URL must answer a signed PING with 200 and {"type": 1}.',
        },
      });
    }
    const forged = await post(ctx, send, applicationId, url, ping, true);
    if (forged && forged.status >= 200 && forged.status < 300) {
      throw ApiError.invalidForm({
        interactions_endpoint_url: {
          code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
          message:
            'The URL accepted a PING with an invalid signature: it must verify X-Signature-Ed25519 and answer 401.',
        },
      });
    }
  }
  return write(ctx, ['interaction_endpoints'], async (tx) => {
    if (url === null) {
      await tx.store('interaction_endpoints').delete(applicationId);
      return null;
    }
    const record: InteractionEndpointRecord = { application_id: applicationId, url, updated_at: ctx.clock.now() };
    await tx.store('interaction_endpoints').put(record);
    return record;
  });
}

/**
 * Delivers an interaction (with its token: this request is not stored anywhere) to the
 * endpoint, and returns the inline response if the endpoint answered with one.
 */
export async function deliverOverHttp(
  ctx: PlatformContext,
  send: FetchLike,
  endpoint: InteractionEndpointRecord,
  interaction: Record<string, unknown>,
): Promise<{ delivery: InteractionDelivery; inline: unknown | null }> {
  const response = await post(ctx, send, endpoint.application_id, endpoint.url, JSON.stringify(interaction));
  if (!response)
    return {
      delivery: {
        via: 'http',
        status: null,
        error: `No answer within ${WEBHOOK_RESPONSE_TIMEOUT_MS / 1000} s (or a network error).`,
      },
      inline: null,
    };
  const delivery: InteractionDelivery = { via: 'http', status: response.status };
  if (response.status === 200) return { delivery, inline: await readJsonBody(response) };
  await response.body?.cancel().catch(() => undefined);
  if (response.status !== 202 && response.status !== 204)
    delivery.error = 'The endpoint did not accept the interaction.';
  return { delivery, inline: null };
}

/** The URL an application's interactions are sent to over HTTP, or null while they go over the gateway. */
export async function interactionsEndpointOf(ctx: PlatformContext, applicationId: string): Promise<string | null> {
  return (await ctx.db.get('interaction_endpoints', applicationId))?.url ?? null;
}
