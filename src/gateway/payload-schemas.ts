/**
 * Schemas of what clients send (ARCHITECTURE rule 4: validate at the edge). A payload that does
 * not fit its opcode's schema closes the connection with 4002 (decode error); intents and
 * shards are checked apart because they have close codes of their own (4013, 4010).
 */
import * as v from 'valibot';
import { dictionary, snowflakeSchema } from '../platform/core/schema-parts';
import {
  GATEWAY_LARGE_THRESHOLD_MAX,
  GATEWAY_LARGE_THRESHOLD_MIN,
  GUILD_MEMBERS_USER_IDS_MAX,
  RICH_PRESENCE_TEXT_MAX,
  RICH_PRESENCE_URL_MAX,
} from '../platform/core/limits';

/** An id, as a string or a JSON number (read exactly beyond 2^53), always output as its string. */
const snowflake = snowflakeSchema;
const uint = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Every payload: a JSON object with an integer `op`. */
export const PayloadSchema = v.looseObject({ op: v.pipe(v.number(), v.integer()), d: v.optional(v.unknown()) });

/** Heartbeat's `d`: the last sequence number the client received, or null. */
export const HeartbeatSchema = v.nullish(uint);

/**
 * An activity in Presence Update: a bot may set only `name`, `type`, `url` and `state` (other
 * keys are dropped). Type 1 is Streaming, 4 a custom status whose text is `state`.
 */
const GatewayActivitySchema = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(RICH_PRESENCE_TEXT_MAX)),
  type: v.picklist([0, 1, 2, 3, 4, 5]),
  url: v.nullish(v.pipe(v.string(), v.maxLength(RICH_PRESENCE_URL_MAX))),
  state: v.nullish(v.pipe(v.string(), v.maxLength(RICH_PRESENCE_TEXT_MAX))),
});

/**
 * Presence Update's `d` (opcode 3, and Identify's `presence`), as leniently as the platform takes
 * it: `since` may be left out or null (Oceanic.js leaves it out), `activities` may be null (Eris
 * starts with `activities: null`) or left out for none, `status` defaults to online and `afk`
 * to false.
 */
export const PresenceUpdateSchema = v.object({
  since: v.nullish(v.number(), null),
  activities: v.optional(
    v.pipe(
      v.nullable(v.array(GatewayActivitySchema)),
      v.transform((activities) => activities ?? []),
    ),
    [],
  ),
  status: v.optional(v.picklist(['online', 'dnd', 'idle', 'invisible', 'offline']), 'online'),
  afk: v.nullish(v.boolean(), false),
});

/**
 * Identify's `d`. Only `token` is required: `properties` (any keys: `os`, `browser`, `device`,
 * or discord.py's `$os`...), `compress`, `large_threshold`, `shard` and `presence` are optional,
 * and a null stands for a field left out, as the platform takes them.
 */
export const IdentifySchema = v.object({
  token: v.pipe(v.string(), v.minLength(1)),
  intents: v.optional(v.unknown()),
  properties: v.nullish(dictionary(v.unknown())),
  capabilities: v.nullish(uint),
  compress: v.nullish(v.boolean()),
  large_threshold: v.nullish(
    v.pipe(uint, v.minValue(GATEWAY_LARGE_THRESHOLD_MIN), v.maxValue(GATEWAY_LARGE_THRESHOLD_MAX)),
  ),
  shard: v.nullish(v.unknown()),
  presence: v.nullish(PresenceUpdateSchema),
});

/** Resume's `d`. */
export const ResumeSchema = v.object({
  token: v.pipe(v.string(), v.minLength(1)),
  session_id: v.pipe(v.string(), v.minLength(1)),
  seq: v.nullable(uint),
});

/** Request Guild Members' `d`: a `query` (with `limit`) or `user_ids`. */
export const RequestGuildMembersSchema = v.pipe(
  v.object({
    guild_id: snowflake,
    query: v.optional(v.string()),
    limit: v.optional(uint),
    presences: v.optional(v.boolean()),
    user_ids: v.optional(v.union([snowflake, v.pipe(v.array(snowflake), v.maxLength(GUILD_MEMBERS_USER_IDS_MAX))])),
    nonce: v.optional(v.string()),
  }),
  v.check((d) => d.query !== undefined || d.user_ids !== undefined, 'One of query or user_ids is required.'),
  v.check((d) => d.query === undefined || d.limit !== undefined, 'limit is required with query.'),
);

/** Request Channel Info's `d`. */
export const RequestChannelInfoSchema = v.object({
  guild_id: snowflake,
  fields: v.pipe(v.array(v.picklist(['status', 'voice_start_time'])), v.minLength(1)),
});

/** Voice State Update's `d`: a guild voice channel, or with `guild_id` null a lobby's call (`channel_id` the lobby id). */
export const VoiceStateUpdateSchema = v.object({
  guild_id: v.nullable(snowflake),
  channel_id: v.nullable(snowflake),
  self_mute: v.boolean(),
  self_deaf: v.boolean(),
});
