/**
 * `POST /interactions/{interaction.id}/{interaction.token}/callback`: the app's initial
 * response. No Authorization header: the token is the credential. Answers 204, or with
 * `?with_response=true` 200 and the interaction callback response (`interaction`, `resource`).
 * JSON, or multipart with `payload_json` and `files[n]` for a message with attachments.
 * Mounted before the authenticated API so that no Bot/Bearer header is asked for.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { InteractionResponseSchema, respondToInteraction } from '../../src/platform/interactions/callback';
import { interactionForCallback } from '../../src/platform/interactions/tokens';
import { noContent, readQuery, schemas, validate, type AppEnv, publicOrigin } from '../http';
import { readMessageRequest } from './message-uploads';

const Path = v.object({
  interaction_id: schemas.snowflake,
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
});
const Query = v.object({ with_response: v.optional(v.picklist(['true', 'false', 'True', 'False', '1', '0'])) });

/** The callback route (mounted at `{base_url}/interactions`). */
export function interactionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/:interaction_id/:token/callback', async (c) => {
    const { interaction_id, token } = validate(Path, c.req.param());
    const withResponse = ['true', 'True', '1'].includes(readQuery(c, Query).with_response ?? '');
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
