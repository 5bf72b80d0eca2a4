/**
 * Incoming webhooks with their own token as the credential (no Authorization header):
 * `GET` / `PATCH` / `DELETE /webhooks/{webhook.id}/{webhook.token}`. An unknown webhook is 404
 * 10015, a wrong token 401 50027. The answer carries no `user`; a change is audited with no user.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { ChannelWebhookRecord } from '../../store/records/channel-webhooks';
import { WEBHOOK_WRITE_STORES, decodeAvatar, removeWebhook, saveModification, webhookOf } from './changes';
import { serializeWebhook, type WebhookObject } from './wire';

/** Constant-time comparison, so the time a refusal takes tells nothing of the token. */
function sameToken(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/** Throws 401 50027 unless `token` is the webhook's. */
export function requireWebhookToken(webhook: ChannelWebhookRecord, token: string): ChannelWebhookRecord {
  if (!sameToken(webhook.token, token)) throw ApiError.of('INVALID_WEBHOOK_TOKEN');
  return webhook;
}

/**
 * The webhook whose id and token the path names: 404 10015 for an unknown webhook, 401 50027
 * for a wrong token.
 */
export async function webhookByToken(
  ctx: PlatformContext,
  webhookId: string,
  token: string,
): Promise<ChannelWebhookRecord> {
  const webhook = await ctx.db.get('channel_webhooks', webhookId);
  if (!webhook) throw ApiError.of('UNKNOWN_WEBHOOK');
  return requireWebhookToken(webhook, token);
}

/** `GET /webhooks/{webhook.id}/{webhook.token}`: the webhook without `user`. */
export async function getWebhookByToken(
  ctx: PlatformContext,
  webhookId: string,
  token: string,
): Promise<WebhookObject> {
  return serializeWebhook(await webhookByToken(ctx, webhookId, token), { withToken: true });
}

/** `PATCH /webhooks/{webhook.id}/{webhook.token}`: name and avatar only. */
export async function modifyWebhookByToken(
  ctx: PlatformContext,
  webhookId: string,
  token: string,
  input: { name?: string; avatar?: string | null },
): Promise<WebhookObject> {
  const avatar = await decodeAvatar(input.avatar);
  return write(ctx, WEBHOOK_WRITE_STORES, async (tx, emit) => {
    const current = requireWebhookToken(await webhookOf(tx, webhookId), token);
    const next = await saveModification(ctx, tx, emit, current, { name: input.name, avatar }, null);
    return serializeWebhook(next, { withToken: true });
  });
}

/** `DELETE /webhooks/{webhook.id}/{webhook.token}`. */
export async function deleteWebhookByToken(ctx: PlatformContext, webhookId: string, token: string): Promise<void> {
  await write(ctx, WEBHOOK_WRITE_STORES, async (tx, emit) => {
    const webhook = requireWebhookToken(await webhookOf(tx, webhookId), token);
    await removeWebhook(ctx, tx, emit, webhook, null);
  });
}
