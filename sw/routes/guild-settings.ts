/**
 * A guild's own settings for bots: Modify Guild (`PATCH /guilds/{guild.id}`) and its invites
 * (`GET /guilds/{guild.id}/invites`). Mounted at `/guilds`; Get Guild lives in `guilds.ts`.
 */
import { Hono } from 'hono';
import { modifyGuild } from '../../src/platform/guilds/modify-guild';
import { listGuildInvites } from '../../src/platform/channels/invites';
import { auditLogReason, botOf, readJson, validate, type AppContext, type AppEnv } from '../http';
import { GuildPathSchema, ModifyGuildSchema } from '../../src/platform/guilds/schemas';

const ids = (c: AppContext) => validate(GuildPathSchema, c.req.param());

/** The guild settings routes. */
export function guildSettingsRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.patch('/:guild_id', async (c) => {
    const principal = botOf(c);
    const { guild_id } = ids(c);
    const body = await readJson(c, ModifyGuildSchema);
    return c.json(
      await modifyGuild(
        c.get('ctx'),
        principal,
        guild_id,
        { name: body.name, icon: body.icon, banner: body.banner, owner_id: body.owner_id },
        auditLogReason(c),
      ),
    );
  });
  r.get('/:guild_id/invites', async (c) => c.json(await listGuildInvites(c.get('ctx'), botOf(c), ids(c).guild_id)));
  return r;
}
