/**
 * Polls: `GET /channels/{id}/polls/{message_id}/answers/{answer_id}` (an answer's voters) and
 * `POST /channels/{id}/polls/{message_id}/expire` (the author ends the poll). The rules are in
 * `src/platform/messages/polls.ts`.
 */
import { Hono } from 'hono';
import { expirePoll, listAnswerVoters } from '../../src/platform/messages/polls';
import { MessagePathSchema, PollAnswerPathSchema, PollVotersQuerySchema } from '../../src/platform/messages/schemas';
import { readQuery, validate, type AppEnv } from '../http';

/** The `/channels/{id}/polls/...` routes. */
export function pollRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/:channel_id/polls/:message_id/answers/:answer_id', async (c) => {
    const { channel_id, message_id, answer_id } = validate(PollAnswerPathSchema, c.req.param());
    const query = readQuery(c, PollVotersQuerySchema);
    return c.json(await listAnswerVoters(c.get('ctx'), c.get('principal'), channel_id, message_id, answer_id, query));
  });
  r.post('/:channel_id/polls/:message_id/expire', async (c) => {
    const { channel_id, message_id } = validate(MessagePathSchema, c.req.param());
    return c.json(await expirePoll(c.get('ctx'), c.get('principal'), channel_id, message_id!));
  });
  return r;
}
