/**
 * Direct messages of the current user, mounted at `/users/@me`: `GET /channels` (its DM
 * channels and group DMs, `dm_channels.read`), and with one recipient `POST /dms/{recipient_id}/messages`
 * (`dm_channels.messages.write`) and `GET /dms/{recipient_id}/messages?limit=`
 * (`dm_channels.messages.read`). A user's OAuth2 token only; `sdk.social_layer` expands to the
 * three scopes. `POST /channels` is Create DM, for a bot (`{recipient_id}`: the DM channel it
 * shares with the user, made on first use), or Create Group DM (`{access_tokens, nicks?}`).
 */
import { Hono } from 'hono';
import { listDmChannels, listUserMessages, sendUserMessage } from '../../src/platform/messages/direct-messages';
import { createDm } from '../../src/platform/messages/create-dm';
import { createGroupDm, listGroupDms } from '../../src/platform/group-dms/channels';
import { snowflakeKey } from '../../src/platform/core/snowflake';
import { CreatePrivateChannelSchema } from '../../src/platform/group-dms/schemas';
import {
  DmMessageSchema,
  DmMessagesQuerySchema,
  DmPathSchema,
} from '../../src/platform/messages/direct-message-schemas';
import { DM_MESSAGES_DEFAULT } from '../../src/platform/core/limits';
import { bearerOf, botOf, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';

const recipientOf = (c: AppContext) => validate(DmPathSchema, c.req.param()).recipient_id!;

/** The DM routes, mounted at `/users/@me`. */
export function directMessageRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/channels', async (c) => {
    const principal = bearerOf(c);
    const [dms, groups] = await Promise.all([
      listDmChannels(c.get('ctx'), principal),
      listGroupDms(c.get('ctx'), principal.user.id),
    ]);
    // Most recent first, a group DM among the DMs by its last message (or its creation).
    const recency = (channel: { id: string; last_message_id: string | null }) =>
      snowflakeKey(channel.last_message_id ?? channel.id);
    return c.json([...dms, ...groups].sort((x, y) => (recency(x) < recency(y) ? 1 : -1)));
  });

  r.post('/channels', async (c) => {
    const principal = botOf(c);
    const body = await readJson(c, CreatePrivateChannelSchema);
    if (body.access_tokens)
      return c.json(
        await createGroupDm(c.get('ctx'), principal, { access_tokens: body.access_tokens, nicks: body.nicks }),
      );
    return c.json(await createDm(c.get('ctx'), principal, body.recipient_id!));
  });

  r.post('/dms/:recipient_id/messages', async (c) => {
    const principal = bearerOf(c);
    const recipientId = recipientOf(c);
    const body = await readJson(c, DmMessageSchema);
    return c.json(await sendUserMessage(c.get('ctx'), principal, recipientId, body));
  });

  r.get('/dms/:recipient_id/messages', async (c) => {
    const principal = bearerOf(c);
    const recipientId = recipientOf(c);
    const { limit } = readQuery(c, DmMessagesQuerySchema);
    return c.json(await listUserMessages(c.get('ctx'), principal, recipientId, limit ?? DM_MESSAGES_DEFAULT));
  });

  return r;
}
