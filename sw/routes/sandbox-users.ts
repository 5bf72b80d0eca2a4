/**
 * `PATCH /sandbox/users/{user_id}`: the sandbox changes a user's profile as the user would in
 * the platform's client (username, display name, avatar). JSON in and out, no auth header.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { updateUserProfile } from '../../src/platform/accounts/user-profile';
import { serializeUser } from '../../src/platform/accounts/users';
import { readJson, schemas, validate, type AppEnv } from '../http';

const UserParams = v.object({ user_id: schemas.snowflake });
const ProfileBody = v.object({
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

/** The sandbox's user profile routes, mounted at `/sandbox`. */
export function sandboxUserRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.patch('/users/:user_id', async (c) => {
    const { user_id } = validate(UserParams, c.req.param());
    const body = await readJson(c, ProfileBody);
    return c.json({ user: serializeUser(await updateUserProfile(c.get('ctx'), user_id, body)) });
  });
  return r;
}
