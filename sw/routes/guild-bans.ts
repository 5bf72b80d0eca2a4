/**
 * A guild's bans: `GET /guilds/{guild.id}/bans`, `GET` / `PUT` / `DELETE
 * /guilds/{guild.id}/bans/{user.id}` and `POST /guilds/{guild.id}/bulk-ban`, for bots. The
 * reason is the `X-Audit-Log-Reason` header. Mounted at `/guilds`.
 */
import { Hono } from 'hono';
import { banGuildMember, bulkBan, getGuildBan, listGuildBans, unbanGuildMember } from '../../src/platform/guilds/bans';
import { auditLogReason, botOf, noContent, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';
import {
  BanMemberSchema,
  BulkBanSchema,
  GuildBansQuerySchema,
  GuildPathSchema,
} from '../../src/platform/guilds/schemas';

const ids = (c: AppContext) => validate(GuildPathSchema, c.req.param());

/** The ban routes. */
export function guildBanRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:guild_id/bans', async (c) => {
    const principal = botOf(c);
    return c.json(await listGuildBans(c.get('ctx'), principal, ids(c).guild_id, readQuery(c, GuildBansQuerySchema)));
  });
  r.get('/:guild_id/bans/:user_id', async (c) => {
    const { guild_id, user_id } = ids(c);
    return c.json(await getGuildBan(c.get('ctx'), botOf(c), guild_id, user_id!));
  });
  r.put('/:guild_id/bans/:user_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, user_id } = ids(c);
    const body = await readJson(c, BanMemberSchema);
    await banGuildMember(c.get('ctx'), principal, guild_id, user_id!, {
      deleteMessageSeconds: body.delete_message_seconds,
      reason: auditLogReason(c),
    });
    return noContent();
  });
  r.delete('/:guild_id/bans/:user_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, user_id } = ids(c);
    await unbanGuildMember(c.get('ctx'), principal, guild_id, user_id!, auditLogReason(c));
    return noContent();
  });
  r.post('/:guild_id/bulk-ban', async (c) => {
    const principal = botOf(c);
    const { guild_id } = ids(c);
    const body = await readJson(c, BulkBanSchema);
    return c.json(
      await bulkBan(c.get('ctx'), principal, guild_id, {
        userIds: body.user_ids,
        deleteMessageSeconds: body.delete_message_seconds,
        reason: auditLogReason(c),
      }),
    );
  });
  return r;
}
