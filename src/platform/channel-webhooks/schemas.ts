/**
 * Request schemas of incoming webhooks: create, modify (with the bot's token or the webhook's),
 * execute and the paths and queries of their routes. Names are 1 to 80 characters and may not
 * contain "clyde" or "discord" (public docs), and so may an execution's `username`.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { snowflakeSchema } from '../core/schema-parts';
import { WEBHOOK_NAME_MAX } from '../core/limits';
import { MessageCreateSchema, MessageEditSchema } from '../messages/schemas';

/** A webhook's name, or an execution's `username`: 1-80 characters, no "clyde" nor "discord". */
export const webhookNameSchema = v.pipe(
  v.string('Must be a string.'),
  v.minLength(1, 'Must be between 1 and 80 in length.'),
  v.maxLength(WEBHOOK_NAME_MAX, 'Must be between 1 and 80 in length.'),
  v.check((name) => !/clyde|discord/i.test(name), 'Username cannot contain "clyde" or "discord".'),
);

/** An avatar: a base64 data URI (decoded by the domain code), or null for the default. */
const avatarSchema = v.nullish(v.string('Must be a data URI.'));

/** `POST /channels/{channel.id}/webhooks`. */
export const CreateWebhookSchema = jsonObject({ name: webhookNameSchema, avatar: avatarSchema });

/** `PATCH /webhooks/{webhook.id}`: also moves the webhook to another channel of its guild. */
export const ModifyWebhookSchema = jsonObject({
  name: v.optional(webhookNameSchema),
  avatar: avatarSchema,
  channel_id: v.optional(snowflakeSchema),
});

/** `PATCH /webhooks/{webhook.id}/{webhook.token}`: no `channel_id` without the bot's token. */
export const ModifyWebhookByTokenSchema = jsonObject({
  name: v.optional(webhookNameSchema),
  avatar: avatarSchema,
});

export type ModifyWebhookInput = v.InferOutput<typeof ModifyWebhookSchema>;

/** `POST /webhooks/{webhook.id}/{webhook.token}`: a message, with the name and avatar it is sent under. */
export const ExecuteWebhookSchema = jsonObject({
  ...MessageCreateSchema.entries,
  username: v.nullish(webhookNameSchema),
  avatar_url: v.nullish(v.pipe(v.string('Must be a URL.'), v.url('Not a well formed URL.'), v.maxLength(2048))),
  thread_name: v.nullish(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
});

export type ExecuteWebhookInput = v.InferOutput<typeof ExecuteWebhookSchema>;

/** `PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}`. */
export const EditWebhookMessageSchema = MessageEditSchema;

const boolQuery = v.pipe(
  v.picklist(['true', 'false', 'True', 'False', '1', '0'], 'Must be a boolean.'),
  v.transform((s) => s === 'true' || s === 'True' || s === '1'),
);

/** The query of an execution: `wait` (answer the message) and `thread_id`. */
export const ExecuteWebhookQuerySchema = v.object({
  wait: v.optional(boolQuery),
  thread_id: v.optional(snowflakeSchema),
  with_components: v.optional(boolQuery),
});

/** The query of a webhook message route: `thread_id`. */
export const WebhookMessageQuerySchema = v.object({ thread_id: v.optional(snowflakeSchema) });

/** A webhook route's path: the webhook, its token where the route names one, and a message. */
export const WebhookPathSchema = v.object({
  webhook_id: snowflakeSchema,
  token: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512))),
  message_id: v.optional(v.union([v.literal('@original'), snowflakeSchema], 'Must be @original or a snowflake.')),
});

/** `GET /channels/{channel.id}/webhooks` and `GET /guilds/{guild.id}/webhooks`. */
export const WebhookOwnerPathSchema = v.object({
  channel_id: v.optional(snowflakeSchema),
  guild_id: v.optional(snowflakeSchema),
});
