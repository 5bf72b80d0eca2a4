/**
 * Messages of guild channels, as the platform's public API has them: create, history, one
 * message, edit, delete; pins (`/messages/pins`, and the deprecated `/pins` routes, answered
 * with a `Link` to their successor); and Search Guild Messages under `/guilds`. Bots call them
 * with their bot token; users through an application's OAuth2 token with `messages.read` (reads)
 * or `messages.write` (changes), the sandbox's scopes for its simulated client.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { requireScope, type Principal } from '../../src/platform/oauth2/auth';
import { createMessage, type MessageAuthor } from '../../src/platform/messages/create';
import { CHANNEL_MESSAGES_MAX, PINS_PAGE_MAX } from '../../src/platform/core/limits';
import { deleteMessage, editMessage } from '../../src/platform/messages/edits';
import { listLegacyPins, listPins, setMessagePinned } from '../../src/platform/messages/pins';
import { getChannelMessage, listChannelMessages } from '../../src/platform/messages/reads';
import { MessageCreateSchema, MessageEditSchema } from '../../src/platform/messages/schemas';
import { MessageSearchQuerySchema, searchGuildMessages } from '../../src/platform/messages/search';
import { triggerTyping } from '../../src/platform/messages/typing';
import { noContent, readQuery, schemas, validate, type AppContext, type AppEnv } from '../http';
import { readMessageRequest } from './message-uploads';

const Path = v.object({
  channel_id: schemas.snowflake,
  message_id: v.optional(schemas.snowflake),
  guild_id: v.optional(schemas.snowflake),
});
const HistoryQuery = v.pipe(
  v.object({
    limit: v.optional(schemas.queryInt(1, CHANNEL_MESSAGES_MAX)),
    before: v.optional(schemas.snowflake),
    after: v.optional(schemas.snowflake),
    around: v.optional(schemas.snowflake),
  }),
  v.check(
    (q) => [q.before, q.after, q.around].filter((x) => x !== undefined).length <= 1,
    'before, after and around are mutually exclusive.',
  ),
);
const PinsQuery = v.object({
  before: v.optional(
    v.pipe(
      v.string(),
      v.isoTimestamp('Must be an ISO8601 timestamp.'),
      v.transform((s) => Date.parse(s)),
    ),
  ),
  limit: v.optional(schemas.queryInt(1, PINS_PAGE_MAX)),
});

const ids = (c: AppContext) => validate(Path, c.req.param());

/** The caller as a message author; a user's token needs `scope`. */
function caller(c: AppContext, scope: 'messages.read' | 'messages.write'): MessageAuthor & { principal: Principal } {
  const principal = c.get('principal');
  requireScope(principal, scope);
  return { user: principal.user, application: principal.application, principal };
}

/** The origin attachment URLs are served from (the service worker's own). */
const origin = (c: AppContext) => new URL(c.req.url).origin;

/** Headers of a deprecated pins route: where its successor is. */
function deprecated(response: Response, channelId: string): Response {
  response.headers.set('Link', `</api/v10/channels/${channelId}/messages/pins>; rel="successor-version"`);
  return response;
}

/** The `/channels/{id}/messages...` and `/channels/{id}/pins...` routes. */
export function messageRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/:channel_id/messages', async (c) => {
    const author = caller(c, 'messages.write');
    const { body, files } = await readMessageRequest(c, MessageCreateSchema);
    return c.json(
      await createMessage(c.get('ctx'), {
        channelId: ids(c).channel_id,
        author,
        input: body,
        files,
        origin: origin(c),
      }),
    );
  });
  // Trigger Typing Indicator: the scope depends on the channel (a guild's or a DM), checked there.
  r.post('/:channel_id/typing', async (c) => {
    await triggerTyping(c.get('ctx'), c.get('principal'), ids(c).channel_id);
    return noContent();
  });
  r.get('/:channel_id/messages', async (c) => {
    const { principal } = caller(c, 'messages.read');
    return c.json(await listChannelMessages(c.get('ctx'), principal, ids(c).channel_id, readQuery(c, HistoryQuery)));
  });
  // Before `/messages/:message_id`, so that `pins` is not read as a message id.
  r.get('/:channel_id/messages/pins', async (c) => {
    const { principal } = caller(c, 'messages.read');
    return c.json(await listPins(c.get('ctx'), principal, ids(c).channel_id, readQuery(c, PinsQuery)));
  });
  for (const [method, pin] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    r[method]('/:channel_id/messages/pins/:message_id', async (c) => {
      const { principal } = caller(c, 'messages.write');
      const { channel_id, message_id } = ids(c);
      await setMessagePinned(c.get('ctx'), principal, channel_id, message_id!, pin);
      return noContent();
    });
    r[method]('/:channel_id/pins/:message_id', async (c) => {
      const { principal } = caller(c, 'messages.write');
      const { channel_id, message_id } = ids(c);
      await setMessagePinned(c.get('ctx'), principal, channel_id, message_id!, pin);
      return deprecated(noContent(), channel_id);
    });
  }
  r.get('/:channel_id/pins', async (c) => {
    const { principal } = caller(c, 'messages.read');
    const { channel_id } = ids(c);
    return deprecated(c.json(await listLegacyPins(c.get('ctx'), principal, channel_id)), channel_id);
  });
  r.get('/:channel_id/messages/:message_id', async (c) => {
    const { principal } = caller(c, 'messages.read');
    const { channel_id, message_id } = ids(c);
    return c.json(await getChannelMessage(c.get('ctx'), principal, channel_id, message_id!));
  });
  r.patch('/:channel_id/messages/:message_id', async (c) => {
    const editor = caller(c, 'messages.write');
    const { channel_id, message_id } = ids(c);
    const { body, files } = await readMessageRequest(c, MessageEditSchema);
    return c.json(
      await editMessage(c.get('ctx'), {
        channelId: channel_id,
        messageId: message_id!,
        editor,
        input: body,
        files,
        origin: origin(c),
      }),
    );
  });
  r.delete('/:channel_id/messages/:message_id', async (c) => {
    const actor = caller(c, 'messages.write');
    const { channel_id, message_id } = ids(c);
    await deleteMessage(c.get('ctx'), { channelId: channel_id, messageId: message_id!, actor });
    return noContent();
  });
  return r;
}

/** Array query parameters of the search route (repeatable), the rest single-valued. */
const SEARCH_ARRAYS = new Set(['author_id', 'channel_id', 'mentions', 'author_type', 'has']);

/** `GET /guilds/{guild.id}/messages/search`. */
export function messageSearchRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:guild_id/messages/search', async (c) => {
    const { principal } = caller(c, 'messages.read');
    const { guild_id } = validate(v.object({ guild_id: schemas.snowflake }), c.req.param());
    const raw = Object.fromEntries(
      Object.entries(c.req.queries()).map(([k, values]) => [k, SEARCH_ARRAYS.has(k) ? values : values[0]]),
    );
    return c.json(
      await searchGuildMessages(c.get('ctx'), principal, guild_id, validate(MessageSearchQuerySchema, raw)),
    );
  });
  return r;
}
