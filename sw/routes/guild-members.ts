/**
 * Finding and adding guild members: `GET /guilds/{guild.id}/members/search` and `PUT
 * /guilds/{guild.id}/members/{user.id}` (a user's OAuth2 token with `guilds.join`), for bots.
 * Mounted at `/guilds` before `guilds.ts`, so that `search` is not read as a user id.
 */
import { Hono } from 'hono';
import { addGuildMember, searchGuildMembers } from '../../src/platform/guilds/member-join';
import { botOf, noContent, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';
import {
  AddGuildMemberSchema,
  GuildMembersSearchQuerySchema,
  GuildPathSchema,
} from '../../src/platform/guilds/schemas';

const ids = (c: AppContext) => validate(GuildPathSchema, c.req.param());

/** The member search and add routes. */
export function guildMemberRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:guild_id/members/search', async (c) => {
    const principal = botOf(c);
    const { guild_id } = ids(c);
    return c.json(
      await searchGuildMembers(c.get('ctx'), principal, guild_id, readQuery(c, GuildMembersSearchQuerySchema)),
    );
  });
  r.put('/:guild_id/members/:user_id', async (c) => {
    const principal = botOf(c);
    const { guild_id, user_id } = ids(c);
    const member = await addGuildMember(
      c.get('ctx'),
      principal,
      guild_id,
      user_id!,
      await readJson(c, AddGuildMemberSchema),
    );
    return member ? c.json(member, 201) : noContent();
  });
  return r;
}
