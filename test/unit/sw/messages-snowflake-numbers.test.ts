// @vitest-environment node
/**
 * CONTRACT §2: in a request an id may come as a JSON number, read exactly from the request's
 * text (ids exceed 2^53, where a JSON number parsed as a double loses digits). discord.py's
 * `message.reply` sends `message_reference.message_id` so.
 */
import { describe, expect, it } from 'vitest';
import { expectInvalidField, messageWorld, type MessageWorld } from './messages-fixtures';

/** Posts raw JSON text (numbers as written) as the bot. */
const postText = (w: MessageWorld, path: string, text: string) =>
  w.client.request('POST', path, { raw: text, token: w.botAuth, headers: { 'Content-Type': 'application/json' } });

describe('snowflakes as JSON numbers in request bodies, exact beyond 2^53', () => {
  it("a reply whose message_reference.message_id is a JSON number (discord.py's message.reply) references the exact message", async () => {
    const w = await messageWorld();
    const original = (await w.client.post(w.messages(), { content: 'question' }, w.botAuth)).body;
    expect(Number.isSafeInteger(Number(original.id))).toBe(false);
    const reply = await postText(
      w,
      w.messages(),
      `{"content":"answer","message_reference":{"message_id":${original.id},"channel_id":${w.general.id},"fail_if_not_exists":true}}`,
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.message_reference).toMatchObject({ message_id: original.id, channel_id: w.general.id });
    expect(reply.body.referenced_message.id).toBe(original.id);
  });

  it('a number one above a real id (the same double) names a message that does not exist: the digits were not rounded', async () => {
    const w = await messageWorld();
    const original = (await w.client.post(w.messages(), { content: 'question' }, w.botAuth)).body;
    const neighbour = (BigInt(original.id) + 1n).toString();
    expect(Number(neighbour)).toBe(Number(original.id));
    const reply = await postText(
      w,
      w.messages(),
      `{"content":"answer","message_reference":{"message_id":${neighbour},"fail_if_not_exists":true}}`,
    );
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).not.toContain(original.id);
  });

  it('a number that is not an id (fractional, negative, above 2^64) is 400 50035 naming the field', async () => {
    const w = await messageWorld();
    for (const bad of ['1.5', '-1', '18446744073709551616']) {
      const reply = await postText(w, w.messages(), `{"content":"x","message_reference":{"message_id":${bad}}}`);
      expectInvalidField(reply, 'message_reference.message_id');
    }
  });

  it('other integer fields stay numbers: an integer nonce is answered as the number it was; one beyond 2^53 is 400 naming nonce', async () => {
    const w = await messageWorld();
    const ok = await postText(w, w.messages(), '{"content":"x","nonce":1234}');
    expect(ok.body.nonce).toBe(1234);
    expectInvalidField(await postText(w, w.messages(), '{"content":"x","nonce":12345678901234567890}'), 'nonce');
  });

  it('a route parameter and a query take the id as their string; a body id as a string still works', async () => {
    const w = await messageWorld();
    const original = (await w.client.post(w.messages(), { content: 'question' }, w.botAuth)).body;
    const reply = await w.client.post(
      w.messages(),
      { content: 'answer', message_reference: { message_id: original.id } },
      w.botAuth,
    );
    expect(reply.body.message_reference.message_id).toBe(original.id);
    const around = await w.client.get(`${w.messages()}?around=${original.id}&limit=1`, w.botAuth);
    expect(around.body.map((m: { id: string }) => m.id)).toEqual([original.id]);
  });
});
