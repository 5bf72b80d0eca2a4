/**
 * Messages of guild channels, as the platform's public API has them: create, history, one
 * message, edit, delete; pins (`/messages/pins`, and the deprecated `/pins` routes, answered
 * with a `Link` to their successor); and Search Guild Messages under `/guilds`. Bots call them
 * with their bot token; users through an application's OAuth2 token with `messages.read` (reads)
 * or `messages.write` (changes), the sandbox's scopes for its simulated client.
 */
import { Hono } from 'hono';
import type { Principal } from '../../src/platform/oauth2/auth';
import { createMessage, type MessageAuthor } from '../../src/platform/messages/create';
import { createDmChannelMessage, isDmChannel } from '../../src/platform/messages/dm-channel-messages';
import { isGroupDm } from '../../src/platform/group-dms/channels';
import { createGroupDmMessage, listGroupDmMessages } from '../../src/platform/group-dms/messages';
import { deleteMessage, editMessage } from '../../src/platform/messages/edits';
import { listLegacyPins, listPins, setMessagePinned } from '../../src/platform/messages/pins';
import { getChannelMessage, listChannelMessages } from '../../src/platform/messages/reads';
import { MessageCreateSchema, MessageEditSchema } from '../../src/platform/messages/schemas';
import { MessageSearchQuerySchema, searchGuildMessages } from '../../src/platform/messages/search';
import { triggerTyping } from '../../src/platform/messages/typing';
import { noContent, readQuery, validate, type AppContext, type AppEnv, snowflakeParam, publicOrigin } from '../http';
import { readMessageRequest } from './message-uploads';
import { MessageHistoryQuerySchema, MessagePathSchema, PinsQuerySchema } from '../../src/platform/messages/schemas';

const ids = (c: AppContext) => validate(MessagePathSchema, c.req.param());

/** The caller as a message author (a user's token needs `messages.read` or `messages.write`: the access table's). */
function caller(c: AppContext): MessageAuthor & { principal: Principal } {
  const principal = c.get('principal');
  return { user: principal.user, application: principal.application, principal };
}

/** Where attachment URLs are served from (the service worker's own origin, or the server's sandbox). */
const origin = (c: AppContext) => publicOrigin(c);

/** Headers of a deprecated pins route: where its successor is. */
function deprecated(response: Response, channelId: string): Response {
  response.headers.set('Link', `</api/v10/channels/${channelId}/messages/pins>; rel="successor-version"`);
  return response;
}

/** The `/channels/{id}/messages...` and `/channels/{id}/pins...` routes. */
export function messageRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/:channel_id/messages', async (c) => {
    const author = caller(c);
    const { body, files } = await readMessageRequest(c, MessageCreateSchema);
    const channelId = ids(c).channel_id;
    // A DM channel (a bot library's `user.send`) is kept with the pair's direct messages.
    if (await isDmChannel(c.get('ctx'), channelId))
      return c.json(await createDmChannelMessage(c.get('ctx'), author.principal, channelId, body, files.length));
    if (await isGroupDm(c.get('ctx'), channelId))
      return c.json(await createGroupDmMessage(c.get('ctx'), author.principal, channelId, body, files.length));
    return c.json(
      await createMessage(c.get('ctx'), {
        channelId,
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
    const { principal } = caller(c);
    const channelId = ids(c).channel_id;
    const query = readQuery(c, MessageHistoryQuerySchema);
    if (await isGroupDm(c.get('ctx'), channelId))
      return c.json(await listGroupDmMessages(c.get('ctx'), principal, channelId, query));
    return c.json(await listChannelMessages(c.get('ctx'), principal, channelId, query));
  });
  // Before `/messages/:message_id`, so that `pins` is not read as a message id.
  r.get('/:channel_id/messages/pins', async (c) => {
    const { principal } = caller(c);
    return c.json(await listPins(c.get('ctx'), principal, ids(c).channel_id, readQuery(c, PinsQuerySchema)));
  });
  for (const [method, pin] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    r[method]('/:channel_id/messages/pins/:message_id', async (c) => {
      const { principal } = caller(c);
      const { channel_id, message_id } = ids(c);
      await setMessagePinned(c.get('ctx'), principal, channel_id, message_id!, pin);
      return noContent();
    });
    r[method]('/:channel_id/pins/:message_id', async (c) => {
      const { principal } = caller(c);
      const { channel_id, message_id } = ids(c);
      await setMessagePinned(c.get('ctx'), principal, channel_id, message_id!, pin);
      return deprecated(noContent(), channel_id);
    });
  }
  r.get('/:channel_id/pins', async (c) => {
    const { principal } = caller(c);
    const { channel_id } = ids(c);
    return deprecated(c.json(await listLegacyPins(c.get('ctx'), principal, channel_id)), channel_id);
  });
  r.get('/:channel_id/messages/:message_id', async (c) => {
    const { principal } = caller(c);
    const { channel_id, message_id } = ids(c);
    return c.json(await getChannelMessage(c.get('ctx'), principal, channel_id, message_id!));
  });
  r.patch('/:channel_id/messages/:message_id', async (c) => {
    const editor = caller(c);
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
    const actor = caller(c);
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
    const { principal } = caller(c);
    const guild_id = snowflakeParam(c, 'guild_id');
    const raw = Object.fromEntries(
      Object.entries(c.req.queries()).map(([k, values]) => [k, SEARCH_ARRAYS.has(k) ? values : values[0]]),
    );
    return c.json(
      await searchGuildMessages(c.get('ctx'), principal, guild_id, validate(MessageSearchQuerySchema, raw)),
    );
  });
  return r;
}
