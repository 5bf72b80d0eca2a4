/**
 * A guild's roles as a bot manages them: create (`POST /guilds/{guild.id}/roles`), reorder
 * (`PATCH /guilds/{guild.id}/roles`) and delete (`DELETE /guilds/{guild.id}/roles/{role.id}`).
 * Reads and the change of one role live in `guilds.ts`. Mounted at `/guilds`.
 */
import { Hono } from 'hono';
import { createGuildRole, deleteGuildRole, modifyRolePositions } from '../../src/platform/guilds/role-admin';
import { botOf, noContent, readJson, validate, type AppContext, type AppEnv } from '../http';
import { CreateRoleSchema, GuildPathSchema, RolePositionsSchema } from '../../src/platform/guilds/schemas';

const ids = (c: AppContext) => validate(GuildPathSchema, c.req.param());

/** The role administration routes. */
export function guildRoleRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/:guild_id/roles', async (c) => {
    const principal = botOf(c);
    const { guild_id } = ids(c);
    return c.json(await createGuildRole(c.get('ctx'), principal, guild_id, await readJson(c, CreateRoleSchema)));
  });
  r.patch('/:guild_id/roles', async (c) => {
    const principal = botOf(c);
    const { guild_id } = ids(c);
    return c.json(await modifyRolePositions(c.get('ctx'), principal, guild_id, await readJson(c, RolePositionsSchema)));
  });
  r.delete('/:guild_id/roles/:role_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, role_id } = ids(c);
    await deleteGuildRole(c.get('ctx'), principal, guild_id, role_id!);
    return noContent();
  });
  return r;
}
