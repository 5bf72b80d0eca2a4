/**
 * Request schemas of the channels area: permission overwrites and channel invites (their body,
 * query and paths). The routes validate with them before any rule runs (ARCHITECTURE rule 4).
 */
import * as v from 'valibot';
import { parsePermissions } from '../core/permissions';
import { jsonObject } from '../core/json-object';
import { bodyInt, snowflakeSchema } from '../core/schema-parts';
import { INVITE_MAX_AGE_DEFAULT_S, INVITE_MAX_AGE_MAX_S, INVITE_MAX_USES_MAX } from '../core/limits';

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
