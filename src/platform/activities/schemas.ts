/**
 * Request schemas of the activities area: quest enrollments and an activity's URL mappings.
 */
import * as v from 'valibot';
import { snowflakeSchema } from '../core/schema-parts';

/** `POST /sandbox/quests/{quest.id}/enrollments`: a user enrolls in a quest of an application. */
export const QuestEnrollmentSchema = v.object({
  application_id: snowflakeSchema,
  user_id: snowflakeSchema,
  quest_name: v.optional(v.pipe(v.string('Must be a string.'), v.minLength(1), v.maxLength(100)), 'Quest'),
});

/** An application route's path: the application. */
export const ApplicationPathSchema = v.object({ application_id: snowflakeSchema });

/** `PUT /sandbox/applications/{id}/url-mappings`: the whole set (each prefix and target checked by the rule). */
export const UrlMappingsSchema = v.object({
  url_mappings: v.array(
    v.object({
      prefix: v.pipe(v.string('Must be a string.'), v.maxLength(256, 'Must be 256 or fewer in length.')),
      target: v.pipe(v.string('Must be a string.'), v.maxLength(256, 'Must be 256 or fewer in length.')),
    }),
  ),
});
