/**
 * The request shapes of the relationship routes, as valibot schemas (ARCHITECTURE rule 4).
 */
import * as v from 'valibot';
import { USERNAME_MAX } from '../core/limits';
import { RELATIONSHIP_TYPE } from '../../store/records/relationships';
import { jsonObject } from '../core/json-object';
import { snowflakeSchema } from '../core/schema-parts';

const snowflake = snowflakeSchema;

/** `PUT /users/@me/relationships/{id}`: no type (or 1) sends or accepts a friend request, 2 blocks. */
export const PutRelationshipSchema = jsonObject({
  type: v.optional(
    v.picklist([RELATIONSHIP_TYPE.FRIEND, RELATIONSHIP_TYPE.BLOCKED], 'Value must be 1 (friend) or 2 (block).'),
  ),
});

/** `PUT /users/@me/game-relationships/{id}`: sends or accepts a game friend request (blocks are platform-wide). */
export const PutGameRelationshipSchema = jsonObject({
  type: v.optional(v.literal(RELATIONSHIP_TYPE.FRIEND, 'Value must be 1 (friend): blocks are platform-wide.')),
});

/** `POST /users/@me/relationships` and `/users/@me/game-relationships`: a friend request by username. */
export const FriendRequestByUsernameSchema = jsonObject({
  username: v.pipe(
    v.string('This field is required'),
    v.minLength(1, 'This field is required'),
    v.maxLength(USERNAME_MAX, `Must be ${USERNAME_MAX} or fewer in length.`),
  ),
});

/** `PUT /sandbox/users/{id}/relationships/{other_id}`: the user's side (0 none, 1 friends, 2 blocks, 3 incoming, 4 outgoing). */
export const SandboxRelationshipSchema = jsonObject({
  type: v.picklist(
    [0, 1, 2, 3, 4],
    'Value must be 0 (none), 1 (friend), 2 (blocked), 3 (pending incoming) or 4 (pending outgoing).',
  ),
  application_id: v.optional(snowflake),
});

/** Path parameters of the relationship routes. */
export const RelationshipPathSchema = v.object({ user_id: snowflake, other_id: v.optional(snowflake) });
