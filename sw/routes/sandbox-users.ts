/**
 * `PATCH /sandbox/users/{user_id}`: the sandbox changes a user's profile as the user would in
 * the platform's client (username, display name, avatar). JSON in and out, no auth header.
 */
import { Hono } from 'hono';
import { updateUserProfile } from '../../src/platform/accounts/user-profile';
import { serializeUser } from '../../src/platform/accounts/users';
import { readJson, validate, type AppEnv } from '../http';
import { SandboxUserProfileSchema, UserPathSchema } from '../../src/platform/accounts/schemas';

/** The sandbox's user profile routes, mounted at `/sandbox`. */
export function sandboxUserRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.patch('/users/:user_id', async (c) => {
    const { user_id } = validate(UserPathSchema, c.req.param());
    const body = await readJson(c, SandboxUserProfileSchema);
    return c.json({ user: serializeUser(await updateUserProfile(c.get('ctx'), user_id, body)) });
  });
  return r;
}
