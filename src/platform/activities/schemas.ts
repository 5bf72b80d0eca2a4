/**
 * Request schemas of the activities area: quests and their enrollments, an activity's URL
 * mappings, and what an activity's platform client asks beyond the public API (`/rpc/...`).
 */
import * as v from 'valibot';
import { RPC_GET_USER_ID_MAX } from '../core/limits';
import { jsonObject } from '../core/json-object';
import { snowflakeSchema } from '../core/schema-parts';

/** `POST /sandbox/quests/{quest.id}/enrollments`: a user enrolls in a quest of an application. */
export const QuestEnrollmentSchema = jsonObject({
  application_id: snowflakeSchema,
  user_id: snowflakeSchema,
  quest_name: v.optional(v.pipe(v.string('Must be a string.'), v.minLength(1), v.maxLength(100)), 'Quest'),
});

/** An application route's path: the application. */
export const ApplicationPathSchema = v.object({ application_id: snowflakeSchema });

/** `PUT /sandbox/applications/{id}/url-mappings`: the whole set (each prefix and target checked by the rule). */
export const UrlMappingsSchema = jsonObject({
  url_mappings: v.array(
    jsonObject({
      prefix: v.pipe(v.string('Must be a string.'), v.maxLength(256, 'Must be 256 or fewer in length.')),
      target: v.pipe(v.string('Must be a string.'), v.maxLength(256, 'Must be 256 or fewer in length.')),
    }),
  ),
});

/** `/sandbox/users/{user.id}/...`: the user. */
export const SandboxUserPathSchema = v.object({ user_id: snowflakeSchema });

/** `GET /sandbox/quests/{quest.id}`: the quest. */
export const SandboxQuestPathSchema = v.object({ quest_id: snowflakeSchema });

/** `POST /sandbox/users/{user.id}/activity-joins`: whose activity of which application the user joins. */
export const ActivityJoinSchema = jsonObject({ application_id: snowflakeSchema, from_user_id: snowflakeSchema });

/** An id the platform client was asked about (GET_QUEST, GET_USER): any string, as the client takes it. */
const clientId = v.pipe(v.string(), v.minLength(1), v.maxLength(RPC_GET_USER_ID_MAX));

/** `/rpc/quests/{quest_id}`: the quest asked about. */
export const RpcQuestPathSchema = v.object({ quest_id: clientId });

/** `/rpc/users/{user_id}`: the user asked about. */
export const RpcUserPathSchema = v.object({ user_id: clientId });

/** `GET /rpc/share-targets`: where a moment or an interaction may be shared. */
export const ShareTargetsQuerySchema = v.object({
  channel_id: snowflakeSchema,
  purpose: v.picklist(['moment', 'interaction'], 'Must be "moment" or "interaction".'),
  media_url: v.optional(v.string()),
  command: v.optional(v.string()),
});

/** An absolute http(s) URL, as a page's request names it. */
const httpUrl = (message: string) =>
  v.pipe(v.string(), v.url(message), v.regex(/^https?:\/\//i, message), v.maxLength(4096));

/**
 * `POST /sandbox/url-mappings/resolve`: a request of a page on a server (`url`, and the page it
 * came from, `referrer`), whose URL mapping the server resolves.
 */
export const UrlMappingResolveSchema = jsonObject({
  url: httpUrl('Must be an absolute http: or https: URL.'),
  referrer: v.optional(v.union([v.literal(''), httpUrl('Must be an absolute http: or https: URL, or empty.')])),
});
