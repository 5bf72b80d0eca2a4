/**
 * Request schemas of role connections: an application's metadata records and a user's
 * connection, with the lengths and key rules of the platform's docs.
 */
import * as v from 'valibot';
import {
  ROLE_CONNECTION_DESCRIPTION_MAX,
  ROLE_CONNECTION_KEY_MAX,
  ROLE_CONNECTION_METADATA_MAX,
  ROLE_CONNECTION_NAME_MAX,
  ROLE_CONNECTION_PLATFORM_NAME_MAX,
  ROLE_CONNECTION_PLATFORM_USERNAME_MAX,
  ROLE_CONNECTION_VALUE_MAX,
} from '../core/limits';
import { jsonObject } from '../core/json-object';
import { dictionary } from '../core/schema-parts';

const text = (max: number) =>
  v.pipe(
    v.string(),
    v.minLength(1, `Must be between 1 and ${max} in length.`),
    v.maxLength(max, `Must be between 1 and ${max} in length.`),
  );

const localizations = (max: number) => v.optional(v.nullable(dictionary(text(max))));

/** `PUT /applications/{id}/role-connections/metadata`: the records (at most 5). */
export const RoleConnectionMetadataSchema = v.pipe(
  v.array(
    jsonObject({
      type: v.picklist([1, 2, 3, 4, 5, 6, 7, 8], 'Must be a metadata type from 1 to 8.'),
      key: v.pipe(
        v.string(),
        v.regex(
          new RegExp(`^[a-z0-9_]{1,${ROLE_CONNECTION_KEY_MAX}}$`),
          `Must be 1 to ${ROLE_CONNECTION_KEY_MAX} characters of a-z, 0-9 and _.`,
        ),
      ),
      name: text(ROLE_CONNECTION_NAME_MAX),
      name_localizations: localizations(ROLE_CONNECTION_NAME_MAX),
      description: text(ROLE_CONNECTION_DESCRIPTION_MAX),
      description_localizations: localizations(ROLE_CONNECTION_DESCRIPTION_MAX),
    }),
    'Must be an array of metadata records.',
  ),
  v.maxLength(ROLE_CONNECTION_METADATA_MAX, `Must be ${ROLE_CONNECTION_METADATA_MAX} or fewer in length.`),
);

/** `PUT /users/@me/applications/{id}/role-connection`. */
export const RoleConnectionSchema = jsonObject({
  platform_name: v.optional(v.nullable(text(ROLE_CONNECTION_PLATFORM_NAME_MAX))),
  platform_username: v.optional(v.nullable(text(ROLE_CONNECTION_PLATFORM_USERNAME_MAX))),
  metadata: v.optional(
    v.nullable(
      dictionary(
        v.pipe(
          v.string('Values are strings.'),
          v.maxLength(ROLE_CONNECTION_VALUE_MAX, `Must be ${ROLE_CONNECTION_VALUE_MAX} or fewer in length.`),
        ),
      ),
    ),
  ),
});
