/**
 * Interaction webhooks (`{base_url}/webhooks/{application.id}/{interaction.token}`): create a
 * follow-up (`POST`, `wait` is always true: the message is answered), and `GET` / `PATCH` /
 * `DELETE` of `messages/@original` and `messages/{message.id}`. No Authorization header: the
 * interaction token is the credential. JSON or multipart (`payload_json`, `files[n]`).
 * Mounted before the authenticated API.
 */
import { Hono } from 'hono';
import { interactionForWebhook } from '../../src/platform/interactions/tokens';
import {
  createFollowup,
  deleteInteractionWebhookMessage,
  editInteractionWebhookMessage,
  getInteractionWebhookMessage,
} from '../../src/platform/interactions/webhooks';
import { MessageCreateSchema, MessageEditSchema } from '../../src/platform/messages/schemas';
import { noContent, validate, type AppContext, type AppEnv } from '../http';
import { readMessageRequest } from './message-uploads';
import { InteractionWebhookPathSchema } from '../../src/platform/interactions/schemas';

async function interactionOf(c: AppContext) {
  const { application_id, token, message_id } = validate(InteractionWebhookPathSchema, c.req.param());
  return { interaction: await interactionForWebhook(c.get('ctx'), application_id, token), messageId: message_id! };
}

const origin = (c: AppContext) => new URL(c.req.url).origin;

/** The interaction webhook routes (mounted at `{base_url}/webhooks`). */
export function interactionWebhookRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/:application_id/:token', async (c) => {
    const { interaction } = await interactionOf(c);
    const { body, files } = await readMessageRequest(c, MessageCreateSchema);
    return c.json(await createFollowup(c.get('ctx'), interaction, body, files, origin(c)));
  });
  r.get('/:application_id/:token/messages/:message_id', async (c) => {
    const { interaction, messageId } = await interactionOf(c);
    return c.json(await getInteractionWebhookMessage(c.get('ctx'), interaction, messageId));
  });
  r.patch('/:application_id/:token/messages/:message_id', async (c) => {
    const { interaction, messageId } = await interactionOf(c);
    const { body, files } = await readMessageRequest(c, MessageEditSchema);
    return c.json(await editInteractionWebhookMessage(c.get('ctx'), interaction, messageId, body, files, origin(c)));
  });
  r.delete('/:application_id/:token/messages/:message_id', async (c) => {
    const { interaction, messageId } = await interactionOf(c);
    await deleteInteractionWebhookMessage(c.get('ctx'), interaction, messageId);
    return noContent();
  });
  return r;
}
