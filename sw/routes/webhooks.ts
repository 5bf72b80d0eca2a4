/**
 * `{base_url}/webhooks`: incoming webhooks and interaction webhooks share these paths.
 * - `GET` / `PATCH` / `DELETE /webhooks/{webhook.id}`: a bot with MANAGE_WEBHOOKS.
 * - `GET` / `PATCH` / `DELETE /webhooks/{webhook.id}/{webhook.token}`: the webhook's token is the
 *   credential (no Authorization header).
 * - `POST /webhooks/{id}/{token}` and `GET` / `PATCH` / `DELETE .../messages/{message.id}` (and
 *   the literal `messages/@original`): when `id` is an incoming webhook's, its execution and its
 *   messages; otherwise `id` is an application and `token` an interaction's (a follow-up, where
 *   `wait` is always true, and the interaction's messages). JSON or multipart (`payload_json`,
 *   `files[n]`). Mounted before the authenticated API.
 * - `POST /webhooks/{webhook.id}/{webhook.token}/slack`: a Slack incoming-webhook body, answered `ok`.
 */
import { Hono } from 'hono';
import { interactionForWebhook } from '../../src/platform/interactions/tokens';
import {
  createFollowup,
  deleteInteractionWebhookMessage,
  editInteractionWebhookMessage,
  getInteractionWebhookMessage,
} from '../../src/platform/interactions/webhooks';
import { MessageCreateSchema, MessageEditSchema } from '../../src/platform/messages/schemas';
import { deleteWebhook, getWebhook, modifyWebhook } from '../../src/platform/channel-webhooks/manage';
import {
  deleteWebhookByToken,
  getWebhookByToken,
  modifyWebhookByToken,
  requireWebhookToken,
  webhookByToken,
} from '../../src/platform/channel-webhooks/by-token';
import { SlackWebhookSchema, slackExecution } from '../../src/platform/channel-webhooks/slack';
import {
  deleteWebhookMessage,
  editWebhookMessage,
  executeWebhook,
  getWebhookMessage,
} from '../../src/platform/channel-webhooks/execute';
import {
  EditWebhookMessageSchema,
  ExecuteWebhookQuerySchema,
  ExecuteWebhookSchema,
  ModifyWebhookByTokenSchema,
  ModifyWebhookSchema,
  WebhookMessageQuerySchema,
  WebhookPathSchema,
} from '../../src/platform/channel-webhooks/schemas';
import type { ChannelWebhookRecord } from '../../src/store/records/channel-webhooks';
import type { InteractionRecord } from '../../src/store/records/interactions';
import { botOf, noContent, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';
import { readMessageRequest } from './message-uploads';

const ids = (c: AppContext) => validate(WebhookPathSchema, c.req.param());
const origin = (c: AppContext) => new URL(c.req.url).origin;

/** Whose path it is: an incoming webhook's (checked against its token), or an interaction's. */
type PathOwner = { webhook: ChannelWebhookRecord } | { interaction: InteractionRecord };

async function ownerOf(c: AppContext): Promise<PathOwner> {
  const { webhook_id, token } = ids(c);
  const webhook = await c.get('ctx').db.get('channel_webhooks', webhook_id);
  if (webhook) return { webhook: requireWebhookToken(webhook, token!) };
  return { interaction: await interactionForWebhook(c.get('ctx'), webhook_id, token!) };
}

/** The message a message route names: its `:message_id`, or `@original` on the literal route. */
const messageIdOf = (c: AppContext) => ids(c).message_id ?? '@original';

async function readMessage(c: AppContext) {
  const owner = await ownerOf(c);
  const messageId = messageIdOf(c);
  if ('webhook' in owner) {
    const { thread_id } = readQuery(c, WebhookMessageQuerySchema);
    return c.json(await getWebhookMessage(c.get('ctx'), owner.webhook, messageId, thread_id));
  }
  return c.json(await getInteractionWebhookMessage(c.get('ctx'), owner.interaction, messageId));
}

async function editMessage(c: AppContext) {
  const owner = await ownerOf(c);
  const messageId = messageIdOf(c);
  if ('webhook' in owner) {
    const { thread_id } = readQuery(c, WebhookMessageQuerySchema);
    const { body, files } = await readMessageRequest(c, EditWebhookMessageSchema);
    return c.json(
      await editWebhookMessage(c.get('ctx'), owner.webhook, messageId, body, files, {
        threadId: thread_id,
        origin: origin(c),
      }),
    );
  }
  const { body, files } = await readMessageRequest(c, MessageEditSchema);
  return c.json(
    await editInteractionWebhookMessage(c.get('ctx'), owner.interaction, messageId, body, files, origin(c)),
  );
}

async function deleteMessage(c: AppContext) {
  const owner = await ownerOf(c);
  const messageId = messageIdOf(c);
  if ('webhook' in owner) {
    const { thread_id } = readQuery(c, WebhookMessageQuerySchema);
    await deleteWebhookMessage(c.get('ctx'), owner.webhook, messageId, thread_id);
  } else await deleteInteractionWebhookMessage(c.get('ctx'), owner.interaction, messageId);
  return noContent();
}

/** The webhook routes (mounted at `{base_url}/webhooks`). */
export function webhookRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/:webhook_id', async (c) => c.json(await getWebhook(c.get('ctx'), botOf(c), ids(c).webhook_id)));
  r.patch('/:webhook_id', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, ModifyWebhookSchema);
    return c.json(await modifyWebhook(c.get('ctx'), principal, ids(c).webhook_id, body));
  });
  r.delete('/:webhook_id', async (c) => {
    await deleteWebhook(c.get('ctx'), botOf(c), ids(c).webhook_id);
    return noContent();
  });

  r.get('/:webhook_id/:token', async (c) => {
    const { webhook_id, token } = ids(c);
    return c.json(await getWebhookByToken(c.get('ctx'), webhook_id, token!));
  });
  r.patch('/:webhook_id/:token', async (c) => {
    const { webhook_id, token } = ids(c);
    const body = await readJson(c, ModifyWebhookByTokenSchema);
    return c.json(await modifyWebhookByToken(c.get('ctx'), webhook_id, token!, body));
  });
  r.delete('/:webhook_id/:token', async (c) => {
    const { webhook_id, token } = ids(c);
    await deleteWebhookByToken(c.get('ctx'), webhook_id, token!);
    return noContent();
  });

  r.post('/:webhook_id/:token', async (c) => {
    const owner = await ownerOf(c);
    if ('webhook' in owner) {
      const query = readQuery(c, ExecuteWebhookQuerySchema);
      const { body, files } = await readMessageRequest(c, ExecuteWebhookSchema);
      const message = await executeWebhook(c.get('ctx'), owner.webhook, body, files, query, origin(c));
      return message ? c.json(message) : noContent();
    }
    const { body, files } = await readMessageRequest(c, MessageCreateSchema);
    return c.json(await createFollowup(c.get('ctx'), owner.interaction, body, files, origin(c)));
  });

  r.post('/:webhook_id/:token/slack', async (c) => {
    const { webhook_id, token } = ids(c);
    const webhook = await webhookByToken(c.get('ctx'), webhook_id, token!);
    const query = readQuery(c, ExecuteWebhookQuerySchema);
    const body = validate(ExecuteWebhookSchema, slackExecution(await readJson(c, SlackWebhookSchema)));
    await executeWebhook(c.get('ctx'), webhook, body, [], query, origin(c));
    return c.text('ok');
  });

  // The literal `@original` first: the official description names it as an operation of its own.
  r.get('/:webhook_id/:token/messages/@original', readMessage);
  r.patch('/:webhook_id/:token/messages/@original', editMessage);
  r.delete('/:webhook_id/:token/messages/@original', deleteMessage);
  r.get('/:webhook_id/:token/messages/:message_id', readMessage);
  r.patch('/:webhook_id/:token/messages/:message_id', editMessage);
  r.delete('/:webhook_id/:token/messages/:message_id', deleteMessage);
  return r;
}
