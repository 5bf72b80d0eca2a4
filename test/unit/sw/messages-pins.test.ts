// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { messageOrderKey, pinKey } from '../../../src/platform/messages/keys';
import { PERMISSIONS } from '../../../src/platform/core/permissions';
import { deny, eventsOf, expectError, expectInvalidField, messageWorld, type MessageWorld } from './messages-fixtures';

const pins = (w: MessageWorld, channelId: string = w.general.id) => `/api/v10/channels/${channelId}/messages/pins`;

/** Sends `n` messages as alice and pins each at its own minute of 2026-03-01; their ids, oldest first. */
async function pinned(w: MessageWorld, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    await w.client.put('/sandbox/clock', { now: `2026-03-01T00:0${i}:00.000Z` });
    const id = (await w.client.post(w.messages(), { content: `p${i}` }, w.aliceAuth)).body.id;
    expect((await w.client.put(`${pins(w)}/${id}`, undefined, w.aliceAuth)).status).toBe(204);
    ids.push(id);
  }
  return ids;
}

describe('pins: PUT/DELETE /channels/{id}/messages/pins/{id} and GET /channels/{id}/messages/pins', () => {
  it('lists pins newest first as {items: [{pinned_at, message}], has_more}, paginated by before (a pinned_at) and limit', async () => {
    const w = await messageWorld();
    await pinned(w, 3);
    const all = (await w.client.get(pins(w), w.botAuth)).body;
    expect(all.has_more).toBe(false);
    expect(all.items.map((i: any) => [i.pinned_at, i.message.pinned])).toEqual([
      ['2026-03-01T00:02:00.000Z', true],
      ['2026-03-01T00:01:00.000Z', true],
      ['2026-03-01T00:00:00.000Z', true],
    ]);
    const first = (await w.client.get(`${pins(w)}?limit=2`, w.aliceAuth)).body;
    expect(first.items.map((i: any) => i.message.content)).toEqual(['p2', 'p1']);
    expect(first.has_more).toBe(true);
    const next = (await w.client.get(`${pins(w)}?limit=2&before=${first.items[1].pinned_at}`, w.aliceAuth)).body;
    expect(next).toMatchObject({ items: [{ message: { content: 'p0' } }], has_more: false });
    expectInvalidField(await w.client.get(`${pins(w)}?limit=51`, w.aliceAuth), 'limit');
  });

  it('pinning and unpinning log CHANNEL_PINS_UPDATE (GUILDS intent) with the newest pin time; repeating either changes nothing', async () => {
    const w = await messageWorld();
    const [a, b] = await pinned(w, 2);
    expect((await w.client.put(`${pins(w)}/${a}`, undefined, w.aliceAuth)).status).toBe(204);
    expect((await w.client.delete(`${pins(w)}/${b}`, w.aliceAuth)).status).toBe(204);
    expect((await w.client.delete(`${pins(w)}/${b}`, w.aliceAuth)).status).toBe(204);
    const events = await eventsOf(w.client, 'CHANNEL_PINS_UPDATE');
    expect(events.map((e) => (e.data as any).last_pin_timestamp)).toEqual([
      '2026-03-01T00:00:00.000Z',
      '2026-03-01T00:01:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
    expect(events[0].audience).toEqual({ guild_id: w.guild.id, intent: INTENTS.GUILDS });
    expect(events[0].data).toMatchObject({ guild_id: w.guild.id, channel_id: w.general.id });
    expect((await w.client.get(`${w.messages()}/${b}`, w.aliceAuth)).body.pinned).toBe(false);
    expectError(await w.client.put(`${pins(w)}/123`, undefined, w.aliceAuth), 404, 10008);
  });

  it('a channel holds at most 250 pins: the 251st is 400 30003', async () => {
    const w = await messageWorld();
    const sent = (await w.client.post(w.messages(), { content: 'model' }, w.aliceAuth)).body;
    const db = w.client.db;
    const model = (await db.getAll('channel_messages'))[0];
    // 250 pinned messages written straight to the store: the API would take 500 requests.
    await Promise.all(
      Array.from({ length: 250 }, (_, n) => {
        const i = n + 1;
        const id = String(BigInt(sent.id) - BigInt(i));
        return db.put('channel_messages', {
          ...model,
          id,
          order_key: messageOrderKey(id),
          pinned_at: i,
          pin_key: pinKey(i, id),
        });
      }),
    );
    expectError(await w.client.put(`${pins(w)}/${sent.id}`, undefined, w.aliceAuth), 400, 30003);
    expect((await w.client.get(`${w.messages()}/${sent.id}`, w.aliceAuth)).body.pinned).toBe(false);
  });

  it('listing needs VIEW_CHANNEL; without READ_MESSAGE_HISTORY no pins are answered', async () => {
    const w = await messageWorld();
    const channel = await w.channel({ permission_overwrites: [deny(w.bot.id, PERMISSIONS.READ_MESSAGE_HISTORY, 1)] });
    const id = (await w.client.post(w.messages(channel.id), { content: 'x' }, w.aliceAuth)).body.id;
    await w.client.put(`${pins(w, channel.id)}/${id}`, undefined, w.aliceAuth);
    expect((await w.client.get(pins(w, channel.id), w.botAuth)).body).toEqual({ items: [], has_more: false });
    const hidden = await w.channel({ permission_overwrites: [deny(w.guild.id, PERMISSIONS.VIEW_CHANNEL)] });
    expectError(await w.client.get(pins(w, hidden.id), w.botAuth), 403, 50001);
  });
});

describe('pin permission (spec Versioning 5: from 2026-02-23 pinning requires PIN_MESSAGES; MANAGE_MESSAGES no longer suffices)', () => {
  async function setup(now: string, permissions: bigint) {
    const w = await messageWorld();
    await w.grant(w.bob.id, permissions);
    await w.client.put('/sandbox/clock', { now });
    const id = (await w.client.post(w.messages(), { content: 'pin me' }, w.aliceAuth)).body.id;
    return { w, path: `${pins(w)}/${id}` };
  }

  it('before 2026-02-23 MANAGE_MESSAGES suffices', async () => {
    const { w, path } = await setup('2026-02-22T23:59:59.999Z', PERMISSIONS.MANAGE_MESSAGES);
    expect((await w.client.put(path, undefined, w.bobAuth)).status).toBe(204);
    expect((await w.client.delete(path, w.bobAuth)).status).toBe(204);
  });

  it('from 2026-02-23 MANAGE_MESSAGES is 403 50013 and nothing changes; PIN_MESSAGES pins', async () => {
    const { w, path } = await setup('2026-02-23T00:00:00.000Z', PERMISSIONS.MANAGE_MESSAGES);
    expectError(await w.client.put(path, undefined, w.bobAuth), 403, 50013);
    expect(await eventsOf(w.client, 'CHANNEL_PINS_UPDATE')).toEqual([]);
    await w.grant(w.bob.id, PERMISSIONS.PIN_MESSAGES);
    expect((await w.client.put(path, undefined, w.bobAuth)).status).toBe(204);
  });

  it('without either, pinning is 403 50013 on both sides of the date', async () => {
    for (const now of ['2026-02-22T12:00:00.000Z', '2026-02-23T12:00:00.000Z']) {
      const { w, path } = await setup(now, 0n);
      expectError(await w.client.put(path, undefined, w.bobAuth), 403, 50013);
    }
  });
});

describe('deprecated pin routes (spec: old routes deprecated): GET/PUT/DELETE /channels/{id}/pins...', () => {
  it('still work, answering an array of messages, and point to their successor with a Link header', async () => {
    const w = await messageWorld();
    const id = (await w.client.post(w.messages(), { content: 'old' }, w.aliceAuth)).body.id;
    const put = await w.client.put(`/api/v10/channels/${w.general.id}/pins/${id}`, undefined, w.aliceAuth);
    expect(put.status).toBe(204);
    expect(put.headers.get('Link')).toContain('rel="successor-version"');
    const list = await w.client.get(`/api/v10/channels/${w.general.id}/pins`, w.botAuth);
    expect(list.body.map((m: any) => [m.id, m.pinned])).toEqual([[id, true]]);
    expect(list.headers.get('Link')).toBe(`</api/v10/channels/${w.general.id}/messages/pins>; rel="successor-version"`);
    expect((await w.client.delete(`/api/v10/channels/${w.general.id}/pins/${id}`, w.aliceAuth)).status).toBe(204);
    expect((await w.client.get(`/api/v10/channels/${w.general.id}/pins`, w.botAuth)).body).toEqual([]);
  });
});
