/**
 * Request schemas of guild channel messages (valibot): create and edit bodies (also the
 * `payload_json` of a multipart request), allowed mentions, message references, attachment
 * requests and polls. Shared with the interactions code, which creates messages the same way.
 */
import * as v from 'valibot';
import { MessageComponentsSchema } from '../interactions/components';
import { EmbedsSchema } from './embeds';
import {
  ALLOWED_MENTIONS_IDS_MAX,
  ATTACHMENT_DESCRIPTION_MAX,
  ATTACHMENTS_PER_MESSAGE_MAX,
  AUTOMOD_KEYWORD_MAX,
  AUTOMOD_KEYWORDS_MAX,
  BULK_DELETE_MAX,
  BULK_DELETE_MIN,
  CHANNEL_MESSAGES_MAX,
  MESSAGE_CONTENT_MAX,
  MESSAGE_NONCE_MAX,
  PINS_PAGE_MAX,
  POLL_ANSWER_TEXT_MAX,
  POLL_ANSWERS_MAX,
  POLL_DURATION_MAX_H,
  POLL_QUESTION_MAX,
  POLL_VOTERS_PAGE_MAX,
  REACTION_USERS_PAGE_MAX,
  STICKERS_PER_MESSAGE_MAX,
} from '../core/limits';
import { CHANNEL_MESSAGE_FLAGS, MESSAGE_REFERENCE_TYPES } from '../../store/records/messages';
import { jsonObject } from '../core/json-object';
import { bodyInt, flagsInt, isoInstant, queryInt, safeIntSchema, snowflakeSchema } from '../core/schema-parts';

const max = <T extends v.LengthInput>(n: number) =>
  v.maxLength<T, number, string>(n, `Must be ${n} or fewer in length.`);

const snowflake = snowflakeSchema;

/** At most `n` characters (code points, not UTF-16 units). */
const chars = (n: number) =>
  v.pipe(
    v.string(),
    v.check((s) => [...s].length <= n, `Must be ${n} or fewer in length.`),
  );

/** Flags a create request may set. */
export const CREATE_MESSAGE_FLAGS =
  CHANNEL_MESSAGE_FLAGS.SUPPRESS_EMBEDS |
  CHANNEL_MESSAGE_FLAGS.SUPPRESS_NOTIFICATIONS |
  CHANNEL_MESSAGE_FLAGS.IS_VOICE_MESSAGE |
  CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2;

/** Flags an edit may change: SUPPRESS_EMBEDS both ways, IS_COMPONENTS_V2 only on. */
export const EDIT_MESSAGE_FLAGS = CHANNEL_MESSAGE_FLAGS.SUPPRESS_EMBEDS | CHANNEL_MESSAGE_FLAGS.IS_COMPONENTS_V2;

/** `allowed_mentions`: which mentions in the content are parsed, or exactly which users and roles. */
export const AllowedMentionsSchema = v.pipe(
  jsonObject({
    parse: v.optional(v.array(v.picklist(['users', 'roles', 'everyone']))),
    users: v.optional(v.pipe(v.array(snowflake), max(ALLOWED_MENTIONS_IDS_MAX))),
    roles: v.optional(v.pipe(v.array(snowflake), max(ALLOWED_MENTIONS_IDS_MAX))),
    replied_user: v.optional(v.boolean()),
  }),
  v.forward(
    v.check((a) => !(a.parse?.includes('users') && a.users), 'parse:["users"] and users are mutually exclusive.'),
    ['users'],
  ),
  v.forward(
    v.check((a) => !(a.parse?.includes('roles') && a.roles), 'parse:["roles"] and roles are mutually exclusive.'),
    ['roles'],
  ),
);

export type AllowedMentions = v.InferOutput<typeof AllowedMentionsSchema>;

/** A reply (type 0, DEFAULT) or a FORWARD (type 1, which needs `channel_id`). */
export const MessageReferenceSchema = v.pipe(
  jsonObject({
    type: v.optional(
      v.picklist([MESSAGE_REFERENCE_TYPES.DEFAULT, MESSAGE_REFERENCE_TYPES.FORWARD]),
      MESSAGE_REFERENCE_TYPES.DEFAULT,
    ),
    message_id: snowflake,
    channel_id: v.optional(snowflake),
    guild_id: v.optional(snowflake),
    fail_if_not_exists: v.optional(v.boolean(), true),
  }),
  v.forward(
    v.check(
      (r) => r.type !== MESSAGE_REFERENCE_TYPES.FORWARD || r.channel_id !== undefined,
      'A forward needs the channel_id of the message.',
    ),
    ['channel_id'],
  ),
);

