/**
 * Direct messages of the current user, mounted at `/users/@me`: `GET /channels` (its DM
 * channels, `dm_channels.read`), and with one recipient `POST /dms/{recipient_id}/messages`
 * (`dm_channels.messages.write`) and `GET /dms/{recipient_id}/messages?limit=`
 * (`dm_channels.messages.read`). A user's OAuth2 token only; `sdk.social_layer` expands to the
 * three scopes. `POST /channels` is Create DM, for a bot (`{recipient_id}`: the DM channel it
 * shares with the user, made on first use).
 */
import { Hono } from 'hono';
import { listDmChannels, listUserMessages, sendUserMessage } from '../../src/platform/messages/direct-messages';
import { createDm } from '../../src/platform/messages/create-dm';
import {
  CreateDmSchema,
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

  r.get('/channels', async (c) => c.json(await listDmChannels(c.get('ctx'), bearerOf(c))));

  r.post('/channels', async (c) => {
    const principal = botOf(c);
    const { recipient_id } = await readJson(c, CreateDmSchema);
    return c.json(await createDm(c.get('ctx'), principal, recipient_id));
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
