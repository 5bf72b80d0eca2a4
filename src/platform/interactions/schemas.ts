/**
 * Request schemas of interactions that are not commands (`command-schemas.ts`) or responses
 * (`callback.ts`): the callback route's path and query, the interaction webhook's path, and the
 * sandbox's interactions endpoint.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { snowflakeSchema } from '../core/schema-parts';
import { WEBHOOK_URL_MAX } from '../core/limits';

/** `POST /interactions/{interaction.id}/{interaction.token}/callback`: the interaction and its token. */
export const InteractionCallbackPathSchema = v.object({
  interaction_id: snowflakeSchema,
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
});

/** The callback's `with_response`. */
export const InteractionCallbackQuerySchema = v.object({
  with_response: v.optional(v.picklist(['true', 'false', 'True', 'False', '1', '0'])),
});

/** `/webhooks/{application.id}/{interaction.token}[/messages/{message.id}]`: an interaction's follow-up routes. */
export const InteractionWebhookPathSchema = v.object({
  application_id: snowflakeSchema,
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  message_id: v.optional(v.union([v.literal('@original'), snowflakeSchema], 'Must be @original or a snowflake.')),
});

/** `PUT /sandbox/applications/{id}/interactions-endpoint`: the URL interactions are sent to over HTTP, or null for the gateway. */
export const InteractionsEndpointSchema = jsonObject({
  url: v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(WEBHOOK_URL_MAX))),
});