export type MessageReferenceInput = v.InferOutput<typeof MessageReferenceSchema>;

/** An attachment request: `id` is the n of `files[n]` for a new file, the snowflake of a kept attachment. */
export const AttachmentRequestSchema = jsonObject({
  id: v.union([snowflake, bodyInt(0, ATTACHMENTS_PER_MESSAGE_MAX - 1)], 'Must be a file index or an attachment id.'),
  filename: v.optional(v.pipe(v.string(), v.minLength(1), max(1024))),
  title: v.optional(v.pipe(v.string(), max(1024))),
  description: v.optional(chars(ATTACHMENT_DESCRIPTION_MAX)),
  is_spoiler: v.optional(v.boolean()),
  duration_secs: v.optional(v.pipe(v.number(), v.minValue(0))),
  waveform: v.optional(v.string()),
});

const AttachmentRequestsSchema = v.pipe(v.array(AttachmentRequestSchema), max(ATTACHMENTS_PER_MESSAGE_MAX));

/** A poll request: a question, 1 to 10 answers, a duration in hours. */
export const PollRequestSchema = jsonObject({
  question: jsonObject({ text: v.pipe(v.string(), v.minLength(1), chars(POLL_QUESTION_MAX)) }),
  answers: v.pipe(
    v.array(
      jsonObject({
        poll_media: jsonObject({
          text: v.pipe(v.string(), v.minLength(1), chars(POLL_ANSWER_TEXT_MAX)),
          emoji: v.optional(
            jsonObject({ id: v.optional(v.nullable(snowflake)), name: v.optional(v.nullable(v.string())) }),
          ),
        }),
      }),
    ),
    v.minLength(1, 'Must be between 1 and 10 in length.'),
    max(POLL_ANSWERS_MAX),
  ),
  duration: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(POLL_DURATION_MAX_H))),
  allow_multiselect: v.optional(v.boolean()),
  layout_type: v.optional(v.literal(1)),
});

export type PollRequest = v.InferOutput<typeof PollRequestSchema>;

const flags = flagsInt();

/** `POST /channels/{id}/messages` (JSON body, or `payload_json` of a multipart body). */
export const MessageCreateSchema = jsonObject({
  content: v.nullish(chars(MESSAGE_CONTENT_MAX)),
  nonce: v.nullish(
    v.union(
      [safeIntSchema, v.pipe(v.string(), max(MESSAGE_NONCE_MAX))],
      'Must be an integer or a string of 25 or fewer characters.',
    ),
  ),
  enforce_nonce: v.nullish(v.boolean()),
  tts: v.nullish(v.boolean()),
  embeds: v.nullish(EmbedsSchema),
  allowed_mentions: v.nullish(AllowedMentionsSchema),
  message_reference: v.nullish(MessageReferenceSchema),
  components: v.nullish(MessageComponentsSchema),
  sticker_ids: v.nullish(v.pipe(v.array(snowflake), max(STICKERS_PER_MESSAGE_MAX))),
  attachments: v.nullish(AttachmentRequestsSchema),
  flags: v.nullish(flags),
  poll: v.nullish(PollRequestSchema),
});

export type MessageCreateInput = v.InferOutput<typeof MessageCreateSchema>;

/** `PATCH /channels/{id}/messages/{id}`: every field optional and nullable. */
export const MessageEditSchema = jsonObject({
  content: v.nullish(chars(MESSAGE_CONTENT_MAX)),
  embeds: v.nullish(EmbedsSchema),
  flags: v.nullish(flags),
  allowed_mentions: v.nullish(AllowedMentionsSchema),
  components: v.nullish(MessageComponentsSchema),
  attachments: v.nullish(AttachmentRequestsSchema),
  /** Accepted only where the caller allows it (editing a deferred interaction response). */
  poll: v.nullish(PollRequestSchema),
  sticker_ids: v.nullish(v.pipe(v.array(snowflake), max(STICKERS_PER_MESSAGE_MAX))),
});

export type MessageEditInput = v.InferOutput<typeof MessageEditSchema>;

/** `/attachments/{channel.id}/{attachment.id}/{filename}`: where an uploaded file is served. */
export const AttachmentPathSchema = v.object({
  channel_id: snowflakeSchema,
  attachment_id: snowflakeSchema,
  filename: v.pipe(v.string(), v.minLength(1)),
});

