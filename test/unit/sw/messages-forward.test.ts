// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CHANNEL_MESSAGE_FLAGS } from '../../../src/store/records/messages';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import {
  deny,
  expectError,
  expectInvalidField,
  messageCounts,
  messageWorld,
  multipart,
  sendForm,
  type MessageWorld,
} from './messages-fixtures';
import { ON_SERVER } from '../app-harness';

const forwardOf = (message: { id: string; channel_id: string }) => ({
  message_reference: { type: 1, message_id: message.id, channel_id: message.channel_id },
});

/** A second text channel to forward into. */
async function withTarget(w: MessageWorld) {
  const target = await w.channel({ name: 'target' });
  return { target, path: w.messages(target.id) };
}

describe('forwarding (spec: message_reference.type FORWARD creates a message_snapshot, a minimal message without a guild field)', () => {
  it('creates a message whose message_snapshots hold the minimal message, with HAS_SNAPSHOT; later edits do not reach the snapshot', async () => {
    const w = await messageWorld();
    const { path, target } = await withTarget(w);
    await w.client.put('/sandbox/clock', { now: '2026-05-01T08:00:00.000Z' });
    const source = (
      await w.client.post(w.messages(), { content: `look <@${w.alice.id}>`, embeds: [{ title: 'card' }] }, w.bobAuth)
    ).body;
    const forward = await w.client.post(path, forwardOf(source), w.readerAuth);
    expect(forward.status, JSON.stringify(forward.body)).toBe(200);
    expect(forward.body).toMatchObject({
      channel_id: target.id,
      content: '',
      flags: CHANNEL_MESSAGE_FLAGS.HAS_SNAPSHOT,
      message_reference: { type: 1, message_id: source.id, channel_id: w.general.id, guild_id: w.guild.id },
    });
    const [snapshot] = forward.body.message_snapshots;
    expect(Object.keys(snapshot.message).sort()).toEqual([
      'attachments',
      'components',
      'content',
      'edited_timestamp',
      'embeds',
      'flags',
      'mention_roles',
      'mentions',
      'sticker_items',
      'stickers',
      'timestamp',
      'type',
    ]);
    expect(snapshot.message).toMatchObject({
      type: 0,
      content: source.content,
      embeds: [{ title: 'card' }],
      timestamp: '2026-05-01T08:00:00.000Z',
      mentions: [{ id: w.alice.id }],
    });
    await w.client.patch(`${w.messages()}/${source.id}`, { content: 'changed' }, w.bobAuth);
    const again = (await w.client.get(`${path}/${forward.body.id}`, w.readerAuth)).body;
    expect(again.message_snapshots[0].message.content).toBe(source.content);
  });

  it('a bot whose app cannot read the content gets 400 160014 and nothing is stored; its own messages and those mentioning it it may forward', async () => {
    const w = await messageWorld();
    const { path } = await withTarget(w);
    const secret = (await w.client.post(w.messages(), { content: 'secret' }, w.aliceAuth)).body;
    const before = await messageCounts(w.client);
    const refused = await w.client.post(path, forwardOf(secret), w.botAuth);
    expectError(refused, 400, 160014);
    expect(await messageCounts(w.client)).toEqual(before);
    const own = (await w.client.post(w.messages(), { content: 'mine' }, w.botAuth)).body;
    expect((await w.client.post(path, forwardOf(own), w.botAuth)).status).toBe(200);
    const mentioning = (await w.client.post(w.messages(), { content: `hi <@${w.bot.id}>` }, w.aliceAuth)).body;
    expect((await w.client.post(path, forwardOf(mentioning), w.botAuth)).status).toBe(200);
  });

  it('without VIEW_CHANNEL or READ_MESSAGE_HISTORY in the source channel it is 400 160014, even for a user', async () => {
    const w = await messageWorld();
    const { path } = await withTarget(w);
    const noHistory = await w.channel({ permission_overwrites: [deny(w.bob.id, PERMISSIONS.READ_MESSAGE_HISTORY, 1)] });
    const hidden = await w.channel({ permission_overwrites: [deny(w.bob.id, PERMISSIONS.VIEW_CHANNEL, 1)] });
    const a = (await w.client.post(w.messages(noHistory.id), { content: 'a' }, w.aliceAuth)).body;
    const b = (await w.client.post(w.messages(hidden.id), { content: 'b' }, w.aliceAuth)).body;
    expectError(await w.client.post(path, forwardOf(a), w.bobAuth), 400, 160014);
    expectError(await w.client.post(path, forwardOf(b), w.bobAuth), 400, 160014);
    expect((await w.client.post(path, forwardOf(a), w.aliceAuth)).status).toBe(200);
  });

  it('a forward carries only its reference (content is 50035), needs channel_id, and an unknown message is 50035 naming message_reference', async () => {
    const w = await messageWorld();
    const source = (await w.client.post(w.messages(), { content: 's' }, w.bobAuth)).body;
    expectInvalidField(
      await w.client.post(w.messages(), { ...forwardOf(source), content: 'look' }, w.readerAuth),
      'content',
    );
    expectInvalidField(
      await w.client.post(w.messages(), { message_reference: { type: 1, message_id: source.id } }, w.readerAuth),
      'message_reference.channel_id',
    );
    expectInvalidField(
      await w.client.post(w.messages(), forwardOf({ id: '123', channel_id: w.general.id }), w.readerAuth),
      'message_reference',
    );
  });

  it("the snapshot's files are copied: they are served under the forward and outlive the original", async () => {
    const w = await messageWorld();
    const { path, target } = await withTarget(w);
    const source = (
      await sendForm(
        w.client,
        'POST',
        w.messages(),
        multipart({ content: 'pic' }, [{ name: 'cat.png', content: 'meow', type: 'image/png' }]),
        w.bobAuth,
      )
    ).body;
    const forward = (await w.client.post(path, forwardOf(source), w.readerAuth)).body;
    const [copy] = forward.message_snapshots[0].message.attachments;
    expect(copy.id).not.toBe(source.attachments[0].id);
    expect(copy.url).toContain(`/attachments/${target.id}/${copy.id}/cat.png`);
    await w.client.delete(`${w.messages()}/${source.id}`, w.bobAuth);
    const file = await w.client.fetch(new Request(copy.url));
    expect(await file.text()).toBe('meow');
  });
});

