/**
 * Executing an incoming webhook (`POST /webhooks/{webhook.id}/{webhook.token}`) and its messages
 * (`GET` / `PATCH` / `DELETE .../messages/{message.id}`). The token authorizes: no channel
 * permission is checked. The message's author is the webhook (its id, the execution's
 * `username` or the webhook's name, `bot: true`), the message carries `webhook_id` and, for a
 * webhook an application made, `application_id`. `wait=false` (the default) answers 204; with
 * `wait=true` the message. `thread_id` sends into a thread of the webhook's channel. The
 * webhook upload limit applies (10 MiB from 2025-01-16). A webhook reaches only its own
 * messages (404 10008 for any other; `@original` belongs to interactions only).
 */
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { UploadedFile } from '../messages/attachments';
import { createMessage, type MessageAuthor } from '../messages/create';
import { deleteMessage, editMessage } from '../messages/edits';
import { messageOrderKey } from '../messages/keys';
import type { MessageEditInput } from '../messages/schemas';
import { loadUsers, serializeChannelMessage, userIdsOf, type ChannelMessage } from '../messages/wire';
import { CHANNEL_MESSAGE_FLAGS } from '../../store/records/messages';
import type { ChannelWebhookRecord } from '../../store/records/channel-webhooks';
import type { ExecuteWebhookInput } from './schemas';
import { webhookAuthor } from './wire';

/** Flags an execution may set (public docs). */
const WEBHOOK_MESSAGE_FLAGS =
  CHANNEL_MESSAGE_FLAGS.SUPPRESS_EMBEDS |
  CHANNEL_MESSAGE_FLAGS.SUPPRESS_NOTIFICATIONS |
  CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2;

/** Thread channel types (announcement, public and private threads). */
const THREAD_TYPES: readonly number[] = [10, 11, 12];

/** The webhook as the message code's author: a bot user with the webhook's id, stored nowhere. */
function authorOf(webhook: ChannelWebhookRecord, username?: string | null): MessageAuthor {
  return {
    user: {
      id: webhook.id,
      username: username ?? webhook.name,
      global_name: null,
      discriminator: '0',
      avatar: webhook.avatar,
      bot: true,
      premium_type: 0,
      primary_guild: null,
      provisional: false,
      created_at: webhook.created_at,
    },
    application: null,
  };
}

/** The channel a request of the webhook targets: its own, or a thread of it (`thread_id`). */
async function targetChannel(ctx: PlatformContext, webhook: ChannelWebhookRecord, threadId?: string): Promise<string> {
  if (threadId === undefined) return webhook.channel_id;
  const thread = await ctx.db.get('channels', threadId);
  if (!thread || !THREAD_TYPES.includes(thread.type) || thread.parent_id !== webhook.channel_id)
    throw ApiError.of('UNKNOWN_CHANNEL');
  return thread.id;
}

/**
 * Sends a message as the webhook; the message, or null when the caller did not wait for it.
 * @example await executeWebhook(ctx, webhook, { content: 'deployed' }, [], { wait: true }, origin);
 */
export async function executeWebhook(
  ctx: PlatformContext,
  webhook: ChannelWebhookRecord,
  input: ExecuteWebhookInput,
  files: readonly UploadedFile[],
  query: { wait?: boolean; thread_id?: string },
  origin: string,
): Promise<ChannelMessage | null> {
  const { username, avatar_url, thread_name: _threadName, ...message } = input;
  const channelId = await targetChannel(ctx, webhook, query.thread_id);
  const sent = await createMessage(ctx, {
    channelId,
    author: authorOf(webhook, username),
    input: message,
    files,
    checkPermissions: false,
    uploadContext: 'webhook',
    origin,
    allowedFlags: WEBHOOK_MESSAGE_FLAGS,
    applicationId: webhook.application_id,
    webhookId: webhook.id,
    webhookAuthor: webhookAuthor(webhook, { username, avatar_url }),
  });
  return query.wait ? sent : null;
}

/** The webhook's own message in the channel: 404 10008 for `@original` or anyone else's. */
async function ownMessage(ctx: PlatformContext, webhook: ChannelWebhookRecord, channelId: string, messageId: string) {
  if (messageId === '@original') throw ApiError.of('UNKNOWN_MESSAGE');
  const record = await ctx.db.get('channel_messages', [channelId, messageOrderKey(messageId)]);
  if (!record || record.webhook_id !== webhook.id) throw ApiError.of('UNKNOWN_MESSAGE');
  return record;
}

/** `GET /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}`. */
export async function getWebhookMessage(
  ctx: PlatformContext,
  webhook: ChannelWebhookRecord,
  messageId: string,
  threadId?: string,
): Promise<ChannelMessage> {
  const record = await ownMessage(ctx, webhook, await targetChannel(ctx, webhook, threadId), messageId);
  const tx = ctx.db.read(['users']);
  return serializeChannelMessage(record, await loadUsers(tx as never, userIdsOf([record])));
}

/** `PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}`: as any edit, by its author. */
export async function editWebhookMessage(
  ctx: PlatformContext,
  webhook: ChannelWebhookRecord,
  messageId: string,
  input: MessageEditInput,
  files: readonly UploadedFile[],
  options: { threadId?: string; origin: string },
): Promise<ChannelMessage> {
  const channelId = await targetChannel(ctx, webhook, options.threadId);
  await ownMessage(ctx, webhook, channelId, messageId);
  return editMessage(ctx, {
    channelId,
    messageId,
    editor: authorOf(webhook),
    input,
    files,
    checkPermissions: false,
    uploadContext: 'webhook',
    origin: options.origin,
  });
}

/** `DELETE /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}`. */
export async function deleteWebhookMessage(
  ctx: PlatformContext,
  webhook: ChannelWebhookRecord,
  messageId: string,
  threadId?: string,
): Promise<void> {
  const channelId = await targetChannel(ctx, webhook, threadId);
  await ownMessage(ctx, webhook, channelId, messageId);
  await deleteMessage(ctx, { channelId, messageId, actor: authorOf(webhook), checkPermissions: false });
}
