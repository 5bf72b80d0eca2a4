/**
 * Request schemas of the accounts area: provisional accounts and account linking (partner SDK
 * routes), application emoji, and the sandbox's account controls (users, applications, bans,
 * connections, identity providers). Fixed messages everywhere: a default valibot message would
 * quote the value, and values here may be secrets.
 */
import * as v from 'valibot';
import {
  APPLICATION_DESCRIPTION_MAX,
  APPLICATION_TAG_MAX,
  APPLICATION_TAGS_MAX,
  CONNECTION_NAME_MAX,
  EMOJI_NAME_MAX,
  EMOJI_NAME_MIN,
  EXTERNAL_AUTH_TOKEN_MAX,
  EXTERNAL_USER_ID_MAX,
  PROVISIONAL_DISPLAY_NAME_MAX,
} from '../core/limits';
import { jsonObject } from '../core/json-object';
import {
  applicationFlagsSchema,
  bitSetSchema,
  clientSecretSchema,
  flagsInt,
  snowflakeSchema,
} from '../core/schema-parts';
import { APPLICATION_FLAGS } from '../../store/records/core';
import { EXTERNAL_AUTH_TYPES, ISSUER_AUTH_TYPES } from './provisional-config';
import { CONNECTION_TYPES } from './connections';

// Fixed messages everywhere: a default valibot message would quote the value, and values here are secrets.
const required = (max: number) =>
  v.pipe(
    v.string('This field is required'),
    v.minLength(1, 'This field is required'),
    v.maxLength(max, `Must be ${max} or fewer in length.`),
  );

const secret = v.optional(v.string('Must be a string.'));

/** `POST /partner-sdk/token`: a provisional account's token for an external identity. */
export const ExternalAuthTokenSchema = jsonObject({
  client_id: snowflakeSchema,
  client_secret: secret,
  external_auth_type: v.picklist(EXTERNAL_AUTH_TYPES, `Must be one of ${EXTERNAL_AUTH_TYPES.join(', ')}.`),
  external_auth_token: required(EXTERNAL_AUTH_TOKEN_MAX),
});

/** `POST /partner-sdk/token/bot`: the bot issues a token for an external user id. */
export const BotProvisionalTokenSchema = jsonObject({
  external_user_id: required(EXTERNAL_USER_ID_MAX),
  preferred_global_name: v.optional(v.nullable(required(PROVISIONAL_DISPLAY_NAME_MAX))),
});

/** `POST /partner-sdk/provisional-accounts/unmerge/bot`: the external user to unmerge. */
export const BotUnmergeSchema = jsonObject({ external_user_id: required(EXTERNAL_USER_ID_MAX) });

/** `POST /partner-sdk/child-token`: a parent application's token exchanged for a child application's (publisher-level account linking). */
export const ChildTokenSchema = jsonObject({
  parent_access_token: required(EXTERNAL_AUTH_TOKEN_MAX),
  child_application_id: snowflakeSchema,
  parent_client_secret: secret,
});

/** An emoji's name: 2 to 32 letters, digits or underscores. */
export const EmojiNameSchema = v.pipe(
  v.string('This field is required'),
  v.regex(
    new RegExp(`^[A-Za-z0-9_]{${EMOJI_NAME_MIN},${EMOJI_NAME_MAX}}$`),
    `Must be ${EMOJI_NAME_MIN} to ${EMOJI_NAME_MAX} letters, digits or underscores.`,
  ),
);

/** An emoji's image: a data URI (checked by the rule that stores it). */
export const EmojiImageSchema = v.string('This field is required');

/** `POST /applications/{application.id}/emojis`. */
export const CreateApplicationEmojiSchema = jsonObject({ name: EmojiNameSchema, image: EmojiImageSchema });

/** `PATCH .../emojis/{emoji.id}`: the new name. */
export const RenameEmojiSchema = jsonObject({ name: EmojiNameSchema });

/** An emoji route's path: the application or the guild, and the emoji. */
export const EmojiPathSchema = v.object({
  application_id: v.optional(snowflakeSchema),
  guild_id: v.optional(snowflakeSchema),
  emoji_id: v.optional(snowflakeSchema),
});

