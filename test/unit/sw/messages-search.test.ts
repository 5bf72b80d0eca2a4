// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import {
  deny,
  expectError,
  expectInvalidField,
  messageWorld,
  multipart,
  sendForm,
  type MessageWorld,
} from './messages-fixtures';

const search = (w: MessageWorld, query = '') => `/api/v10/guilds/${w.guild.id}/messages/search${query}`;
const contents = (body: any) => body.messages.map((m: any[]) => m[0].content);

describe('Search Guild Messages: the index (spec Errors: 110000 when the guild has not been indexed yet)', () => {
  it('a guild is indexed 60 s (platform clock) after its first message: 400 110000 before, results from then on', async () => {
    const w = await messageWorld();
    await w.client.put('/sandbox/clock', { now: '2026-06-01T00:00:00.000Z' });
    expectError(await w.client.get(search(w), w.readerAuth), 400, 110000);
    await w.client.post(w.messages(), { content: 'first' }, w.bobAuth);
    await w.client.put('/sandbox/clock', { now: '2026-06-01T00:00:59.999Z' });
    const early = await w.client.get(search(w), w.readerAuth);
    expectError(early, 400, 110000);
    expect(early.body.message).toBe('This index has not been created yet.');
    await w.client.put('/sandbox/clock', { now: '2026-06-01T00:01:00.000Z' });
    const ready = await w.client.get(search(w), w.readerAuth);
    expect(ready.body).toEqual({
      doing_deep_historical_index: false,
      total_results: 1,
      messages: [[expect.objectContaining({ content: 'first' })]],
      threads: [],
      members: [],
    });
  });

  it('the sandbox makes an index ready at once (POST /sandbox/guilds/{id}/index)', async () => {
    const w = await messageWorld();
    expect((await w.client.post(`/sandbox/guilds/${w.guild.id}/index`)).status).toBe(200);
    expect((await w.client.get(search(w), w.readerAuth)).body.total_results).toBe(0);
    expectError(await w.client.post('/sandbox/guilds/123/index'), 404, 10004);
  });
});

describe('Search Guild Messages: filters and sorting (spec: content, author, channel, mentions, attachments, embeds; timestamp or relevance)', () => {
  async function seeded() {
    const w = await messageWorld();
    const other = await w.channel({ name: 'other' });
    await w.client.put('/sandbox/clock', { now: '2026-06-01T00:00:00.000Z' });
    await w.client.post(w.messages(), { content: 'Dragon dragon slayer' }, w.bobAuth);
    await w.client.post(w.messages(), { content: `the dragon <@${w.alice.id}>` }, w.bobAuth);
    await w.client.post(
      w.messages(other.id),
      { content: 'dragon in another channel', embeds: [{ title: 'e' }] },
      w.aliceAuth,
    );
    await sendForm(
      w.client,
      'POST',
      w.messages(),
      multipart({ content: 'a file https://x.test' }, [{ name: 'a.png', content: 'p', type: 'image/png' }]),
      w.aliceAuth,
    );
    await w.client.post(`/sandbox/guilds/${w.guild.id}/index`);
    return { w, other };
  }

  it('filters by content words (case-insensitive), author_id, channel_id and mentions; answers messages as one-message arrays', async () => {
    const { w, other } = await seeded();
    expect(contents((await w.client.get(search(w, '?content=DRAGON'), w.readerAuth)).body)).toEqual([
      'dragon in another channel',
      `the dragon <@${w.alice.id}>`,
      'Dragon dragon slayer',
    ]);
    expect(
      contents((await w.client.get(search(w, `?content=dragon&author_id=${w.bob.id}`), w.readerAuth)).body),
    ).toHaveLength(2);
    expect(contents((await w.client.get(search(w, `?channel_id=${other.id}`), w.readerAuth)).body)).toEqual([
      'dragon in another channel',
    ]);
    expect(contents((await w.client.get(search(w, `?mentions=${w.alice.id}`), w.readerAuth)).body)).toEqual([
      `the dragon <@${w.alice.id}>`,
    ]);
    expect(
      contents(
        (await w.client.get(search(w, `?author_id=${w.alice.id}&author_id=${w.bob.id}&content=slayer`), w.readerAuth))
          .body,
      ),
    ).toEqual(['Dragon dragon slayer']);
  });

  it('has: file, image, embed, link and their negations', async () => {
    const { w } = await seeded();
    const has = async (q: string) => contents((await w.client.get(search(w, `?has=${q}`), w.readerAuth)).body);
    expect(await has('file')).toEqual(['a file https://x.test']);
    expect(await has('image')).toEqual(['a file https://x.test']);
    expect(await has('embed')).toEqual(['dragon in another channel']);
    expect(await has('link')).toEqual(['a file https://x.test']);
    expect(await has('-file')).toHaveLength(3);
    expectInvalidField(await w.client.get(search(w, '?has=everything'), w.readerAuth), 'has.0');
  });

  it('sorts by timestamp (desc unless asc) or by relevance; limit and offset page through total_results', async () => {
    const { w } = await seeded();
    expect(contents((await w.client.get(search(w, '?content=dragon&sort_order=asc'), w.readerAuth)).body)[0]).toBe(
      'Dragon dragon slayer',
    );
    expect(contents((await w.client.get(search(w, '?content=dragon&sort_by=relevance'), w.readerAuth)).body)[0]).toBe(
      'Dragon dragon slayer',
    );
    const page = (await w.client.get(search(w, '?limit=1&offset=1'), w.readerAuth)).body;
    expect(page.total_results).toBe(4);
    expect(page.messages).toHaveLength(1);
    expectInvalidField(await w.client.get(search(w, '?limit=26'), w.readerAuth), 'limit');
  });
});

