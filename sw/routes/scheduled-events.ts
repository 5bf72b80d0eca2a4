/**
 * One guild scheduled event and its interested users: `GET` / `PATCH` / `DELETE
 * /guilds/{guild.id}/scheduled-events/{id}`, `GET .../users` and `GET .../users/counts`.
 * Mounted at the API root (creating and listing are in `guild-admin.ts`).
 */
import { Hono } from 'hono';
import {
  deleteScheduledEvent,
  getScheduledEvent,
  modifyScheduledEvent,
} from '../../src/platform/guilds/scheduled-event-edits';
import { countScheduledEventUsers, listScheduledEventUsers } from '../../src/platform/guilds/scheduled-event-users';
import {
  ModifyScheduledEventSchema,
  ScheduledEventPathSchema,
  ScheduledEventQuerySchema,
  ScheduledEventUsersQuerySchema,
} from '../../src/platform/guilds/scheduled-event-schemas';
import { botOf, noContent, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';

const ids = (c: AppContext) => validate(ScheduledEventPathSchema, c.req.param());
const EVENT = '/guilds/:guild_id/scheduled-events/:event_id';

/** The routes of one scheduled event. */
export function scheduledEventRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get(EVENT, async (c) => {
    const principal = botOf(c);
    const { guild_id, event_id } = ids(c);
    const { with_user_count } = readQuery(c, ScheduledEventQuerySchema);
    return c.json(await getScheduledEvent(c.get('ctx'), principal, guild_id, event_id, with_user_count));
  });
  r.patch(EVENT, async (c) => {
    const principal = botOf(c);
    const { guild_id, event_id } = ids(c);
    const body = await readJson(c, ModifyScheduledEventSchema);
    return c.json(await modifyScheduledEvent(c.get('ctx'), principal, guild_id, event_id, body));
  });
  r.delete(EVENT, async (c) => {
    const principal = botOf(c);
    const { guild_id, event_id } = ids(c);
    await deleteScheduledEvent(c.get('ctx'), principal, guild_id, event_id);
    return noContent();
  });
  r.get(`${EVENT}/users`, async (c) => {
    const principal = botOf(c);
    const { guild_id, event_id } = ids(c);
    const query = readQuery(c, ScheduledEventUsersQuerySchema);
    return c.json(await listScheduledEventUsers(c.get('ctx'), principal, guild_id, event_id, query));
  });
  r.get(`${EVENT}/users/counts`, async (c) => {
    const principal = botOf(c);
    const { guild_id, event_id } = ids(c);
    return c.json(await countScheduledEventUsers(c.get('ctx'), principal, guild_id, event_id));
  });

  return r;
}
