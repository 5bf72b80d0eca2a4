/**
 * Sandbox control for what a user does in the platform's client about a scheduled event: mark
 * or unmark their interest (`PUT` / `DELETE /sandbox/guilds/{guild.id}/scheduled-events/{id}/
 * users/{user.id}`, no body, 204). Mounted at `/sandbox`.
 */
import { Hono } from 'hono';
import { setScheduledEventInterest } from '../../src/platform/guilds/scheduled-event-users';
import { ScheduledEventPathSchema } from '../../src/platform/guilds/scheduled-event-schemas';
import { noContent, validate, type AppEnv } from '../http';

/** The scheduled event sandbox routes. */
export function sandboxScheduledEventRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const path = '/guilds/:guild_id/scheduled-events/:event_id/users/:user_id';
  for (const interested of [true, false])
    r.on(interested ? 'PUT' : 'DELETE', path, async (c) => {
      const { guild_id, event_id, user_id } = validate(ScheduledEventPathSchema, c.req.param());
      await setScheduledEventInterest(c.get('ctx'), guild_id, event_id, user_id!, interested);
      return noContent();
    });
  return r;
}
