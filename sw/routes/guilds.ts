/**
 * `/guilds` routes (channels, roles, members) and `/users/@me/guilds`. Reads are open to bots
 * and to OAuth2 tokens with the `guilds` scope of a member; member lists and every change are
 * for bots, as on the platform (the access table says so; the domain checks membership).
 */
import { Hono } from 'hono';
import {
  getGuildRole,
  listCurrentUserGuilds,
  listGuildChannels,
  roleMemberCounts,
} from '../../src/platform/guilds/reads';
import { getGuildMember, listGuildMembers, removeGuildMember, setMemberRole } from '../../src/platform/guilds/members';
import { modifyGuildRole } from '../../src/platform/guilds/roles';
import { getGuild, listGuildRoles } from '../../src/platform/guilds/guild-object';
import { botOf, noContent, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';
import {
  CurrentUserGuildsQuerySchema,
  GetGuildQuerySchema,
  GuildMembersQuerySchema,
  GuildPathSchema,
  ModifyRoleSchema,
} from '../../src/platform/guilds/schemas';

/** The validated path ids (a bad id is 400 50035). */
const ids = (c: AppContext) => validate(GuildPathSchema, c.req.param());

/** The caller of a read: a bot, or an OAuth2 token with the `guilds` scope (the access table's). */
const reader = (c: AppContext) => c.get('principal');

/** The `/guilds` routes. */
export function guildRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:guild_id', async (c) => {
    const { guild_id } = ids(c);
    const { with_counts } = readQuery(c, GetGuildQuerySchema);
    return c.json(await getGuild(c.get('ctx'), botOf(c), guild_id, { withCounts: with_counts }));
  });
  r.get('/:guild_id/roles', async (c) => c.json(await listGuildRoles(c.get('ctx'), botOf(c), ids(c).guild_id)));
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
    const principal = botOf(c);
    const { guild_id, role_id } = ids(c);
    return c.json(
      await modifyGuildRole(c.get('ctx'), principal, guild_id, role_id!, await readJson(c, ModifyRoleSchema)),
    );
  });
  r.get('/:guild_id/members', async (c) => {
    const principal = botOf(c);
    const { guild_id } = ids(c);
    return c.json(await listGuildMembers(c.get('ctx'), principal, guild_id, readQuery(c, GuildMembersQuerySchema)));
  });
  r.get('/:guild_id/members/:user_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, user_id } = ids(c);
    return c.json(await getGuildMember(c.get('ctx'), principal, guild_id, user_id!));
  });
  r.delete('/:guild_id/members/:user_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, user_id } = ids(c);
    await removeGuildMember(c.get('ctx'), principal, guild_id, user_id!);
    return noContent();
  });
  for (const [method, add] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    r[method]('/:guild_id/members/:user_id/roles/:role_id', async (c) => {
      const principal = botOf(c);
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
  r.get('/', async (c) =>
    c.json(await listCurrentUserGuilds(c.get('ctx'), reader(c), readQuery(c, CurrentUserGuildsQuerySchema))),
  );
  return r;
}
