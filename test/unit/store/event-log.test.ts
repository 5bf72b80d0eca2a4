// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ANNOUNCED_EVENTS_MAX, type Announcement } from '../../../src/platform/core/announcements';
import { createPlatformContext, type PlatformContext } from '../../../src/platform/core/context';
import { ApiError } from '../../../src/platform/core/errors';
import type { UserRecord } from '../../../src/store/records/core';
import { latestEventSeq, readEventsAfter } from '../../../src/store/event-log';
import { openPlatformStorage } from '../../../src/store/indexeddb/open';
import { write } from '../../../src/store/write';
import { placeholderEvent, placeholderRecord } from './placeholder-events';

const NOW = Date.parse('2026-03-01T00:00:00Z');
let dbCounter = 0;

async function context(): Promise<PlatformContext & { announcements: Announcement[] }> {
  const db = await openPlatformStorage(`event-log-test-${process.pid}-${++dbCounter}`);
  const announcements: Announcement[] = [];
  const ctx = await createPlatformContext({ db, workerId: 31, announce: (m) => announcements.push(m) });
  ctx.clock.set({ frozenAt: NOW });
  return { ...ctx, announcements };
}

const userRecord = (id: string): UserRecord =>
  ({
    id,
    username: `user${id}`,
    global_name: null,
    discriminator: '0',
    avatar: null,
    bot: false,
    premium_type: 0,
    primary_guild: null,
    provisional: false,
    created_at: NOW,
  }) as UserRecord;

