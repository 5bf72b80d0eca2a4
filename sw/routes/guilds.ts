/**
 * `/guilds` routes (channels, roles, members) and `/users/@me/guilds`. Reads are open to bots
 * and to OAuth2 tokens with the `guilds` scope of a member; member lists and every change are
 * for bots, as on the platform.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { requireBot, requireScope, type Principal } from '../../src/platform/oauth2/auth';
import {
  getGuildRole,
  listCurrentUserGuilds,
  listGuildChannels,
  roleMemberCounts,
} from '../../src/platform/guilds/reads';
import { getGuildMember, listGuildMembers, removeGuildMember, setMemberRole } from '../../src/platform/guilds/members';
import { modifyGuildRole } from '../../src/platform/guilds/roles';
import { parsePermissions } from '../../src/platform/core/permissions';
import { GUILD_MEMBERS_LIST_MAX } from '../../src/platform/core/limits';
import { noContent, readJson, readQuery, schemas, validate, type AppContext, type AppEnv } from '../http';

const GuildPath = v.object({
  guild_id: schemas.snowflake,
  user_id: v.optional(schemas.snowflake),
  role_id: v.optional(schemas.snowflake),
});
const MembersQuery = v.object({
  limit: v.optional(schemas.queryInt(1, GUILD_MEMBERS_LIST_MAX), '1'),
  after: v.optional(schemas.snowflake, '0'),
});
const GuildsQuery = v.object({
  before: v.optional(schemas.snowflake),
  after: v.optional(schemas.snowflake),
  limit: v.optional(schemas.queryInt(1, 200), '200'),
  with_counts: v.optional(
    v.pipe(
      v.picklist(['true', 'false']),
      v.transform((s) => s === 'true'),
    ),
    'false',
  ),
});

const color = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff));
const RoleBody = v.object({
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  permissions: v.optional(
    v.pipe(
      v.string('Must be a decimal string.'),
      v.check((s) => parsePermissions(s) !== null, 'Must be a decimal string of a 64-bit bit set.'),
      v.transform((s) => parsePermissions(s)!),
    ),
  ),
  // Deprecated but honored: the role's primary colour.
  color: v.optional(v.nullable(color)),
  colors: v.optional(
    v.object({
      primary_color: v.optional(color),
      secondary_color: v.optional(v.nullable(color)),
      tertiary_color: v.optional(v.nullable(color)),
    }),
  ),
  hoist: v.optional(v.boolean()),
  mentionable: v.optional(v.boolean()),
});

/** The validated path ids (a bad id is 400 50035). */
const ids = (c: AppContext) => validate(GuildPath, c.req.param());

/** The caller, for a read: a bot, or an OAuth2 token with the `guilds` scope. */
function reader(c: AppContext): Principal {
  const principal = c.get('principal');
  requireScope(principal, 'guilds');
  return principal;
}

/** The caller, for a bot-only route. */
function bot(c: AppContext) {
  const principal = c.get('principal');
  requireBot(principal);
  return principal;
}

/** The `/guilds` routes. */
export function guildRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:guild_id/channels', async (c) => c.json(await listGuildChannels(c.get('ctx'), reader(c), ids(c).guild_id)));
  // Registered before `/roles/:role_id` so that `member-counts` is not read as a role id.
  r.get('/:guild_id/roles/member-counts', async (c) =>
    c.json(await roleMemberCounts(c.get('ctx'), reader(c), ids(c).guild_id)),
  );
  r.get('/:guild_id/roles/:role_id', async (c) => {
    const { guild_id, role_id } = ids(c);
    return c.json(await getGuildRole(c.get('ctx'), reader(c), guild_id, role_id!));
  });
  r.patch('/:guild_id/roles/:role_id', async (c) => {
    const principal = bot(c);
    const { guild_id, role_id } = ids(c);
    return c.json(await modifyGuildRole(c.get('ctx'), principal, guild_id, role_id!, await readJson(c, RoleBody)));
  });
  r.get('/:guild_id/members', async (c) => {
    const principal = bot(c);
    const { guild_id } = ids(c);
    return c.json(await listGuildMembers(c.get('ctx'), principal, guild_id, readQuery(c, MembersQuery)));
  });
  r.get('/:guild_id/members/:user_id', async (c) => {
    const principal = bot(c);
    const { guild_id, user_id } = ids(c);
    return c.json(await getGuildMember(c.get('ctx'), principal, guild_id, user_id!));
  });
  r.delete('/:guild_id/members/:user_id', async (c) => {
    const principal = bot(c);
    const { guild_id, user_id } = ids(c);
    await removeGuildMember(c.get('ctx'), principal, guild_id, user_id!);
    return noContent();
  });
  for (const [method, add] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    r[method]('/:guild_id/members/:user_id/roles/:role_id', async (c) => {
      const principal = bot(c);
      const { guild_id, user_id, role_id } = ids(c);
      await setMemberRole(c.get('ctx'), principal, guild_id, user_id!, role_id!, add);
      return noContent();
    });
  }
  return r;
}

/** `GET /users/@me/guilds`: the caller's guilds, each with its `banner`. */
export function currentUserGuildRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/', async (c) => c.json(await listCurrentUserGuilds(c.get('ctx'), reader(c), readQuery(c, GuildsQuery))));
  return r;
}
