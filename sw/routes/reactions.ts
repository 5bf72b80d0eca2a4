/**
 * Reactions on a message (guild channels and DM channels), as the platform's public API has
 * them: add and remove one's own, remove a user's, remove one emoji's or all, and list the users
 * of one emoji. Everything is in the path; the rules are in `src/platform/messages/reactions.ts`.
 */
import { Hono } from 'hono';
import {
  addReaction,
  listReactionUsers,
  removeAllReactions,
  removeEmojiReactions,
  removeUserReaction,
  type ReactionPath,
} from '../../src/platform/messages/reactions';
import { MessagePathSchema, ReactionPathSchema, ReactionUsersQuerySchema } from '../../src/platform/messages/schemas';
import { noContent, readQuery, validate, type AppContext, type AppEnv } from '../http';

/** The route's path parameters, checked. */
function pathOf(c: AppContext): ReactionPath & { userId?: string } {
  const p = validate(ReactionPathSchema, c.req.param());
  return { channelId: p.channel_id, messageId: p.message_id, emoji: p.emoji, userId: p.user_id };
}

/** The `/channels/{id}/messages/{id}/reactions...` routes. */
export function reactionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const base = '/:channel_id/messages/:message_id/reactions';
  r.put(`${base}/:emoji/@me`, async (c) => {
    await addReaction(c.get('ctx'), c.get('principal'), pathOf(c));
    return noContent();
  });
  // Before `/:user_id`, so that `@me` is not read as a user id.
  r.delete(`${base}/:emoji/@me`, async (c) => {
    await removeUserReaction(c.get('ctx'), c.get('principal'), pathOf(c));
    return noContent();
  });
  r.delete(`${base}/:emoji/:user_id`, async (c) => {
    const path = pathOf(c);
    await removeUserReaction(c.get('ctx'), c.get('principal'), path, path.userId);
    return noContent();
  });
  r.get(`${base}/:emoji`, async (c) => {
    const query = readQuery(c, ReactionUsersQuerySchema);
    return c.json(await listReactionUsers(c.get('ctx'), c.get('principal'), pathOf(c), query));
  });
  r.delete(`${base}/:emoji`, async (c) => {
    await removeEmojiReactions(c.get('ctx'), c.get('principal'), pathOf(c));
    return noContent();
  });
  r.delete(base, async (c) => {
    const { channel_id, message_id } = validate(MessagePathSchema, c.req.param());
    await removeAllReactions(c.get('ctx'), c.get('principal'), channel_id, message_id!);
    return noContent();
  });
  return r;
}