/** `GET /attachments/ephemeral/{application.id}/{attachment.id}/{filename}`: an image uploaded for an activity. */
export const EphemeralAttachmentPathSchema = v.object({
  application_id: snowflakeSchema,
  attachment_id: snowflakeSchema,
  filename: v.pipe(v.string(), v.minLength(1)),
});

/** A message route's path: the channel, and the message or the guild where the route names one. */
export const MessagePathSchema = v.object({
  channel_id: snowflakeSchema,
  message_id: v.optional(snowflakeSchema),
  guild_id: v.optional(snowflakeSchema),
});

/** `GET /channels/{channel.id}/messages`: at most one of before, after and around, and a limit. */
export const MessageHistoryQuerySchema = v.pipe(
  v.object({
    limit: v.optional(queryInt(1, CHANNEL_MESSAGES_MAX)),
    before: v.optional(snowflakeSchema),
    after: v.optional(snowflakeSchema),
    around: v.optional(snowflakeSchema),
  }),
  v.check(
    (q) => [q.before, q.after, q.around].filter((x) => x !== undefined).length <= 1,
    'before, after and around are mutually exclusive.',
  ),
);

/** `GET /channels/{channel.id}/messages/pins`: pins pinned before a time, and a limit. */
export const PinsQuerySchema = v.object({
  before: v.optional(isoInstant),
  limit: v.optional(queryInt(1, PINS_PAGE_MAX)),
});

/** A sandbox message control's path: the guild. */
export const SandboxGuildPathSchema = v.object({ guild_id: snowflakeSchema });

/** `PUT /sandbox/guilds/{guild.id}/automod/keywords`: the guild's blocked keywords. */
export const AutoModKeywordsSchema = jsonObject({
  keywords: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.trim(),
        v.minLength(1),
        v.maxLength(AUTOMOD_KEYWORD_MAX, `Must be ${AUTOMOD_KEYWORD_MAX} or fewer in length.`),
      ),
    ),
    v.maxLength(AUTOMOD_KEYWORDS_MAX, `Must be ${AUTOMOD_KEYWORDS_MAX} or fewer in length.`),
  ),
});

/** The path of a reaction route: the channel, the message, the `{emoji}` as sent, and a user for one route. */
export const ReactionPathSchema = v.object({
  channel_id: snowflakeSchema,
  message_id: snowflakeSchema,
  emoji: v.pipe(v.string(), v.minLength(1)),
  user_id: v.optional(snowflakeSchema),
});

/** `GET .../reactions/{emoji}?type&after&limit`: normal (0) or burst (1), after a user id, 1 to 100. */
export const ReactionUsersQuerySchema = v.object({
  type: v.optional(
    v.pipe(
      v.picklist(['0', '1']),
      v.transform((t) => Number(t) as 0 | 1),
    ),
  ),
  after: v.optional(snowflakeSchema),
  limit: v.optional(queryInt(1, REACTION_USERS_PAGE_MAX)),
});

/** `POST /channels/{channel.id}/messages/bulk-delete`: 2 to 100 distinct message ids. */
export const BulkDeleteSchema = v.object({
  messages: v.pipe(
    v.array(snowflakeSchema),
    v.minLength(BULK_DELETE_MIN, `Must be ${BULK_DELETE_MIN} or more in length.`),
    v.maxLength(BULK_DELETE_MAX, `Must be ${BULK_DELETE_MAX} or fewer in length.`),
    v.check((ids) => new Set(ids).size === ids.length, 'Duplicate message ids.'),
  ),
});

/** `GET /channels/{id}/polls/{message_id}/answers/{answer_id}`: the path. */
export const PollAnswerPathSchema = v.object({
  channel_id: snowflakeSchema,
  message_id: snowflakeSchema,
  answer_id: queryInt(1, POLL_ANSWERS_MAX),
});

/** `GET .../answers/{answer_id}?after&limit`: after a user id, 1 to 100 voters (25 unless asked). */
export const PollVotersQuerySchema = v.object({
  after: v.optional(snowflakeSchema),
  limit: v.optional(queryInt(1, POLL_VOTERS_PAGE_MAX)),
});

/** `PUT /sandbox/channels/{id}/polls/{message_id}/votes/{user_id}`: the answers the user now votes for. */
export const SandboxPollVotesSchema = v.object({
  answer_ids: v.pipe(v.array(bodyInt(1, POLL_ANSWERS_MAX)), v.maxLength(POLL_ANSWERS_MAX)),
});

/** The path of the sandbox's poll vote control. */
export const SandboxPollVotePathSchema = v.object({
  channel_id: snowflakeSchema,
  message_id: snowflakeSchema,
  user_id: snowflakeSchema,
});
