/**
 * Request schemas of the channels area: permission overwrites and channel invites (their body,
 * query and paths). The routes validate with them before any rule runs (ARCHITECTURE rule 4).
 */
import * as v from 'valibot';
import { parsePermissions } from '../core/permissions';
import { jsonObject } from '../core/json-object';
import { bodyInt, snowflakeSchema } from '../core/schema-parts';
import {
  CHANNEL_NAME_MAX,
  CHANNEL_TOPIC_MAX,
  INVITE_MAX_AGE_DEFAULT_S,
  INVITE_MAX_AGE_MAX_S,
  INVITE_MAX_USES_MAX,
  SLOWMODE_MAX_S,
} from '../core/limits';
import { STAGE_USER_LIMIT_MAX, VOICE_BITRATE_MAX, VOICE_BITRATE_MIN } from '../guilds/voice-channel-settings';

/** A channel route's path: the channel, and the overwrite for the permission routes. */
export const ChannelPathSchema = v.object({ channel_id: snowflakeSchema, overwrite_id: v.optional(snowflakeSchema) });

const bitSet = v.pipe(
  v.string('Must be a decimal string.'),
  v.check((s) => parsePermissions(s) !== null, 'Must be a decimal string of a 64-bit bit set.'),
  v.transform((s) => parsePermissions(s)!),
);

/** `PUT /channels/{channel.id}/permissions/{overwrite.id}`: a role (0) or member (1) overwrite; bit sets as decimal strings. */
export const OverwriteSchema = jsonObject({
  type: v.picklist([0, 1], 'Must be 0 (role) or 1 (member).'),
  allow: v.optional(v.nullable(bitSet), '0'),
  deny: v.optional(v.nullable(bitSet), '0'),
});

/** The create fields; null and absent take the platform's defaults. */
export const CreateInviteSchema = jsonObject({
  max_age: v.optional(v.nullable(bodyInt(0, INVITE_MAX_AGE_MAX_S)), INVITE_MAX_AGE_DEFAULT_S),
  max_uses: v.optional(v.nullable(bodyInt(0, INVITE_MAX_USES_MAX)), 0),
  temporary: v.optional(v.nullable(v.boolean('Must be a boolean.')), false),
  unique: v.optional(v.nullable(v.boolean('Must be a boolean.')), false),
  role_ids: v.optional(v.nullable(v.array(snowflakeSchema, 'Must be an array of role ids.')), []),
});

/** An invite route's path: the invite code. */
export const InviteCodePathSchema = v.object({ code: v.pipe(v.string(), v.minLength(1)) });

/** A channel invites route's path: the channel. */
export const InviteChannelPathSchema = v.object({ channel_id: snowflakeSchema });

/** `GET /invites/{code}`: `with_counts`. */
export const InviteQuerySchema = v.object({
  with_counts: v.optional(
    v.pipe(
      v.picklist(['true', 'false']),
      v.transform((s) => s === 'true'),
    ),
    'false',
  ),
});

/** A guild channel's name: 1 to 100 characters. */
const channelName = v.pipe(
  v.string('Must be a string.'),
  v.minLength(1, 'Must be between 1 and 100 in length.'),
  v.maxLength(CHANNEL_NAME_MAX, 'Must be between 1 and 100 in length.'),
);

/** An overwrite in a channel body: bit sets as decimal strings, absent or null meaning none. */
export const ChannelOverwriteSchema = jsonObject({
  id: snowflakeSchema,
  type: v.picklist([0, 1], 'Must be 0 (role) or 1 (member).'),
  allow: v.optional(v.nullable(bitSet), '0'),
  deny: v.optional(v.nullable(bitSet), '0'),
});

/** The settings a guild channel body may carry, each optional (null: none or the default). */
const channelSettings = {
  topic: v.nullish(
    v.pipe(v.string('Must be a string.'), v.maxLength(CHANNEL_TOPIC_MAX, 'Must be 1024 or fewer in length.')),
  ),
  nsfw: v.nullish(v.boolean('Must be a boolean.')),
  rate_limit_per_user: v.nullish(bodyInt(0, SLOWMODE_MAX_S)),
  // The type and the guild's boost level narrow these further (voice-channel-settings.ts).
  bitrate: v.nullish(bodyInt(VOICE_BITRATE_MIN, VOICE_BITRATE_MAX)),
  user_limit: v.nullish(bodyInt(0, STAGE_USER_LIMIT_MAX)),
  position: v.nullish(bodyInt(0, 2 ** 31 - 1)),
  permission_overwrites: v.nullish(v.pipe(v.array(ChannelOverwriteSchema, 'Must be an array.'), v.maxLength(100))),
};

/** `POST /guilds/{guild.id}/channels`: a text (default), voice, category, announcement, stage or forum channel. */
export const CreateGuildChannelSchema = jsonObject({
  name: channelName,
  type: v.nullish(v.picklist([0, 2, 4, 5, 13, 15], 'Value is not a guild channel type.')),
  parent_id: v.nullish(snowflakeSchema),
  ...channelSettings,
});

export type CreateGuildChannelInput = v.InferOutput<typeof CreateGuildChannelSchema>;

/** `PATCH /channels/{channel.id}` of a guild channel; `parent_id: null` takes it out of its category. */
export const ModifyChannelSchema = jsonObject({
  name: v.optional(channelName),
  type: v.optional(v.picklist([0, 5], 'Only text and announcement channels convert, into each other.')),
  parent_id: v.optional(v.nullable(snowflakeSchema)),
  ...channelSettings,
});

export type ModifyChannelInput = v.InferOutput<typeof ModifyChannelSchema>;

/** `PATCH /guilds/{guild.id}/channels`: new positions (and parents) of some of the guild's channels. */
export const ChannelPositionsSchema = v.pipe(
  v.array(
    jsonObject({
      id: snowflakeSchema,
      position: v.nullish(bodyInt(0, 2 ** 31 - 1)),
      lock_permissions: v.nullish(v.boolean('Must be a boolean.')),
      parent_id: v.optional(v.nullable(snowflakeSchema)),
    }),
    'Must be an array.',
  ),
  v.minLength(1, 'Must name at least one channel.'),
);

export type ChannelPositionsInput = v.InferOutput<typeof ChannelPositionsSchema>;

/** A guild channels route's path: the guild. */
export const GuildChannelsPathSchema = v.object({ guild_id: snowflakeSchema });
