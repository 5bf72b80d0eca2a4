/**
 * Request schemas of the webhooks area: an application's event webhooks, the sandbox's webhook
 * sinks and the delivery list.
 */
import * as v from 'valibot';
import { WEBHOOK_DELIVERIES_LIST_MAX, WEBHOOK_URL_MAX } from '../core/limits';
import { jsonObject } from '../core/json-object';
import { queryInt, snowflakeSchema } from '../core/schema-parts';
import { WEBHOOK_EVENT_TYPES } from '../../store/records/webhooks';

/** `PUT /sandbox/applications/{id}/event-webhooks`: the events URL, the event types, on or off. */
export const EventWebhooksSchema = jsonObject({
  url: v.nullable(
    v.pipe(
      v.string('Must be a string.'),
      v.minLength(1, 'Must be 1 or more in length.'),
      v.maxLength(WEBHOOK_URL_MAX, `Must be ${WEBHOOK_URL_MAX} or fewer in length.`),
    ),
  ),
  types: v.optional(v.array(v.picklist(WEBHOOK_EVENT_TYPES, `Must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}.`))),
  enabled: v.optional(v.boolean('Must be a boolean.')),
});

/** `POST /sandbox/webhook-sinks`: the status the sink answers with. */
export const WebhookSinkSchema = jsonObject({
  respond_with: v.optional(
    v.pipe(
      v.number('Must be a number.'),
      v.integer('Must be an integer.'),
      v.minValue(200, 'Must be an HTTP status.'),
      v.maxValue(599, 'Must be an HTTP status.'),
    ),
  ),
});

/** `GET /sandbox/webhook-deliveries`: one application's, at most `limit`. */
export const WebhookDeliveriesQuerySchema = v.object({
  application_id: v.optional(snowflakeSchema),
  limit: v.optional(queryInt(1, WEBHOOK_DELIVERIES_LIST_MAX)),
});
