/**
 * `POST /interactions/{interaction.id}/{interaction.token}/callback`: the app's initial
 * response. No Authorization header: the token is the credential. Answers 204, or with
 * `?with_response=true` 200 and the interaction callback response (`interaction`, `resource`).
 * JSON, or multipart with `payload_json` and `files[n]` for a message with attachments.
 * Mounted before the authenticated API so that no Bot/Bearer header is asked for.
 */
import { Hono } from 'hono';
import { InteractionResponseSchema, respondToInteraction } from '../../src/platform/interactions/callback';
import { interactionForCallback } from '../../src/platform/interactions/tokens';
import { noContent, readQuery, validate, type AppEnv, publicOrigin } from '../http';
import { readMessageRequest } from './message-uploads';
import { InteractionCallbackPathSchema, InteractionCallbackQuerySchema } from '../../src/platform/interactions/schemas';

/** The callback route (mounted at `{base_url}/interactions`). */
export function interactionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/:interaction_id/:token/callback', async (c) => {
    const { interaction_id, token } = validate(InteractionCallbackPathSchema, c.req.param());
    const withResponse = ['true', 'True', '1'].includes(
      readQuery(c, InteractionCallbackQuerySchema).with_response ?? '',
    );
    const interaction = await interactionForCallback(c.get('ctx'), interaction_id, token);
    const { body, files } = await readMessageRequest(c, InteractionResponseSchema);
    const result = await respondToInteraction(c.get('ctx'), interaction, body, {
      files,
      origin: publicOrigin(c),
    });
    return withResponse ? c.json(result) : noContent();
  });
  return r;
}
