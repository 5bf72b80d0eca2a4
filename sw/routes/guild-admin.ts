/**
 * Guild administration for bots: `POST /guilds` (removed for apps from 2025-07-15), prune
 * (`GET` / `POST /guilds/{guild.id}/prune`), member edits (`PATCH .../members/{user.id}` and
 * `.../members/@me`), scheduled events and the audit log. Mounted at the API root.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { requireBot, requireScope } from '../../src/platform/oauth2/auth';
import { listAuditLog } from '../../src/platform/guilds/audit-log';
import { createGuildAsApplication, requireGuildCreation } from '../../src/platform/guilds/create-guild';
import { modifyCurrentMember, modifyGuildMember } from '../../src/platform/guilds/member-edits';
import { beginPrune, pruneCount } from '../../src/platform/guilds/prune';
import { createScheduledEvent, listScheduledEvents } from '../../src/platform/guilds/scheduled-events';
import {
  AUDIT_LOG_LIMIT_DEFAULT,
  AUDIT_LOG_LIMIT_MAX,
  MEMBER_BIO_MAX,
  MEMBER_NICK_MAX,
  PRUNE_DAYS_DEFAULT,
  PRUNE_DAYS_MAX,
  PRUNE_DAYS_MIN,
  SCHEDULED_EVENT_DESCRIPTION_MAX,
  SCHEDULED_EVENT_LOCATION_MAX,
  SCHEDULED_EVENT_NAME_MAX,
} from '../../src/platform/core/limits';
import { readJson, readQuery, schemas, validate, type AppContext, type AppEnv } from '../http';

const Path = v.object({ guild_id: schemas.snowflake, user_id: v.optional(schemas.snowflake) });
const int = schemas.int;
const timestamp = v.pipe(
  v.string('Must be an ISO-8601 timestamp.'),
  v.isoTimestamp('Must be an ISO-8601 timestamp.'),
  v.transform((s) => Date.parse(s)),
);
const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `Must be ${max} or fewer in length.`));

const GuildBody = v.object({
  name: v.pipe(
    v.string('This field is required'),
    v.trim(),
    v.minLength(2, 'Must be between 2 and 100 in length.'),
    v.maxLength(100, 'Must be between 2 and 100 in length.'),
  ),
});
const PruneQuery = v.object({
  days: v.optional(schemas.queryInt(PRUNE_DAYS_MIN, PRUNE_DAYS_MAX), String(PRUNE_DAYS_DEFAULT)),
  include_roles: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) =>
        s
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
      v.array(schemas.snowflake),
    ),
    '',
  ),
});
const PruneBody = v.object({
  days: v.optional(v.nullable(int(PRUNE_DAYS_MIN, PRUNE_DAYS_MAX)), PRUNE_DAYS_DEFAULT),
  compute_prune_count: v.optional(v.nullable(v.boolean()), true),
  // The platform's form is an array; a comma-separated string (the query's form) is taken too.
  include_roles: v.optional(
    v.nullable(
      v.union([
        v.array(schemas.snowflake),
        v.pipe(
          v.string(),
          v.transform((s) =>
            s
              .split(',')
              .map((id) => id.trim())
              .filter(Boolean),
          ),
          v.array(schemas.snowflake),
        ),
      ]),
    ),
    [],
  ),
  reason: v.optional(v.string()),
});
const ModifyMemberBody = v.object({
  nick: v.optional(v.nullable(text(MEMBER_NICK_MAX))),
  roles: v.optional(v.nullable(v.array(schemas.snowflake))),
  mute: v.optional(v.nullable(v.boolean())),
  deaf: v.optional(v.nullable(v.boolean())),
  channel_id: v.optional(v.nullable(schemas.snowflake)),
  communication_disabled_until: v.optional(v.nullable(timestamp)),
  flags: v.optional(v.nullable(v.pipe(v.number('Value is not int.'), v.integer('Value is not int.'), v.minValue(0)))),
});
const CurrentMemberBody = v.object({
  nick: v.optional(v.nullable(text(MEMBER_NICK_MAX))),
  avatar: v.optional(v.nullable(v.string())),
  banner: v.optional(v.nullable(v.string())),
  bio: v.optional(v.nullable(text(MEMBER_BIO_MAX))),
});
const ScheduledEventBody = v.object({
  name: v.pipe(v.string('This field is required'), v.minLength(1), v.maxLength(SCHEDULED_EVENT_NAME_MAX)),
  description: v.optional(v.nullable(text(SCHEDULED_EVENT_DESCRIPTION_MAX))),
  privacy_level: v.optional(v.literal(2, 'Must be 2 (GUILD_ONLY).'), 2),
  entity_type: v.picklist([1, 2, 3], 'Must be 1 (stage), 2 (voice) or 3 (external).'),
  channel_id: v.optional(v.nullable(schemas.snowflake)),
  entity_metadata: v.optional(
    v.nullable(
      v.object({ location: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(SCHEDULED_EVENT_LOCATION_MAX))) }),
    ),
  ),
  scheduled_start_time: timestamp,
  scheduled_end_time: v.optional(v.nullable(timestamp)),
});
const AuditLogQuery = v.object({
  user_id: v.optional(schemas.snowflake),
  action_type: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'Value is not int.'), v.transform(Number))),
  before: v.optional(schemas.snowflake),
  after: v.optional(schemas.snowflake),
  limit: v.optional(schemas.queryInt(1, AUDIT_LOG_LIMIT_MAX), String(AUDIT_LOG_LIMIT_DEFAULT)),
});

const ids = (c: AppContext) => validate(Path, c.req.param());

function bot(c: AppContext) {
  const principal = c.get('principal');
  requireBot(principal);
  return principal;
}

/** The guild administration routes. */
export function guildAdminRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/guilds', async (c) => {
    const principal = c.get('principal');
    // Availability first: after the date no application request is served, whatever its body.
    requireGuildCreation(c.get('ctx'), principal);
    return c.json(await createGuildAsApplication(c.get('ctx'), principal, await readJson(c, GuildBody)), 201);
  });

  r.get('/guilds/:guild_id/prune', async (c) => {
    const principal = bot(c);
    return c.json(await pruneCount(c.get('ctx'), principal, ids(c).guild_id, readQuery(c, PruneQuery)));
  });
  r.post('/guilds/:guild_id/prune', async (c) => {
    const principal = bot(c);
    const body = await readJson(c, PruneBody);
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
    const principal = bot(c);
    return c.json(
      await modifyCurrentMember(c.get('ctx'), principal, ids(c).guild_id, await readJson(c, CurrentMemberBody)),
    );
  });
  r.patch('/guilds/:guild_id/members/:user_id', async (c) => {
    const principal = bot(c);
    const { guild_id, user_id } = ids(c);
    return c.json(
      await modifyGuildMember(c.get('ctx'), principal, guild_id, user_id!, await readJson(c, ModifyMemberBody)),
    );
  });

  r.post('/guilds/:guild_id/scheduled-events', async (c) => {
    const principal = bot(c);
    return c.json(
      await createScheduledEvent(c.get('ctx'), principal, ids(c).guild_id, await readJson(c, ScheduledEventBody)),
    );
  });
  r.get('/guilds/:guild_id/scheduled-events', async (c) => {
    const principal = c.get('principal');
    requireScope(principal, 'guilds');
    return c.json(await listScheduledEvents(c.get('ctx'), principal, ids(c).guild_id));
  });

  r.get('/guilds/:guild_id/audit-logs', async (c) => {
    const principal = bot(c);
    return c.json(await listAuditLog(c.get('ctx'), principal, ids(c).guild_id, readQuery(c, AuditLogQuery)));
  });

  return r;
}
