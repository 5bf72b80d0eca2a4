/**
 * The request shapes of the group DM routes (ARCHITECTURE rule 4): Create DM / Create Group DM
 * share `POST /users/@me/channels`, told apart by `recipient_id` or `access_tokens`.
 */
import * as v from 'valibot';
import { GROUP_DM_NAME_MAX, GROUP_DM_RECIPIENTS_MAX, MEMBER_NICK_MAX } from '../core/limits';
import { jsonObject } from '../core/json-object';
import { dictionary, snowflakeSchema } from '../core/schema-parts';

const nick = v.pipe(
  v.string('Must be a string.'),
  v.minLength(1, 'Must be 1 or more in length.'),
  v.maxLength(MEMBER_NICK_MAX, `Must be ${MEMBER_NICK_MAX} or fewer in length.`),
);

const accessToken = v.pipe(v.string('Must be a string.'), v.minLength(1, 'This field is required'));

/**
 * `POST /users/@me/channels`: `{recipient_id}` opens a DM; `{access_tokens, nicks?}` creates a
 * group DM with the tokens' users (at most 9, the bot making the tenth: 30004 past it), `nicks`
 * naming some of them by user id.
 */
export const CreatePrivateChannelSchema = v.pipe(
  jsonObject({
    recipient_id: v.optional(snowflakeSchema),
    access_tokens: v.optional(
      v.pipe(
        v.array(accessToken, 'Must be an array of access tokens.'),
        v.minLength(1, 'Must be 1 or more in length.'),
      ),
    ),
    nicks: v.optional(v.nullable(dictionary(v.nullable(nick)))),
  }),
  v.forward(
    v.check(
      (body) => (body.recipient_id === undefined) !== (body.access_tokens === undefined),
      'Name either recipient_id or access_tokens.',
    ),
    ['recipient_id'],
  ),
);

/** The body of `POST /users/@me/channels`. */
export type CreatePrivateChannelInput = v.InferOutput<typeof CreatePrivateChannelSchema>;

/** `PUT /channels/{channel.id}/recipients/{user.id}`: the user's token (`gdm.join`) and a nickname. */
export const AddRecipientSchema = jsonObject({
  access_token: accessToken,
  nick: v.optional(v.nullable(nick)),
});

/** A group DM's name: 1-100 characters, or null to clear it. */
const groupDmName = v.optional(
  v.nullable(
    v.pipe(
      v.string('Must be a string.'),
      v.minLength(1, 'Must be 1 or more in length.'),
      v.maxLength(GROUP_DM_NAME_MAX, `Must be ${GROUP_DM_NAME_MAX} or fewer in length.`),
    ),
  ),
);

/** `PATCH /channels/{channel.id}` of a group DM: its name (1-100 characters) and icon (a data URI), null clears. */
export const ModifyGroupDmSchema = jsonObject({
  name: groupDmName,
  icon: v.optional(v.nullable(v.string('Must be a data URI or null.'))),
});

/** The body of a group DM's `PATCH /channels/{channel.id}`. */
export type ModifyGroupDmInput = v.InferOutput<typeof ModifyGroupDmSchema>;

/**
 * `POST /sandbox/group-dms`: a group DM the application's bot made with these users, their
 * consent taken as given (as `/sandbox/tokens` skips the consent screen).
 */
export const SandboxGroupDmSchema = jsonObject({
  application_id: snowflakeSchema,
  user_ids: v.pipe(
    v.array(snowflakeSchema, 'Must be an array of user ids.'),
    v.minLength(1, 'Must be 1 or more in length.'),
    v.maxLength(GROUP_DM_RECIPIENTS_MAX - 1, `Must be ${GROUP_DM_RECIPIENTS_MAX - 1} or fewer in length.`),
  ),
  name: groupDmName,
});

/** Path parameters of the recipient routes. */
export const RecipientPathSchema = v.object({ channel_id: snowflakeSchema, user_id: snowflakeSchema });
