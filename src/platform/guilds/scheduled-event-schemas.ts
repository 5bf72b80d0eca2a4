/**
 * Request schemas of a scheduled event's own routes: modify, the users page and its count, and
 * the sandbox control that marks a user interested. The create schema lives with the other guild
 * bodies in `schemas.ts`.
 */
import * as v from 'valibot';
import {
  SCHEDULED_EVENT_DESCRIPTION_MAX,
  SCHEDULED_EVENT_LOCATION_MAX,
  SCHEDULED_EVENT_NAME_MAX,
  SCHEDULED_EVENT_USERS_LIMIT_MAX,
} from '../core/limits';
import { jsonObject } from '../core/json-object';
import { isoInstant, queryInt, snowflakeSchema } from '../core/schema-parts';

/** A boolean query string as the platform reads it (`true`/`True`/`1`, `false`/`False`/`0`). */
const queryBoolean = v.pipe(
  v.picklist(['true', 'True', '1', 'false', 'False', '0'], 'Must be true or false.'),
  v.transform((s) => s === 'true' || s === 'True' || s === '1'),
);

/** The path of a scheduled event route: the guild, the event and (sandbox) the user. */
export const ScheduledEventPathSchema = v.object({
  guild_id: snowflakeSchema,
  event_id: snowflakeSchema,
  user_id: v.optional(snowflakeSchema),
});

/** `GET .../scheduled-events/{id}` (and the list): `with_user_count`. */
export const ScheduledEventQuerySchema = v.object({
  with_user_count: v.optional(queryBoolean, 'false'),
});

/** `GET .../scheduled-events/{id}/users`: a page of interested users by user id. */
export const ScheduledEventUsersQuerySchema = v.object({
  limit: v.optional(queryInt(1, SCHEDULED_EVENT_USERS_LIMIT_MAX), String(SCHEDULED_EVENT_USERS_LIMIT_MAX)),
  with_member: v.optional(queryBoolean, 'false'),
  before: v.optional(snowflakeSchema),
  after: v.optional(snowflakeSchema),
});

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `Must be ${max} or fewer in length.`));

/**
 * `PATCH /guilds/{guild.id}/scheduled-events/{id}`: every field optional. `image` may only be
 * cleared (the sandbox stores no cover images); a recurrence rule may only be null (its events
 * are one-time).
 */
export const ModifyScheduledEventSchema = jsonObject({
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(SCHEDULED_EVENT_NAME_MAX))),
  description: v.optional(v.nullable(text(SCHEDULED_EVENT_DESCRIPTION_MAX))),
  privacy_level: v.optional(v.literal(2, 'Must be 2 (GUILD_ONLY).')),
  entity_type: v.optional(v.nullable(v.picklist([1, 2, 3], 'Must be 1 (stage), 2 (voice) or 3 (external).'))),
  channel_id: v.optional(v.nullable(snowflakeSchema)),
  entity_metadata: v.optional(
    v.nullable(
      jsonObject({
        location: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(SCHEDULED_EVENT_LOCATION_MAX))),
      }),
    ),
  ),
  scheduled_start_time: v.optional(isoInstant),
  scheduled_end_time: v.optional(v.nullable(isoInstant)),
  status: v.optional(v.nullable(v.picklist([1, 2, 3, 4], 'Must be 1, 2, 3 or 4.'))),
  image: v.optional(v.null('The sandbox stores no cover image: only null is accepted.')),
  recurrence_rule: v.optional(v.null('Events here are one-time: only null is accepted.')),
});
