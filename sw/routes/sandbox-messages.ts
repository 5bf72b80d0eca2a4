/**
 * Sandbox controls for guild channel messages: a guild's AutoMod blocked keywords, making its
 * message search index ready now, and its boost level (which raises the upload limit).
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { write } from '../../src/store/write';
import { ApiError } from '../../src/platform/core/errors';
import { AUTOMOD_KEYWORD_MAX, AUTOMOD_KEYWORDS_MAX } from '../../src/platform/core/limits';
import { setAutoModKeywords } from '../../src/platform/messages/automod';
import { forceSearchIndex } from '../../src/platform/messages/search-index';
import { readJson, schemas, validate, type AppEnv } from '../http';

const GuildPath = v.object({ guild_id: schemas.snowflake });
const KeywordsBody = v.object({
  keywords: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.trim(),
        v.minLength(1),
        v.maxLength(AUTOMOD_KEYWORD_MAX, `Must be ${AUTOMOD_KEYWORD_MAX} or fewer in length.`),
      ),
    ),
    v.maxLength(AUTOMOD_KEYWORDS_MAX, `Must be ${AUTOMOD_KEYWORDS_MAX} or fewer in length.`),
  ),
});
const PremiumTierBody = v.object({ premium_tier: v.picklist([0, 1, 2, 3], 'Must be 0, 1, 2 or 3.') });

/** The `/sandbox/guilds/{id}/...` message controls. */
export function sandboxMessageRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/guilds/:guild_id/automod/keywords', async (c) => {
    const { guild_id } = validate(GuildPath, c.req.param());
    const rule = await c.get('ctx').db.get('automod_keywords', guild_id);
    return c.json({ guild_id, keywords: rule?.keywords ?? [] });
  });
  r.put('/guilds/:guild_id/automod/keywords', async (c) => {
    const { guild_id } = validate(GuildPath, c.req.param());
    const { keywords } = await readJson(c, KeywordsBody);
    const rule = await setAutoModKeywords(c.get('ctx'), guild_id, keywords);
    return c.json({ guild_id, keywords: rule.keywords });
  });
  r.post('/guilds/:guild_id/index', async (c) => {
    const { guild_id } = validate(GuildPath, c.req.param());
    const index = await forceSearchIndex(c.get('ctx'), guild_id);
    return c.json({ guild_id, ready_at: new Date(index.ready_at).toISOString() });
  });
  r.put('/guilds/:guild_id/premium-tier', async (c) => {
    const { guild_id } = validate(GuildPath, c.req.param());
    const { premium_tier } = await readJson(c, PremiumTierBody);
    await write(c.get('ctx'), ['guilds'], async (tx) => {
      const guild = await tx.store('guilds').get(guild_id);
      if (!guild) throw ApiError.of('UNKNOWN_GUILD');
      await tx.store('guilds').put({ ...guild, premium_tier });
    });
    return c.json({ guild_id, premium_tier });
  });
  return r;
}
