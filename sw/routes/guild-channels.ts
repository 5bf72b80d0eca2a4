/**
 * A guild's channels changed by a bot with MANAGE_CHANNELS: `POST /guilds/{guild.id}/channels`
 * (create, 201) and `PATCH /guilds/{guild.id}/channels` (positions, 204). The list itself is
 * `routes/guilds.ts`'s.
 */
import { Hono } from 'hono';
import { createGuildChannel, modifyChannelPositions } from '../../src/platform/channels/guild-channels';
import {
  ChannelPositionsSchema,
  CreateGuildChannelSchema,
  GuildChannelsPathSchema,
} from '../../src/platform/channels/schemas';
import { botOf, noContent, readJson, validate, type AppContext, type AppEnv } from '../http';

const ids = (c: AppContext) => validate(GuildChannelsPathSchema, c.req.param());

/** The guild channel routes (mounted at the API root). */
export function guildChannelRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/guilds/:guild_id/channels', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, CreateGuildChannelSchema);
    return c.json(await createGuildChannel(c.get('ctx'), principal, ids(c).guild_id, body), 201);
  });
  r.patch('/guilds/:guild_id/channels', async (c) => {
    const principal = botOf(c);
    await modifyChannelPositions(c.get('ctx'), principal, ids(c).guild_id, await readJson(c, ChannelPositionsSchema));
    return noContent();
  });
  return r;
}
