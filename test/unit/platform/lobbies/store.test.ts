// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { Clock } from '../../../../src/platform/core/clock';
import type { PlatformContext } from '../../../../src/platform/core/context';
import { newestLobbyMessages } from '../../../../src/platform/lobbies/messages';
import {
  lobbyMessageOrderKey,
  readLobbies,
  removeIdleLobbies,
  settleIdleDeadline,
} from '../../../../src/platform/lobbies/store';
import type { LobbyRecord } from '../../../../src/store/records/core';
import { SnowflakeGenerator } from '../../../../src/platform/core/snowflake';
import type { StoredLobbyMessage } from '../../../../src/store/schema';
import { openPlatformStorage } from '../../../../src/store/indexeddb/open';

const NOW = Date.parse('2026-04-01T00:00:00Z');
let dbCounter = 0;

async function context(): Promise<PlatformContext> {
  const db = await openPlatformStorage(`lobby-store-test-${process.pid}-${++dbCounter}`);
  const clock = new Clock({ frozenAt: NOW });
  return { db, clock, ids: new SnowflakeGenerator({ workerId: 31, processId: 0, clock }), announce: () => undefined };
}

const lobbyRecord = (id: string, fields: Partial<LobbyRecord> = {}): LobbyRecord => ({
  id,
  application_id: '1',
  secret: null,
  metadata: null,
  idle_timeout_seconds: 60,
  idle_deadline: null,
  linked_channel_id: null,
  member_count: 0,
  created_at: NOW,
  ...fields,
});

const message = (lobbyId: string, id: string): StoredLobbyMessage => ({
  id,
  order_key: lobbyMessageOrderKey(id),
  lobby_id: lobbyId,
  channel_id: lobbyId,
  author_id: '7',
  application_id: '1',
  content: `message ${id}`,
  metadata: null,
  created_at: NOW,
});

describe('lobby message order keys: ascending key order is newest first', () => {
  it("is 20 digits, and a larger id always has a smaller key, whatever the ids' lengths", () => {
    const ids = ['0', '1', '9', '10', '999999999999999999', '1000000000000000000', '18446744073709551615'];
    const keys = ids.map(lobbyMessageOrderKey);
    for (const key of keys) expect(key).toMatch(/^\d{20}$/);
    for (let i = 1; i < keys.length; i++) expect(keys[i] < keys[i - 1]).toBe(true);
    expect(lobbyMessageOrderKey('18446744073709551615')).toBe('00000000000000000000');
  });
});

describe('the newest N messages of a lobby are one bounded read', () => {
  it('with 5,000 messages stored, the newest-200 read returns exactly the newest 200, newest first', async () => {
    const ctx = await context();
    const lobby = '1000';
    const ids: string[] = [];
    await ctx.db.write(['lobby_messages'], async (tx) => {
      for (let i = 0; i < 5000; i++) {
        // The clock moves so that ids span many milliseconds (and the increment bits roll over).
        ctx.clock.set({ frozenAt: NOW + Math.floor(i / 7) });
        const id = ctx.ids.next();
        ids.push(id);
        void tx.store('lobby_messages').put(message(lobby, id));
      }
      // Neighbouring lobbies whose ids share a prefix or sort next to it must not leak in.
      for (const neighbour of ['100', '10000', '1001', '0999']) {
        for (let i = 0; i < 30; i++) void tx.store('lobby_messages').put(message(neighbour, ctx.ids.next()));
      }
    });
    expect(await ctx.db.count('lobby_messages')).toBe(5120);

    const newest = await newestLobbyMessages(readLobbies(ctx), lobby, 200);
    expect(newest.map((m) => m.id)).toEqual(ids.slice(-200).reverse());
    expect(newest.every((m) => m.lobby_id === lobby)).toBe(true);
    const one = await newestLobbyMessages(readLobbies(ctx), lobby, 1);
    expect(one.map((m) => m.id)).toEqual([ids[4999]]);
    // Bounded below by an id: exactly the messages with an id at or above it, still newest first.
    const recent = await newestLobbyMessages(readLobbies(ctx), lobby, 200, ids[4950]);
    expect(recent.map((m) => m.id)).toEqual(ids.slice(4950).reverse());
  });
});

describe('removeIdleLobbies: empty lobbies are removed after their idle timeout, by the platform clock', () => {
  it('removes exactly the lobbies whose deadline has passed, with their members and messages, emitting LOBBY_DELETE', async () => {
    const ctx = await context();
    await ctx.db.write(['lobbies', 'lobby_messages'], async (tx) => {
      void tx.store('lobbies').put(lobbyRecord('11', { idle_deadline: NOW - 1 }));
      void tx.store('lobbies').put(lobbyRecord('12', { idle_deadline: NOW }));
      void tx.store('lobbies').put(lobbyRecord('13', { idle_deadline: NOW + 1 }));
      void tx.store('lobbies').put(lobbyRecord('14', { member_count: 2 }));
      void tx.store('lobby_messages').put(message('11', '500'));
      void tx.store('lobby_messages').put(message('13', '501'));
    });

    expect((await removeIdleLobbies(ctx)).sort()).toEqual(['11', '12']);
    expect((await ctx.db.getAllKeys('lobbies')).sort()).toEqual(['13', '14']);
    expect((await ctx.db.getAll('lobby_messages')).map((m) => m.id)).toEqual(['501']);
    const events = await ctx.db.getAll('events');
    expect(events.map((e) => [e.type, (e.data as { id: string }).id]).sort()).toEqual([
      ['LOBBY_DELETE', '11'],
      ['LOBBY_DELETE', '12'],
    ]);
    expect(events[0].audience).toEqual({ user_ids: [], application_id: '1' });

    // Nothing due: nothing written, no event.
    expect(await removeIdleLobbies(ctx)).toEqual([]);
    expect(await ctx.db.count('events')).toBe(2);
    ctx.clock.set({ frozenAt: NOW + 1 });
    expect(await removeIdleLobbies(ctx)).toEqual(['13']);
  });

  it('the idle countdown starts when the last member leaves, stops while there are members, and never runs for a linked lobby', () => {
    expect(settleIdleDeadline(lobbyRecord('1', { member_count: 0 }), NOW)).toBe(NOW + 60_000);
    expect(settleIdleDeadline(lobbyRecord('1', { member_count: 0, idle_deadline: NOW - 5 }), NOW)).toBe(NOW - 5);
    expect(settleIdleDeadline(lobbyRecord('1', { member_count: 1, idle_deadline: NOW - 5 }), NOW)).toBeNull();
    expect(settleIdleDeadline(lobbyRecord('1', { member_count: 0, linked_channel_id: '99' }), NOW)).toBeNull();
  });
});