const text = (min: number, max: number) =>
  v.pipe(
    v.string('Must be a string.'),
    v.minLength(min, `Must be ${min} or more in length.`),
    v.maxLength(max, `Must be ${max} or fewer in length.`),
  );

/** `POST /sandbox/identity-providers`: a simulated OpenID Connect provider. */
export const SandboxIdentityProviderSchema = jsonObject({
  audience: text(1, 256),
  issuer: v.optional(text(1, 2048)),
  alg: v.optional(v.picklist(['RS256', 'ES256'], 'Must be RS256 or ES256.')),
});

/** `POST /sandbox/identity-providers/{id}/id-tokens`: an ID token the provider signs. */
export const SandboxIdTokenSchema = jsonObject({
  sub: text(1, 255),
  expires_in: v.optional(
    v.pipe(
      v.number('Must be a number.'),
      v.integer('Must be an integer.'),
      v.minValue(-31_536_000),
      v.maxValue(31_536_000),
    ),
  ),
  audience: v.optional(text(1, 256)),
  preferred_username: v.optional(text(1, 64)),
  nonce: v.optional(text(1, 256)),
});

/** `PUT /sandbox/applications/{id}/identity-provider`: the issuer an application's provisional accounts come from. */
export const IdentityProviderConfigSchema = jsonObject({
  auth_type: v.optional(v.picklist(ISSUER_AUTH_TYPES as [string, ...string[]], 'Unknown external auth type.')),
  issuer: text(1, 2048),
  audience: text(1, 256),
  legacy: v.optional(v.boolean('Must be a boolean.')),
});

/** `PATCH /sandbox/applications/{id}`: approvals, flags and settings the platform grants. */
export const SandboxApplicationPatchSchema = jsonObject({
  approvals: v.optional(
    jsonObject({
      identify_premium: v.optional(v.boolean('Must be a boolean.')),
      sdk_terms_accepted: v.optional(v.boolean('Must be a boolean.')),
      privileged_intents_approved: v.optional(v.boolean('Must be a boolean.')),
    }),
  ),
  flags: v.optional(applicationFlagsSchema),
  channel_obfuscation: v.optional(v.boolean('Must be a boolean.')),
  redirect_uris: v.optional(v.array(text(1, 2048))),
  client_secret: v.optional(clientSecretSchema),
});

/** `POST /sandbox/users/{user.id}/ban`: a ban for good or one that lifts. */
export const BanSchema = jsonObject({ permanent: v.optional(v.boolean('Must be a boolean.')) });

/** `POST /sandbox/users/{user.id}/connections`: a connection of the user's account. */
export const SandboxConnectionSchema = jsonObject({
  type: v.picklist(CONNECTION_TYPES, 'Unknown connection type.'),
  name: text(1, CONNECTION_NAME_MAX),
  id: v.optional(text(1, 128)),
  verified: v.optional(v.boolean('Must be a boolean.')),
  visibility: v.optional(v.picklist([0, 1], 'Must be 0 or 1.')),
  legacy: v.optional(v.boolean('Must be a boolean.')),
});

/** A user route's path: the user. */
export const UserPathSchema = v.object({ user_id: snowflakeSchema });

/** `PATCH /sandbox/users/{user.id}`: the user's name and avatar. */
export const SandboxUserProfileSchema = jsonObject({
  username: v.optional(
    v.pipe(
      v.string(),
      v.minLength(2, 'Must be between 2 and 32 in length.'),
      v.maxLength(32, 'Must be between 2 and 32 in length.'),
    ),
  ),
  global_name: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.minLength(1, 'Must be between 1 and 32 in length.'),
        v.maxLength(32, 'Must be between 1 and 32 in length.'),
      ),
    ),
  ),
  avatar: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.regex(/^(a_)?[0-9a-f]{32}$/, 'Must be an image hash (32 hex digits, a_ for an animated one).'),
      ),
    ),
  ),
});

/** `POST /sandbox/applications/{id}/privileged-intents-applications`: the reviewer's decision on the application's request. */
export const PrivilegedIntentsDecisionSchema = jsonObject({
  decision: v.picklist(['approved', 'denied'], 'Must be "approved" or "denied".'),
});

