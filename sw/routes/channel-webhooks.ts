/**
 * The webhooks of a channel and of a guild, for bots with MANAGE_WEBHOOKS:
 * `GET` / `POST /channels/{channel.id}/webhooks` and `GET /guilds/{guild.id}/webhooks`.
 */
import { Hono } from 'hono';
import { createWebhook, listChannelWebhooks, listGuildWebhooks } from '../../src/platform/channel-webhooks/manage';
import { CreateWebhookSchema, WebhookOwnerPathSchema } from '../../src/platform/channel-webhooks/schemas';
import { botOf, readJson, validate, type AppContext, type AppEnv } from '../http';

const ids = (c: AppContext) => validate(WebhookOwnerPathSchema, c.req.param());

/** The channel and guild webhook routes (mounted at the API root). */
export function channelWebhookRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/channels/:channel_id/webhooks', async (c) =>
    c.json(await listChannelWebhooks(c.get('ctx'), botOf(c), ids(c).channel_id!)),
  );
  r.post('/channels/:channel_id/webhooks', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, CreateWebhookSchema);
    return c.json(await createWebhook(c.get('ctx'), principal, ids(c).channel_id!, body));
  });
  r.get('/guilds/:guild_id/webhooks', async (c) =>
    c.json(await listGuildWebhooks(c.get('ctx'), botOf(c), ids(c).guild_id!)),
  );
  return r;
}
