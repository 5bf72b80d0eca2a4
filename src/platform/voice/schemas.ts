/**
 * Request schemas of the voice area: a voice channel's status and the voice-state routes' path.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { isoInstant, snowflakeSchema } from '../core/schema-parts';

/** `PUT /channels/{channel.id}/voice-status`: a status string, or null to clear it (the 500-character limit is checked by the rule). */
export const VoiceStatusSchema = jsonObject({ status: v.nullish(v.string('Must be a string or null.'), null) });

/** `/guilds/{guild.id}/voice-states/{@me | user.id}`: the guild, and the user when named. */
export const VoiceStatePathSchema = v.object({ guild_id: snowflakeSchema, user_id: v.optional(snowflakeSchema) });

/** `PUT /sandbox/guilds/{guild.id}/voice-states/{user.id}`: the voice channel to connect the member to, or null to disconnect. */
export const SandboxVoiceStateSchema = jsonObject({ channel_id: v.nullable(snowflakeSchema) });

/** `PUT /sandbox/guilds/{guild.id}/voice-states/{user.id}`: the guild and the member. */
export const SandboxVoiceStatePathSchema = v.object({ guild_id: snowflakeSchema, user_id: snowflakeSchema });

/** `PATCH /guilds/{guild.id}/voice-states/@me`: the stage channel, whether suppressed, a request to speak. */
export const ModifyCurrentVoiceStateSchema = jsonObject({
  channel_id: v.optional(snowflakeSchema),
  suppress: v.optional(v.boolean()),
  request_to_speak_timestamp: v.optional(v.nullable(isoInstant)),
});

/** `PATCH /guilds/{guild.id}/voice-states/{user.id}`: the stage channel the user is in, and whether suppressed. */
export const ModifyUserVoiceStateSchema = jsonObject({
  channel_id: snowflakeSchema,
  suppress: v.optional(v.boolean()),
});
