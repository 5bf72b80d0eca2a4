/**
 * Application command permissions in a guild: `GET /applications/{id}/guilds/{guild.id}/commands/
 * permissions`, `GET` / `PUT .../commands/{command.id}/permissions`. Mounted at `/applications`
 * before the command routes, so that `permissions` is not read as a command id.
 */
import { Hono } from 'hono';
import {
  getCommandPermissions,
  listCommandPermissions,
  putCommandPermissions,
} from '../../src/platform/interactions/command-permissions';
import {
  CommandPermissionsPathSchema,
  CommandPermissionsSchema,
} from '../../src/platform/interactions/command-schemas';
import { bearerOf, readJson, validate, type AppContext, type AppEnv } from '../http';

const ids = (c: AppContext) => validate(CommandPermissionsPathSchema, c.req.param());
const BASE = '/:application_id/guilds/:guild_id/commands';

/** The command permissions routes. */
export function commandPermissionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get(`${BASE}/permissions`, async (c) => {
    const { application_id, guild_id } = ids(c);
    return c.json(await listCommandPermissions(c.get('ctx'), c.get('principal'), application_id, guild_id));
  });
  r.get(`${BASE}/:command_id/permissions`, async (c) => {
    const { application_id, guild_id, command_id } = ids(c);
    return c.json(await getCommandPermissions(c.get('ctx'), c.get('principal'), application_id, guild_id, command_id!));
  });
  r.put(`${BASE}/:command_id/permissions`, async (c) => {
    const principal = bearerOf(c);
    const { application_id, guild_id, command_id } = ids(c);
    const { permissions } = await readJson(c, CommandPermissionsSchema);
    return c.json(
      await putCommandPermissions(c.get('ctx'), principal, application_id, guild_id, command_id!, permissions),
    );
  });
  return r;
}
