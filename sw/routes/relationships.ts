/**
 * `/users/@me/relationships` (platform-wide) and `/users/@me/game-relationships` (the caller's
 * game): validate, check the caller, call the relationship domain, answer. A user's OAuth2 token
 * only (bots have no friends): reading needs `relationships.read`, changing needs
 * `relationships.write`; `sdk.social_layer` and `sdk.social_layer_presence` expand to both.
 */
import { Hono } from 'hono';
import { RELATIONSHIP_TYPE } from '../../src/store/records/relationships';
import {
  FriendRequestByUsernameSchema,
  PutGameRelationshipSchema,
  PutRelationshipSchema,
  RelationshipPathSchema,
} from '../../src/platform/relationships/schemas';
import {
  blockUser,
  listGameRelationships,
  listRelationships,
  removeRelationship,
  sendFriendRequest,
} from '../../src/platform/relationships/relationships';
import { bearerOf, noContent, readJson, validate, type AppEnv } from '../http';

/** The relationship routes; `game` mounts the game-relationship variant. */
export function relationshipRoutes(game: boolean): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/', async (c) => {
    const principal = bearerOf(c);
    return c.json(
      game ? await listGameRelationships(c.get('ctx'), principal) : await listRelationships(c.get('ctx'), principal),
    );
  });

  r.post('/', async (c) => {
    const principal = bearerOf(c);
    const { username } = await readJson(c, FriendRequestByUsernameSchema);
    await sendFriendRequest(c.get('ctx'), principal, { username }, game);
    return noContent();
  });

  r.put('/:user_id', async (c) => {
    const principal = bearerOf(c);
    const { user_id } = validate(RelationshipPathSchema, c.req.param());
    const body = await readJson(c, game ? PutGameRelationshipSchema : PutRelationshipSchema);
    if (body.type === RELATIONSHIP_TYPE.BLOCKED) await blockUser(c.get('ctx'), principal, user_id);
    else await sendFriendRequest(c.get('ctx'), principal, { id: user_id }, game);
    return noContent();
  });

  r.delete('/:user_id', async (c) => {
    const principal = bearerOf(c);
    const { user_id } = validate(RelationshipPathSchema, c.req.param());
    await removeRelationship(c.get('ctx'), principal, user_id, game);
    return noContent();
  });

  return r;
}