describe('Search Guild Messages: access (spec: needs READ_MESSAGE_HISTORY and the message-content privileged intent)', () => {
  it('a bot whose application lacks MESSAGE_CONTENT is 403 50001; a non-member 403 50001', async () => {
    const w = await messageWorld();
    await w.client.post(`/sandbox/guilds/${w.guild.id}/index`);
    expectError(await w.client.get(search(w), w.botAuth), 403, 50001);
    const stranger = (await w.client.post('/sandbox/applications', { name: 'S', flags: 1 << 19 })).body;
    expectError(await w.client.get(search(w), `Bot ${stranger.bot_token}`), 403, 50001);
    expect((await w.client.get(search(w), w.readerAuth)).status).toBe(200);
    expect((await w.client.get(search(w), w.bobAuth)).status).toBe(200);
  });

  it('only channels where the caller has READ_MESSAGE_HISTORY are searched; with none it is 403 50013', async () => {
    const w = await messageWorld();
    const closed = await w.channel({ permission_overwrites: [deny(w.reader.id, PERMISSIONS.READ_MESSAGE_HISTORY, 1)] });
    await w.client.post(w.messages(closed.id), { content: 'closed' }, w.aliceAuth);
    await w.client.post(w.messages(), { content: 'open' }, w.aliceAuth);
    await w.client.post(`/sandbox/guilds/${w.guild.id}/index`);
    expect(contents((await w.client.get(search(w), w.readerAuth)).body)).toEqual(['open']);
    expect(contents((await w.client.get(search(w), w.bobAuth)).body)).toEqual(['open', 'closed']);
    // @everyone without READ_MESSAGE_HISTORY: bob can read no channel's history at all.
    await w.grant(w.bot.id, PERMISSIONS.ADMINISTRATOR);
    const everyone = (await w.client.get(`/api/v10/guilds/${w.guild.id}/roles/${w.guild.id}`, w.botAuth)).body;
    const without = BigInt(everyone.permissions) & ~PERMISSIONS.READ_MESSAGE_HISTORY;
    expect(
      (
        await w.client.patch(
          `/api/v10/guilds/${w.guild.id}/roles/${w.guild.id}`,
          { permissions: String(without) },
          w.botAuth,
        )
      ).status,
    ).toBe(200);
    expectError(await w.client.get(search(w), w.bobAuth), 403, 50013);
  });
});
