/**
 * Sandbox fixture for relationships: `PUT /sandbox/users/{user_id}/relationships/{other_id}`
 * `{type, application_id?}` sets a pair directly (friends, a request, a block, or none; with
 * `application_id` their game relationship in that game) with the events the user routes emit,
 * so clients connected to the gateway see it happen. Answers both sides as their users see them.
 */
import { Hono } from 'hono';
import { SandboxRelationshipSchema, RelationshipPathSchema } from '../../src/platform/relationships/schemas';
import { sandboxSetRelationship } from '../../src/platform/relationships/relationships';
import { readJson, validate, type AppEnv } from '../http';

/** The sandbox relationship routes, mounted at `/sandbox`. */
export function sandboxRelationshipRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.put('/users/:user_id/relationships/:other_id', async (c) => {
    const { user_id, other_id } = validate(RelationshipPathSchema, c.req.param());
    const body = await readJson(c, SandboxRelationshipSchema);
    const sides = await sandboxSetRelationship(c.get('ctx'), {
      userId: user_id,
      otherId: other_id!,
      type: body.type,
      applicationId: body.application_id ?? null,
    });
    return c.json(sides);
  });
  return r;
}
