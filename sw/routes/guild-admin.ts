/**
 * Guild administration for bots: `POST /guilds` (removed for apps from 2025-07-15), prune
 * (`GET` / `POST /guilds/{guild.id}/prune`), member edits (`PATCH .../members/{user.id}` and
 * `.../members/@me`), scheduled events and the audit log. Mounted at the API root.
 */
import { Hono } from 'hono';
import { listAuditLog } from '../../src/platform/guilds/audit-log';
import { createGuildAsApplication } from '../../src/platform/guilds/create-guild';
import { modifyCurrentMember, modifyGuildMember } from '../../src/platform/guilds/member-edits';
import { beginPrune, pruneCount } from '../../src/platform/guilds/prune';
import { createScheduledEvent, listScheduledEvents } from '../../src/platform/guilds/scheduled-events';
import { PRUNE_DAYS_DEFAULT } from '../../src/platform/core/limits';
import { botOf, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';
import {
  AuditLogQuerySchema,
  CreateGuildSchema,
  CreateScheduledEventSchema,
  GuildMemberPathSchema,
  ModifyCurrentMemberSchema,
  ModifyMemberSchema,
  PruneQuerySchema,
  PruneSchema,
} from '../../src/platform/guilds/schemas';
import { ScheduledEventQuerySchema } from '../../src/platform/guilds/scheduled-event-schemas';

const ids = (c: AppContext) => validate(GuildMemberPathSchema, c.req.param());

/** The guild administration routes. */
export function guildAdminRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/guilds', async (c) => {
    const principal = botOf(c);
    return c.json(await createGuildAsApplication(c.get('ctx'), principal, await readJson(c, CreateGuildSchema)), 201);
  });

  r.get('/guilds/:guild_id/prune', async (c) => {
    const principal = botOf(c);
    return c.json(await pruneCount(c.get('ctx'), principal, ids(c).guild_id, readQuery(c, PruneQuerySchema)));
  });
  r.post('/guilds/:guild_id/prune', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, PruneSchema);
    return c.json(
      await beginPrune(c.get('ctx'), principal, ids(c).guild_id, {
        days: body.days ?? PRUNE_DAYS_DEFAULT,
        include_roles: body.include_roles ?? [],
        compute_prune_count: body.compute_prune_count ?? true,
      }),
    );
  });

  // Registered before `/:user_id` so that `@me` is the caller, not an id.
  r.patch('/guilds/:guild_id/members/@me', async (c) => {
    const principal = botOf(c);
    return c.json(
      await modifyCurrentMember(c.get('ctx'), principal, ids(c).guild_id, await readJson(c, ModifyCurrentMemberSchema)),
    );
  });
  r.patch('/guilds/:guild_id/members/:user_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, user_id } = ids(c);
    return c.json(
      await modifyGuildMember(c.get('ctx'), principal, guild_id, user_id!, await readJson(c, ModifyMemberSchema)),
    );
  });

  r.post('/guilds/:guild_id/scheduled-events', async (c) => {
    const principal = botOf(c);
    return c.json(
      await createScheduledEvent(
        c.get('ctx'),
        principal,
        ids(c).guild_id,
        await readJson(c, CreateScheduledEventSchema),
      ),
    );
  });
  r.get('/guilds/:guild_id/scheduled-events', async (c) => {
    const principal = botOf(c);
    const { with_user_count } = readQuery(c, ScheduledEventQuerySchema);
    return c.json(await listScheduledEvents(c.get('ctx'), principal, ids(c).guild_id, with_user_count));
  });

  r.get('/guilds/:guild_id/audit-logs', async (c) => {
    const principal = botOf(c);
    return c.json(await listAuditLog(c.get('ctx'), principal, ids(c).guild_id, readQuery(c, AuditLogQuerySchema)));
  });

  return r;
}
