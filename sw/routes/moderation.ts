/**
 * The moderation-metadata endpoints, for an application's bot (Bearer tokens are 403 20002):
 * `PUT /lobbies/{lobby_id}/messages/{message_id}/moderation-metadata` and
 * `PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata`
 * (paths of the platform's public API reference). The body is the metadata itself; 204.
 */
import { Hono } from 'hono';
import { DmPathSchema, ModerationMetadataSchema } from '../../src/platform/messages/direct-message-schemas';
import {
  setDmMessageModerationMetadata,
  setLobbyMessageModerationMetadata,
} from '../../src/platform/messages/moderation';
import { botOf, noContent, readJson, validate, type AppEnv } from '../http';

/** The moderation routes, mounted at the API's root. */
export function moderationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.put('/lobbies/:lobby_id/messages/:message_id/moderation-metadata', async (c) => {
    const principal = botOf(c);
    const { lobby_id, message_id } = validate(DmPathSchema, c.req.param());
    const metadata = await readJson(c, ModerationMetadataSchema);
    await setLobbyMessageModerationMetadata(c.get('ctx'), principal, lobby_id!, message_id!, metadata);
    return noContent();
  });

  r.put('/partner-sdk/dms/:user_id_1/:user_id_2/messages/:message_id/moderation-metadata', async (c) => {
    const principal = botOf(c);
    const { user_id_1, user_id_2, message_id } = validate(DmPathSchema, c.req.param());
    const metadata = await readJson(c, ModerationMetadataSchema);
    await setDmMessageModerationMetadata(c.get('ctx'), principal, user_id_1!, user_id_2!, message_id!, metadata);
    return noContent();
  });

  return r;
}