describe('write(): the change and its events commit together (ARCHITECTURE rules 2 and 3)', () => {
  it('events emitted inside write() are committed with the change, then announced with the stores it changed', async () => {
    const ctx = await context();
    const alice = userRecord(ctx.ids.next());
    const result = await write(ctx, ['users'], async (tx, emit) => {
      await tx.store('users').put(alice);
      emit(placeholderEvent('USER_UPDATE', { id: alice.id }, { user_ids: [alice.id] }));
      return 'done';
    });
    expect(result).toBe('done');
    expect(await ctx.db.get('users', alice.id)).toEqual(alice);
    const events = await readEventsAfter(ctx.db, 0);
    expect(events).toEqual([
      {
        seq: events[0].seq,
        type: 'USER_UPDATE',
        data: { id: alice.id },
        audience: { user_ids: [alice.id] },
        channels: ['gateway'],
        created_at: NOW,
      },
    ]);
    expect(ctx.announcements).toEqual([{ type: 'events', seq: events[0].seq, after: 0, events, stores: ['users'] }]);
  });

  it('created_at comes from the platform clock, and channels can name the webhook outbox', async () => {
    const ctx = await context();
    ctx.clock.set({ frozenAt: NOW + 5_000 });
    await write(ctx, [], async (_tx, emit) => {
      emit(placeholderEvent('ENTITLEMENT_CREATE', {}, { application_id: '1' }, ['gateway', 'webhook']));
    });
    const [event] = await readEventsAfter(ctx.db, 0);
    expect(event.created_at).toBe(NOW + 5_000);
    expect(event.channels).toEqual(['gateway', 'webhook']);
  });

  it('the announcement carries the highest seq of the write, the seq before its first event, and its events', async () => {
    const ctx = await context();
    await write(ctx, [], async (_tx, emit) => {
      emit(placeholderEvent('A', 1));
    });
    await write(ctx, [], async (_tx, emit) => {
      for (const type of ['B', 'C', 'D']) emit(placeholderEvent(type, type));
    });
    const all = await readEventsAfter(ctx.db, 0);
    expect(all.map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
    expect(ctx.announcements).toEqual([
      { type: 'events', seq: all[0].seq, after: 0, events: all.slice(0, 1), stores: [] },
      { type: 'events', seq: all[3].seq, after: all[0].seq, events: all.slice(1), stores: [] },
    ]);
    expect(await latestEventSeq(ctx.db)).toBe(all[3].seq);
  });

  it(`a write of more than ANNOUNCED_EVENTS_MAX events announces where they are, not the events`, async () => {
    const ctx = await context();
    await write(ctx, [], async (_tx, emit) => {
      for (let i = 0; i <= ANNOUNCED_EVENTS_MAX; i++) emit(placeholderEvent('X', i));
    });
    const all = await readEventsAfter(ctx.db, 0);
    expect(all).toHaveLength(ANNOUNCED_EVENTS_MAX + 1);
    expect(ctx.announcements).toEqual([
      { type: 'events', seq: all.at(-1)!.seq, after: 0, events: undefined, stores: [] },
    ]);
  });

  it('a write that emits nothing announces nothing', async () => {
    const ctx = await context();
    await write(ctx, ['users'], async (tx) => {
      await tx.store('users').put(userRecord('5'));
    });
    expect(ctx.announcements).toEqual([]);
    expect(await ctx.db.count('events')).toBe(0);
  });

  it('when the body throws, neither the change nor the event is stored and nothing is announced', async () => {
    const ctx = await context();
    const alice = userRecord('7');
    const failure = ApiError.of('UNKNOWN_LOBBY');
    await expect(
      write(ctx, ['users'], async (tx, emit) => {
        await tx.store('users').put(alice);
        emit(placeholderEvent('USER_UPDATE', {}));
        await tx.store('users').get(alice.id);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await ctx.db.get('users', alice.id)).toBeUndefined();
    expect(await ctx.db.count('events')).toBe(0);
    expect(await latestEventSeq(ctx.db)).toBe(0);
    expect(ctx.announcements).toEqual([]);
  });

  it('when the body throws right after emitting, without awaiting, nothing is stored either', async () => {
    const ctx = await context();
    await expect(
      write(ctx, ['users'], async (tx, emit) => {
        void tx
          .store('users')
          .put(userRecord('8'))
          .catch(() => undefined);
        emit(placeholderEvent('USER_UPDATE', {}));
        throw new TypeError('bug');
      }),
    ).rejects.toThrow(TypeError);
    expect(await ctx.db.count('users')).toBe(0);
    expect(await ctx.db.count('events')).toBe(0);
    expect(ctx.announcements).toEqual([]);
  });

  it('an IndexedDB error in the body passes through unchanged (a DOMException) and the write is undone', async () => {
    const ctx = await context();
    await write(ctx, ['users'], async (tx) => {
      await tx.store('users').add(userRecord('9'));
    });
    const error = await write(ctx, ['users'], async (tx, emit) => {
      emit(placeholderEvent('USER_UPDATE', {}));
      await tx.store('users').add(userRecord('9'));
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('ConstraintError');
    expect(await ctx.db.count('events')).toBe(0);
    expect(ctx.announcements).toEqual([]);
  });
});

describe('event log reads', () => {
  it('latestEventSeq is 0 on an empty log, then the newest seq', async () => {
    const ctx = await context();
    expect(await latestEventSeq(ctx.db)).toBe(0);
    const [first, second] = await ctx.db.write(['events'], async (tx) => [
      await tx.append(placeholderRecord({ type: 'A', data: null, created_at: NOW })),
      await tx.append(placeholderRecord({ type: 'B', data: null, created_at: NOW })),
    ]);
    expect(second).toBeGreaterThan(first);
    expect(await latestEventSeq(ctx.db)).toBe(second);
  });

  it('readEventsAfter returns only later events, oldest first, at most limit', async () => {
    const ctx = await context();
    await write(ctx, [], async (_tx, emit) => {
      for (let i = 0; i < 12; i++) emit(placeholderEvent(`E${i}`, i));
    });
    const all = await readEventsAfter(ctx.db, 0);
    expect(all.map((e) => e.data)).toEqual([...Array(12).keys()]);
    const seqs = all.map((e) => e.seq!);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    const after = await readEventsAfter(ctx.db, seqs[4]);
    expect(after.map((e) => e.seq)).toEqual(seqs.slice(5));
    expect((await readEventsAfter(ctx.db, seqs[4], 3)).map((e) => e.seq)).toEqual(seqs.slice(5, 8));
    expect(await readEventsAfter(ctx.db, seqs[11])).toEqual([]);
  });
});
