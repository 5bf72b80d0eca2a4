/**
 * Direct messages of the current user, mounted at `/users/@me`: `GET /channels` (its DM
 * channels, `dm_channels.read`), and with one recipient `POST /dms/{recipient_id}/messages`
 * (`dm_channels.messages.write`) and `GET /dms/{recipient_id}/messages?limit=`
 * (`dm_channels.messages.read`). A user's OAuth2 token only; `sdk.social_layer` expands to the
 * three scopes.
 */
import { Hono } from 'hono';
import { requireBearer, requireScope } from '../../src/platform/oauth2/auth';
import { listDmChannels, listUserMessages, sendUserMessage } from '../../src/platform/messages/direct-messages';
import {
  DmMessageSchema,
  DmMessagesQuerySchema,
  DmPathSchema,
} from '../../src/platform/messages/direct-message-schemas';
import { DM_MESSAGES_DEFAULT } from '../../src/platform/core/limits';
import { readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';

/** The caller, who must be a user (20001 for a bot), with `scope` granted (50001 otherwise). */
function caller(c: AppContext, scope: 'dm_channels.read' | 'dm_channels.messages.read' | 'dm_channels.messages.write') {
  const principal = c.get('principal');
  requireBearer(principal);
  requireScope(principal, scope);
  return principal;
}

const recipientOf = (c: AppContext) => validate(DmPathSchema, c.req.param()).recipient_id!;

/** The DM routes, mounted at `/users/@me`. */
export function directMessageRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/channels', async (c) => c.json(await listDmChannels(c.get('ctx'), caller(c, 'dm_channels.read'))));

  r.post('/dms/:recipient_id/messages', async (c) => {
    const principal = caller(c, 'dm_channels.messages.write');
    const recipientId = recipientOf(c);
    const body = await readJson(c, DmMessageSchema);
    return c.json(await sendUserMessage(c.get('ctx'), principal, recipientId, body));
  });

  r.get('/dms/:recipient_id/messages', async (c) => {
    const principal = caller(c, 'dm_channels.messages.read');
    const recipientId = recipientOf(c);
    const { limit } = readQuery(c, DmMessagesQuerySchema);
    return c.json(await listUserMessages(c.get('ctx'), principal, recipientId, limit ?? DM_MESSAGES_DEFAULT));
  });

  return r;
}
