/**
 * Sandbox controls for guild channel messages: a guild's AutoMod blocked keywords, making its
 * message search index ready now, and its boost level (which raises the upload limit); a
 * user's votes in a poll.
 */
import { Hono } from 'hono';
import { setAutoModKeywords } from '../../src/platform/messages/automod';
import { forceSearchIndex } from '../../src/platform/messages/search-index';
import { readJson, validate, type AppEnv } from '../http';
import { setGuildPremiumTier } from '../../src/platform/guilds/fixtures';
import { PremiumTierSchema } from '../../src/platform/guilds/schemas';
import { getAutoModKeywords } from '../../src/platform/messages/automod';
import {
  AutoModKeywordsSchema,
  SandboxGuildPathSchema,
  SandboxPollVotePathSchema,
  SandboxPollVotesSchema,
} from '../../src/platform/messages/schemas';
import { setPollVotes } from '../../src/platform/messages/polls';

/** The `/sandbox/guilds/{id}/...` message controls. */
export function sandboxMessageRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/guilds/:guild_id/automod/keywords', async (c) => {
    const { guild_id } = validate(SandboxGuildPathSchema, c.req.param());
    return c.json({ guild_id, keywords: await getAutoModKeywords(c.get('ctx'), guild_id) });
  });
  r.put('/guilds/:guild_id/automod/keywords', async (c) => {
    const { guild_id } = validate(SandboxGuildPathSchema, c.req.param());
    const { keywords } = await readJson(c, AutoModKeywordsSchema);
    const rule = await setAutoModKeywords(c.get('ctx'), guild_id, keywords);
    return c.json({ guild_id, keywords: rule.keywords });
  });
  r.post('/guilds/:guild_id/index', async (c) => {
    const { guild_id } = validate(SandboxGuildPathSchema, c.req.param());
    const index = await forceSearchIndex(c.get('ctx'), guild_id);
    return c.json({ guild_id, ready_at: new Date(index.ready_at).toISOString() });
  });
  r.put('/guilds/:guild_id/premium-tier', async (c) => {
    const { guild_id } = validate(SandboxGuildPathSchema, c.req.param());
    const { premium_tier } = await readJson(c, PremiumTierSchema);
    await setGuildPremiumTier(c.get('ctx'), guild_id, premium_tier);
    return c.json({ guild_id, premium_tier });
  });
  // A user votes in a poll, as the platform's client does (its voting route is not public).
  r.put('/channels/:channel_id/polls/:message_id/votes/:user_id', async (c) => {
    const { channel_id, message_id, user_id } = validate(SandboxPollVotePathSchema, c.req.param());
    const { answer_ids } = await readJson(c, SandboxPollVotesSchema);
    const votes = await setPollVotes(c.get('ctx'), user_id, channel_id, message_id, answer_ids);
    return c.json({ answer_ids: votes });
  });
  return r;
}
