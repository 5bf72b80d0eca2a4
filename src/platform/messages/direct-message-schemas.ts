/**
 * The request shapes of the direct-message and moderation-metadata routes, as valibot schemas
 * (ARCHITECTURE rule 4). Lengths count characters (code points), as for lobby messages.
 */
import * as v from 'valibot';
import {
  DM_MESSAGE_CONTENT_MAX,
  DM_MESSAGES_MAX,
  MODERATION_METADATA_KEY_MAX,
  MODERATION_METADATA_KEYS_MAX,
  MODERATION_METADATA_VALUE_MAX,
} from '../core/limits';
import { charLength, LobbyMessageMetadataSchema } from '../lobbies/schemas';
import { jsonObject } from '../core/json-object';
import { dictionary, queryInt, snowflakeSchema } from '../core/schema-parts';

const snowflake = snowflakeSchema;

/** `POST /users/@me/dms/{recipient_id}/messages`: 1 to 2000 characters, and metadata as a lobby message takes it. */
export const DmMessageSchema = jsonObject({
  content: v.pipe(
    v.string('This field is required'),
    v.minLength(1, 'Must be 1 or more in length.'),
    v.check(
      (s: string) => charLength(s) <= DM_MESSAGE_CONTENT_MAX,
      `Must be ${DM_MESSAGE_CONTENT_MAX} or fewer in length.`,
    ),
  ),
  metadata: v.optional(LobbyMessageMetadataSchema),
});

/** `GET /users/@me/dms/{recipient_id}/messages?limit=` (1-200). */
export const DmMessagesQuerySchema = v.object({
  limit: v.optional(queryInt(1, DM_MESSAGES_MAX)),
});

/**
 * The body of both moderation-metadata endpoints: the metadata itself, a dictionary of strings
 * with at most 5 keys, each key at most 1024 characters and each value at most 2000.
 */
export const ModerationMetadataSchema = v.pipe(
  dictionary(v.string('Metadata values must be strings.'), 'Body must be a dictionary of strings.'),
  v.check(
    (m) => Object.keys(m).length <= MODERATION_METADATA_KEYS_MAX,
    `Metadata must have ${MODERATION_METADATA_KEYS_MAX} or fewer keys.`,
  ),
  v.check(
    (m) => Object.keys(m).every((k) => charLength(k) <= MODERATION_METADATA_KEY_MAX),
    `Metadata keys must be ${MODERATION_METADATA_KEY_MAX} or fewer in length.`,
  ),
  v.check(
    (m) => Object.values(m).every((value) => charLength(value) <= MODERATION_METADATA_VALUE_MAX),
    `Metadata values must be ${MODERATION_METADATA_VALUE_MAX} or fewer in length.`,
  ),
);

/** Path parameters of the DM and moderation routes. */
export const DmPathSchema = v.object({
  recipient_id: v.optional(snowflake),
  user_id_1: v.optional(snowflake),
  user_id_2: v.optional(snowflake),
  lobby_id: v.optional(snowflake),
  message_id: v.optional(snowflake),
});

/** The body of `POST /users/@me/dms/{recipient_id}/messages`. */
export type DmMessageInput = v.InferOutput<typeof DmMessageSchema>;
