/**
 * Request schemas of threads: starting one (from a message or alone), editing one, and the
 * queries of the member and archived lists. The routes validate with them before any rule runs.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import {
  ARCHIVED_THREADS_PAGE_MAX,
  SLOWMODE_MAX_S,
  THREAD_AUTO_ARCHIVE_DURATIONS,
  THREAD_MEMBERS_PAGE_MAX,
  THREAD_NAME_MAX,
} from '../core/limits';
import { bodyInt, isoInstant, queryInt, snowflakeSchema } from '../core/schema-parts';

const name = v.pipe(
  v.string('Must be a string.'),
  v.trim(),
  v.minLength(1, 'Must be between 1 and 100 in length.'),
  v.maxLength(THREAD_NAME_MAX, 'Must be between 1 and 100 in length.'),
);
const autoArchive = v.optional(
  v.nullable(v.picklist(THREAD_AUTO_ARCHIVE_DURATIONS, 'Value must be one of (60, 1440, 4320, 10080).')),
);
const slowmode = v.optional(v.nullable(bodyInt(0, SLOWMODE_MAX_S)));

/** `POST /channels/{id}/messages/{id}/threads`. */
export const StartThreadFromMessageSchema = jsonObject({
  name,
  auto_archive_duration: autoArchive,
  rate_limit_per_user: slowmode,
});

/** `POST /channels/{id}/threads` in a text or announcement channel; `type` defaults to a private thread. */
export const StartThreadSchema = jsonObject({
  name,
  auto_archive_duration: autoArchive,
  rate_limit_per_user: slowmode,
  type: v.optional(v.nullable(v.picklist([10, 11, 12], 'Value must be one of (10, 11, 12).'))),
  invitable: v.optional(v.nullable(v.boolean('Must be a boolean.'))),
});

/** What `editThread` changes (the thread fields of Modify Channel). */
export const EditThreadSchema = jsonObject({
  name: v.optional(name),
  archived: v.optional(v.nullable(v.boolean('Must be a boolean.'))),
  auto_archive_duration: autoArchive,
  locked: v.optional(v.nullable(v.boolean('Must be a boolean.'))),
  invitable: v.optional(v.nullable(v.boolean('Must be a boolean.'))),
  rate_limit_per_user: slowmode,
  flags: v.optional(v.nullable(bodyInt(0, 0))),
});

/** A thread route's path. */
export const ThreadPathSchema = v.object({
  channel_id: snowflakeSchema,
  message_id: v.optional(snowflakeSchema),
  user_id: v.optional(v.union([snowflakeSchema, v.literal('@me')])),
});

const bool = v.pipe(
  v.picklist(['true', 'false', 'True', 'False', '1', '0'], 'Must be a boolean.'),
  v.transform((s) => s === 'true' || s === 'True' || s === '1'),
);

/** `GET /channels/{id}/thread-members`: `with_member`, `after` (a user id), `limit`. */
export const ThreadMembersQuerySchema = v.object({
  with_member: v.optional(bool, 'false'),
  after: v.optional(snowflakeSchema),
  limit: v.optional(queryInt(1, THREAD_MEMBERS_PAGE_MAX)),
});

/** `GET /channels/{id}/thread-members/{user_id}`: `with_member`. */
export const ThreadMemberQuerySchema = v.object({ with_member: v.optional(bool, 'false') });

/** The archived lists of a channel: `before` an ISO-8601 time, `limit`. */
export const ArchivedThreadsQuerySchema = v.object({
  before: v.optional(isoInstant),
  limit: v.optional(queryInt(1, ARCHIVED_THREADS_PAGE_MAX)),
});

/** The current user's joined private archived threads: `before` a thread id, `limit`. */
export const JoinedArchivedThreadsQuerySchema = v.object({
  before: v.optional(snowflakeSchema),
  limit: v.optional(queryInt(1, ARCHIVED_THREADS_PAGE_MAX)),
});

/** `GET /channels/{id}/threads/search`: by name, archived or not, newest first or oldest, paged by offset. */
export const ThreadSearchQuerySchema = v.object({
  name: v.optional(v.pipe(v.string(), v.maxLength(THREAD_NAME_MAX))),
  archived: v.optional(bool),
  sort_by: v.optional(v.picklist(['last_message_time', 'archive_time', 'relevance', 'creation_time'])),
  sort_order: v.optional(v.picklist(['asc', 'desc'])),
  limit: v.optional(queryInt(1, 25)),
  offset: v.optional(queryInt(0, 9975)),
  min_id: v.optional(snowflakeSchema),
  max_id: v.optional(snowflakeSchema),
});
