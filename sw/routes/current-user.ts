/**
 * The current user's own changes: `PATCH /users/@me` (a bot's username, avatar and banner),
 * leaving a guild (`DELETE /users/@me/guilds/{guild.id}`) and reading one's own member object
 * (`GET /users/@me/guilds/{guild.id}/member`). Mounted at `/users/@me`.
 */
import { Hono } from 'hono';
import { modifyCurrentUser } from '../../src/platform/accounts/current-user-edits';
import { ModifyCurrentUserSchema } from '../../src/platform/accounts/schemas';
import { getCurrentUserMember, leaveGuild } from '../../src/platform/guilds/current-user-guild';
import { botOf, noContent, readJson, snowflakeParam, type AppEnv } from '../http';

/** The current user routes. */
export function currentUserRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.patch('/', async (c) => {
    const principal = botOf(c);
    return c.json(await modifyCurrentUser(c.get('ctx'), principal, await readJson(c, ModifyCurrentUserSchema)));
  });
  r.delete('/guilds/:guild_id', async (c) => {
    const principal = botOf(c);
    await leaveGuild(c.get('ctx'), principal, snowflakeParam(c, 'guild_id'));
    return noContent();
  });
  r.get('/guilds/:guild_id/member', async (c) =>
    c.json(await getCurrentUserMember(c.get('ctx'), c.get('principal'), snowflakeParam(c, 'guild_id'))),
  );
  return r;
}