describe('forward rate limit (spec: stricter limits by forwards sent and attachment size; the sandbox: 5 per minute and 50 MiB per minute per user)', () => {
  it('the 6th forward within a minute (platform clock) is 429 {retry_after, global: false} with Retry-After, nothing stored; the next window is open', async () => {
    const w = await messageWorld();
    const { path } = await withTarget(w);
    await w.client.put('/sandbox/clock', { now: '2026-05-01T00:00:00.000Z' });
    const source = (await w.client.post(w.messages(), { content: 's' }, w.bobAuth)).body;
    for (let i = 0; i < 5; i++) expect((await w.client.post(path, forwardOf(source), w.bobAuth)).status).toBe(200);
    await w.client.put('/sandbox/clock', { now: '2026-05-01T00:00:45.000Z' });
    const before = await messageCounts(w.client);
    const limited = await w.client.post(path, forwardOf(source), w.bobAuth);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ retry_after: 15, global: false, message: 'You are being rate limited.' });
    expect(limited.headers.get('Retry-After')).toBe('15');
    expect(await messageCounts(w.client)).toEqual(before);
    // Another user has their own counter; plain messages are not counted.
    expect((await w.client.post(path, forwardOf(source), w.aliceAuth)).status).toBe(200);
    expect((await w.client.post(path, { content: 'plain' }, w.bobAuth)).status).toBe(200);
    await w.client.put('/sandbox/clock', { now: '2026-05-01T00:01:00.000Z' });
    expect((await w.client.post(path, forwardOf(source), w.bobAuth)).status).toBe(200);
  });

  // Not on the server host: there, a busy machine sometimes sees the local engine reset the
  // connection while one sandbox takes in and copies these 54 MiB (README, "What is missing").
  it.skipIf(ON_SERVER)(
    'forwarded attachment bytes count too: a second 27 MiB forward in the window passes 50 MiB and is 429',
    async () => {
      const w = await messageWorld();
      const { path } = await withTarget(w);
      await w.client.put('/sandbox/clock', { now: '2026-05-01T00:00:00.000Z' });
      const MiB = 1024 * 1024;
      const files = ['a', 'b', 'c'].map((n) => ({ name: `${n}.bin`, content: new Uint8Array(9 * MiB) }));
      const source = (await sendForm(w.client, 'POST', w.messages(), multipart({}, files), w.bobAuth)).body;
      expect((await w.client.post(path, forwardOf(source), w.bobAuth)).status).toBe(200);
      expectError(await w.client.post(path, forwardOf(source), w.bobAuth), 429, 0);
      // 54 MiB through multipart, the store and the forward: time on a loaded machine, not a rule.
    },
    60_000,
  );
});