/** `POST /sandbox/users` (CONTRACT §3): a simulated user. */
export const SandboxUserSchema = jsonObject({
  username: v.pipe(
    v.string(),
    v.minLength(2, 'Must be between 2 and 32 in length.'),
    v.maxLength(32, 'Must be between 2 and 32 in length.'),
  ),
  global_name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(32)))),
  premium_type: v.optional(v.picklist([0, 1, 2, 3])),
});

/** `POST /sandbox/applications` (CONTRACT §3): an application with its bot. */
export const SandboxApplicationSchema = jsonObject({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  owner_id: v.optional(snowflakeSchema),
  flags: v.optional(applicationFlagsSchema),
  bot_public: v.optional(v.boolean()),
  // The developer's own application id and secret (their `.env`), so their activity runs unchanged.
  id: v.optional(snowflakeSchema),
  client_secret: v.optional(clientSecretSchema),
});

/** `DELETE /sandbox/users/{user.id}/authorizations/{application.id}`: the user and the application. */
export const UserApplicationPathSchema = v.object({ user_id: snowflakeSchema, application_id: snowflakeSchema });

/** `PATCH /users/@me`: a bot's username, avatar and banner (data URIs; null clears the image). */
export const ModifyCurrentUserSchema = jsonObject({
  username: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(2, 'Must be between 2 and 32 in length.'),
      v.maxLength(32, 'Must be between 2 and 32 in length.'),
    ),
  ),
  avatar: v.optional(v.nullable(v.string())),
  banner: v.optional(v.nullable(v.string())),
});

const installParams = jsonObject({
  scopes: v.pipe(
    v.array(v.picklist(['bot', 'applications.commands'], 'Install scopes are "bot" and "applications.commands".')),
    v.minLength(1, 'At least one scope.'),
  ),
  permissions: bitSetSchema,
});

const notTaken = (what: string) => v.optional(v.never(`The sandbox does not take ${what} here.`));

/** `PATCH /applications/@me` and `PATCH /applications/{id}`: the fields the docs let an app edit that the sandbox keeps. */
export const ModifyApplicationSchema = jsonObject({
  description: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.maxLength(APPLICATION_DESCRIPTION_MAX, `Must be ${APPLICATION_DESCRIPTION_MAX} or fewer in length.`),
      ),
    ),
  ),
  tags: v.optional(
    v.nullable(
      v.pipe(
        v.array(text(1, APPLICATION_TAG_MAX)),
        v.maxLength(APPLICATION_TAGS_MAX, `Must be ${APPLICATION_TAGS_MAX} or fewer in length.`),
      ),
    ),
  ),
  custom_install_url: v.optional(v.nullable(v.pipe(v.string(), v.url('Must be a URL.'), v.maxLength(2048)))),
  role_connections_verification_url: v.optional(
    v.nullable(v.pipe(v.string(), v.url('Must be a URL.'), v.maxLength(2048))),
  ),
  install_params: v.optional(v.nullable(installParams)),
  integration_types_config: v.optional(
    v.nullable(
      jsonObject({
        '0': v.optional(v.nullable(jsonObject({ oauth2_install_params: v.optional(v.nullable(installParams)) }))),
        '1': v.optional(v.nullable(jsonObject({ oauth2_install_params: v.optional(v.nullable(installParams)) }))),
      }),
    ),
  ),
  interactions_endpoint_url: v.optional(v.nullable(v.pipe(v.string(), v.url('Must be a URL.'), v.maxLength(2048)))),
  // Only the limited privileged intent flags may change (the platform's docs).
  flags: v.optional(
    v.nullable(
      flagsInt(
        APPLICATION_FLAGS.GATEWAY_PRESENCE_LIMITED |
          APPLICATION_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED |
          APPLICATION_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED,
        'Only the limited intent flags can be changed.',
      ),
    ),
  ),
  icon: notTaken('an icon'),
  cover_image: notTaken('a cover image'),
  event_webhooks_url: notTaken('event webhooks (PUT /sandbox/applications/{id}/event-webhooks sets them)'),
  event_webhooks_status: notTaken('event webhooks (PUT /sandbox/applications/{id}/event-webhooks sets them)'),
  event_webhooks_types: notTaken('event webhooks (PUT /sandbox/applications/{id}/event-webhooks sets them)'),
});
