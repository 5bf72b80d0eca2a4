/**
 * The storage port's guarantees (`src/store/port.ts`), as one suite every adapter runs: key
 * order, key ranges, ordered reads with a limit, indexes (compound, unique, multi-entry),
 * atomic and serial writes, what a failed write leaves behind, the event log and the
 * after-commit hook. An adapter's test is the call of `runStorageAdapterSuite` with a way to
 * open a fresh engine from a catalogue.
 */
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../src/store/catalogue';
import { type Key, keyRange, type StorageEngine } from '../../../src/store/port';
import { type Commit, Storage } from '../../../src/store/storage';

interface Thing {
  id: string;
  group: string;
  order: number;
  tags: string[];
  code?: string;
  payload?: unknown;
}
interface Pair {
  a: string;
  b: number;
  note: string;
}
interface LogEntry {
  seq?: number;
  type: string;
}

/** The schema the suite stores. */
export type SuiteDB = {
  things: { key: string; value: Thing; indexes: { by_group: [string, number]; by_tag: string; by_code: string } };
  pairs: { key: [string, number]; value: Pair };
  kv: { key: Key; value: unknown };
  log: { key: number; value: LogEntry };
};

/** Its stores, as an adapter creates them. */
export const SUITE_CATALOGUE: Catalogue<SuiteDB> = {
  things: {
    keyPath: 'id',
    indexes: {
      by_group: { keyPath: ['group', 'order'] },
      by_tag: { keyPath: 'tags', multiEntry: true },
      by_code: { keyPath: 'code', unique: true },
    },
  },
  pairs: { keyPath: ['a', 'b'], indexes: {} },
  kv: { indexes: {} },
  log: { keyPath: 'seq', autoIncrement: true, indexes: {} },
};

/** Opens a new, empty engine holding the suite's stores. */
export type OpenSuiteEngine = (catalogue: Catalogue<SuiteDB>) => Promise<StorageEngine<SuiteDB>>;

const thing = (id: string, group: string, order: number, tags: string[] = [], code?: string): Thing => ({
  id,
  group,
  order,
  tags,
  ...(code === undefined ? {} : { code }),
});

/** Rejects with an error of this name (adapters fail by IndexedDB's names). */
async function expectFailure(promise: Promise<unknown>, name: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error, `expected a ${name}`).toBeInstanceOf(Error);
  expect((error as Error).name).toBe(name);
}

/**
 * Runs the port's guarantees against one adapter.
 * @example runStorageAdapterSuite('IndexedDB', (catalogue) => openIndexedDbEngine(name(), catalogue));
 */
export function runStorageAdapterSuite(adapter: string, open: OpenSuiteEngine): void {
  const storage = async () => new Storage<SuiteDB, 'log', LogEntry>(await open(SUITE_CATALOGUE), 'log');

  describe(`storage port on ${adapter}`, () => {
    it('stores, reads, replaces and deletes records by key; a missing key reads undefined', async () => {
      const db = await storage();
      await db.write(['things'], async (tx) => {
        await tx.store('things').add(thing('a', 'g', 1, ['x']));
        await tx.store('things').put(thing('b', 'g', 2));
      });
      expect(await db.get('things', 'a')).toEqual(thing('a', 'g', 1, ['x']));
      await db.write(['things'], async (tx) => {
        await tx.store('things').put({ ...thing('a', 'g', 1), payload: { nested: [1, 'two', null, true] } });
        await tx.store('things').delete('b');
      });
      expect(await db.get('things', 'a')).toEqual({
        ...thing('a', 'g', 1),
        payload: { nested: [1, 'two', null, true] },
      });
      expect(await db.get('things', 'b')).toBeUndefined();
      expect(await db.getKey('things', 'a')).toBe('a');
      expect(await db.getKey('things', 'zzz')).toBeUndefined();
      db.close();
    });

    it('refuses a missing key (undefined or null) where a request needs one, as DataError: it reads and deletes nothing', async () => {
      const db = await storage();
      await db.write(['things'], (tx) => tx.store('things').put(thing('a', 'g', 1, [], 'A')));
      // Only getAll, getAllKeys, count and iterate read every record without a query.
      for (const missing of [undefined, null] as unknown as Key[]) {
        await expectFailure((async () => db.get('things', missing))(), 'DataError');
        await expectFailure((async () => db.getKey('things', missing))(), 'DataError');
        await expectFailure((async () => db.getFromIndex('things', 'by_code', missing))(), 'DataError');
        await expectFailure(db.delete('things', missing), 'DataError');
      }
      expect(await db.getAllKeys('things')).toEqual(['a']);
      db.close();
    });

    it('refuses a key range that holds no key (lower above upper, or equal with an open end) as DataError', async () => {
      const db = await storage();
      await db.write(['kv'], async (tx) => {
        for (const key of [1, 2, 3]) await tx.store('kv').put(key * 10, key);
      });
      const kv = db.read('kv').store('kv');
      await expectFailure((async () => kv.getAll(keyRange.bound(3, 1)))(), 'DataError');
      await expectFailure((async () => kv.count(keyRange.bound(['a', 2], ['a', 1])))(), 'DataError');
      await expectFailure((async () => kv.getAllKeys(keyRange.bound(2, 2, true)))(), 'DataError');
      await expectFailure((async () => kv.getAll(keyRange.bound(2, 2, false, true)))(), 'DataError');
      expect(await kv.getAll(keyRange.bound(2, 2))).toEqual([20]);
      expect(await kv.getAll(keyRange.bound(1, 2, true))).toEqual([20]);
      db.close();
    });

    it('takes a record count as IndexedDB does: a fraction cut to a whole number, 0 for every record; a negative one refused as TypeError', async () => {
      const db = await storage();
      await db.write(['kv'], async (tx) => {
        for (const key of [1, 2, 3]) await tx.store('kv').put(key * 10, key);
      });
      const kv = db.read('kv').store('kv');
      expect(await kv.getAll(null, 1.5)).toEqual([10]);
      expect(await kv.getAllKeys(null, 2.9)).toEqual([1, 2]);
      expect(await kv.getAll(null, 0)).toEqual([10, 20, 30]);
      await expectFailure((async () => kv.getAll(null, -1))(), 'TypeError');
      db.close();
    });

    it('orders keys: numbers, then strings by code unit, then arrays element by element, a prefix first', async () => {
      const db = await storage();
      const keys: Key[] = [['a', 'b'], 'b', 10, ['a'], 'a', -1, ['a', 1], 'B', 2.5, [], ['b'], 'é', '\uffff', ''];
      await db.write(['kv'], async (tx) => {
        for (const key of keys) await tx.store('kv').put({ key }, key);
      });
      expect(await db.read('kv').store('kv').getAllKeys()).toEqual([
        -1,
        2.5,
        10,
        '',
        'B',
        'a',
        'b',
        'é',
        '\uffff',
        [],
        ['a'],
        ['a', 1],
        ['a', 'b'],
        ['b'],
      ]);
      db.close();
    });

    it('sorts -Infinity below and Infinity above every number, so they bound a numeric key part', async () => {
      const db = await storage();
      await db.write(['pairs'], async (tx) => {
        for (const b of [-1e308, -5, 0, 7, 1e308]) await tx.store('pairs').put({ a: 'x', b, note: String(b) });
      });
      const pairs = db.read('pairs').store('pairs');
      const all = keyRange.bound(['x', -Infinity], ['x', Infinity]);
      expect((await pairs.getAll(all)).map((p) => p.b)).toEqual([-1e308, -5, 0, 7, 1e308]);
      expect((await pairs.getAll(keyRange.bound(['x', -Infinity], ['x', 0], false, true))).map((p) => p.b)).toEqual([
        -1e308, -5,
      ]);
      db.close();
    });

    it('leaves a record out of an index whose key path holds null or no valid key', async () => {
      const db = await storage();
      await db.write(['things'], async (tx) => {
        await tx.store('things').put({ ...thing('a', 'g', 1), code: null as unknown as string });
        await tx.store('things').put({ ...thing('b', 'g', 2), code: true as unknown as string });
        await tx.store('things').put(thing('c', 'g', 3, [], 'C'));
      });
      expect(await db.getAllKeysFromIndex('things', 'by_code')).toEqual(['c']);
      expect(await db.count('things')).toBe(3);
      db.close();
    });

    it('selects by key range: open and closed bounds, one-sided ranges, a single key; counts and deletes a range', async () => {
      const db = await storage();
      await db.write(['pairs'], async (tx) => {
        for (const a of ['x', 'y'])
          for (let b = 1; b <= 5; b++) await tx.store('pairs').put({ a, b, note: `${a}${b}` });
      });
      const notes = (pairs: Pair[]) => pairs.map((p) => p.note);
      const pairs = db.read('pairs').store('pairs');
      expect(notes(await pairs.getAll(keyRange.bound(['x', 2], ['x', 4])))).toEqual(['x2', 'x3', 'x4']);
      expect(notes(await pairs.getAll(keyRange.bound(['x', 2], ['x', 4], true, true)))).toEqual(['x3']);
      // An array bound sorts above every number: the whole of 'x'.
      expect(notes(await pairs.getAll(keyRange.bound(['x'], ['x', []])))).toEqual(['x1', 'x2', 'x3', 'x4', 'x5']);
      expect(notes(await pairs.getAll(keyRange.lowerBound(['y', 4])))).toEqual(['y4', 'y5']);
      expect(notes(await pairs.getAll(keyRange.lowerBound(['y', 4], true)))).toEqual(['y5']);
      expect(notes(await pairs.getAll(keyRange.upperBound(['x', 2], true)))).toEqual(['x1']);
      expect(notes(await pairs.getAll(keyRange.only(['y', 3])))).toEqual(['y3']);
      expect(notes(await pairs.getAll(['y', 3]))).toEqual(['y3']);
      expect(await pairs.count(keyRange.bound(['y'], ['y', []]))).toBe(5);
      expect(await pairs.count()).toBe(10);
      await db.write(['pairs'], (tx) => tx.store('pairs').delete(keyRange.bound(['x', 2], ['x', 5], false, true)));
      expect(notes(await db.getAll('pairs'))).toEqual(['x1', 'x5', 'y1', 'y2', 'y3', 'y4', 'y5']);
      db.close();
    });

    it('reads at most `count` records, ascending or descending, and iterates in either order until stopped', async () => {
      const db = await storage();
      await db.write(['pairs'], async (tx) => {
        for (let b = 1; b <= 6; b++) await tx.store('pairs').put({ a: 'x', b, note: `n${b}` });
      });
      const pairs = db.read('pairs').store('pairs');
      const all = keyRange.bound(['x'], ['x', []]);
      expect((await pairs.getAll(all, 2)).map((p) => p.b)).toEqual([1, 2]);
      expect((await pairs.getAll(all, 2, 'prev')).map((p) => p.b)).toEqual([6, 5]);
      expect((await pairs.getAll(keyRange.upperBound(['x', 4]), undefined, 'prev')).map((p) => p.b)).toEqual([
        4, 3, 2, 1,
      ]);
      expect(await pairs.getAllKeys(all, 3, 'prev')).toEqual([
        ['x', 6],
        ['x', 5],
        ['x', 4],
      ]);
      const seen: number[] = [];
      for await (const entry of db.read('pairs').store('pairs').iterate(all, 'prev')) {
        expect(entry.key).toEqual(entry.primaryKey);
        seen.push(entry.value.b);
        if (entry.value.b === 3) break;
      }
      expect(seen).toEqual([6, 5, 4, 3]);
      const ascending: number[] = [];
      for await (const { value } of db
        .read('pairs')
        .store('pairs')
        .iterate(keyRange.lowerBound(['x', 5]))) {
        ascending.push(value.b);
      }
      expect(ascending).toEqual([5, 6]);
      db.close();
    });

    it('reads an index in index key order, then primary key order, and gives primary keys', async () => {
      const db = await storage();
      await db.write(['things'], async (tx) => {
        const things = tx.store('things');
        await things.put(thing('c', 'g1', 2));
        await things.put(thing('a', 'g1', 2));
        await things.put(thing('b', 'g1', 1));
        await things.put(thing('d', 'g2', 1));
      });
      const byGroup = db.read('things').store('things').index('by_group');
      const g1 = keyRange.bound(['g1'], ['g1', []]);
      expect((await byGroup.getAll(g1)).map((t) => t.id)).toEqual(['b', 'a', 'c']);
      expect((await byGroup.getAll(g1, 2, 'prev')).map((t) => t.id)).toEqual(['c', 'a']);
      expect(await byGroup.getAllKeys(g1)).toEqual(['b', 'a', 'c']);
      expect(await byGroup.getKey(['g1', 2])).toBe('a');
      expect((await byGroup.get(['g2', 1]))?.id).toBe('d');
      expect(await byGroup.count(g1)).toBe(3);
      const entries = [];
      for await (const entry of db.read('things').store('things').index('by_group').iterate(g1)) entries.push(entry);
      expect(entries.map((e) => [e.key, e.primaryKey])).toEqual([
        [['g1', 1], 'b'],
        [['g1', 2], 'a'],
        [['g1', 2], 'c'],
      ]);
      expect(await db.getAllFromIndex('things', 'by_group', keyRange.bound(['g2'], ['g2', []]))).toHaveLength(1);
      db.close();
    });

    it('keeps a multi-entry index entry per array element, and leaves records without the field out of an index', async () => {
      const db = await storage();
      await db.write(['things'], async (tx) => {
        await tx.store('things').put(thing('a', 'g', 1, ['red', 'blue'], 'A'));
        await tx.store('things').put(thing('b', 'g', 2, ['blue']));
      });
      expect((await db.getAllFromIndex('things', 'by_tag', 'blue')).map((t) => t.id)).toEqual(['a', 'b']);
      expect((await db.getAllFromIndex('things', 'by_tag', 'red')).map((t) => t.id)).toEqual(['a']);
      expect(await db.countFromIndex('things', 'by_code')).toBe(1);
      await db.write(['things'], (tx) => tx.store('things').put(thing('a', 'g', 1, ['green'], 'A')));
      expect(await db.getAllFromIndex('things', 'by_tag', 'red')).toEqual([]);
      expect(await db.getKeyFromIndex('things', 'by_tag', 'green')).toBe('a');
      db.close();
    });

    it('refuses a taken primary key on add and a repeated unique index key, as ConstraintError, keeping nothing of that write', async () => {
      const db = await storage();
      await db.write(['things'], (tx) => tx.store('things').add(thing('a', 'g', 1, [], 'A')));
      await expectFailure(
        db.write(['things'], async (tx) => {
          await tx.store('things').put(thing('new', 'g', 9));
          await tx.store('things').add(thing('a', 'g', 2));
        }),
        'ConstraintError',
      );
      await expectFailure(
        db.write(['things'], async (tx) => {
          await tx.store('things').put(thing('other', 'g', 3, [], 'A'));
        }),
        'ConstraintError',
      );
      expect((await db.getAll('things')).map((t) => t.id)).toEqual(['a']);
      db.close();
    });

    it('keeps nothing of a write whose body throws: no record, no appended event, no commit heard', async () => {
      const db = await storage();
      const heard: Commit<SuiteDB, LogEntry>[] = [];
      db.onCommit((commit) => heard.push(commit));
      const failure = new Error('the body failed');
      await expect(
        db.write(['things', 'log'], async (tx) => {
          await tx.store('things').put(thing('a', 'g', 1));
          await tx.append({ type: 'A_CREATE' });
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await db.getAll('things')).toEqual([]);
      expect(await db.latestSeq()).toBe(0);
      expect(heard).toEqual([]);
      db.close();
    });

    it('fails the write when a request it did not await fails, keeping nothing', async () => {
      const db = await storage();
      await db.write(['things'], (tx) => tx.store('things').put(thing('a', 'g', 1)));
      await expectFailure(
        db.write(['things'], async (tx) => {
          void tx
            .store('things')
            .add(thing('a', 'g', 1))
            .catch(() => undefined);
          await tx.store('things').put(thing('b', 'g', 2));
        }),
        'ConstraintError',
      );
      expect((await db.getAll('things')).map((t) => t.id)).toEqual(['a']);
      db.close();
    });

    it('commits a write that said commit() after its last requests, with their results and the commit heard; refuses a request after it', async () => {
      const db = await storage();
      const heard: Commit<SuiteDB, LogEntry>[] = [];
      db.onCommit((commit) => heard.push(commit));
      const seq = await db.write(['things', 'log'], async (tx) => {
        const stored = tx.store('things').put(thing('a', 'g', 1));
        const appended = tx.append({ type: 'A_CREATE' });
        tx.commit();
        expect(await stored).toBe('a');
        return appended;
      });
      expect(seq).toBe(1);
      expect((await db.getAll('things')).map((t) => t.id)).toEqual(['a']);
      expect(heard.map((commit) => commit.events.map((event) => event.seq))).toEqual([[1]]);
      await expectFailure(
        db.write(['things'], async (tx) => {
          const things = tx.store('things');
          void things.put(thing('b', 'g', 2)).catch(() => undefined);
          tx.commit();
          await things.put(thing('c', 'g', 3));
        }),
        'TransactionInactiveError',
      );
      expect((await db.getAll('things')).map((t) => t.id)).not.toContain('c');
      db.close();
    });

    it('runs overlapping writes one after the other: concurrent read-modify-writes all count', async () => {
      const db = await storage();
      await db.write(['kv'], (tx) => tx.store('kv').put(0, 'counter'));
      const increment = () =>
        db.write(['kv'], async (tx) => {
          const value = (await tx.store('kv').get('counter')) as number;
          await tx.store('kv').put(value + 1, 'counter');
          return value + 1;
        });
      const results = await Promise.all(Array.from({ length: 20 }, increment));
      expect([...results].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      // Started in order, they ran in that order.
      expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await db.get('kv', 'counter')).toBe(20);
      db.close();
    });

    it('shows a write to every read started after it resolved', async () => {
      const db = await storage();
      for (let i = 0; i < 5; i++) {
        await db.write(['kv'], (tx) => tx.store('kv').put(i, 'value'));
        expect(await db.get('kv', 'value')).toBe(i);
      }
      db.close();
    });

    it('stores records without a key path under the key the write names, and clears a store', async () => {
      const db = await storage();
      await db.write(['kv'], async (tx) => {
        await tx.store('kv').put({ n: 1 }, 'one');
        await tx.store('kv').put({ n: 2 }, ['two', 2]);
      });
      expect(await db.get('kv', ['two', 2])).toEqual({ n: 2 });
      await db.write(['kv'], (tx) => tx.store('kv').clear());
      expect(await db.count('kv')).toBe(0);
      db.close();
    });

    it('appends to the event log with increasing sequence numbers that are never reused, and tells the commit listeners', async () => {
      const db = await storage();
      const heard: Commit<SuiteDB, LogEntry>[] = [];
      const stop = db.onCommit((commit) => heard.push(commit));
      const seqs = await db.write(['log', 'things'], async (tx) => {
        await tx.store('things').put(thing('a', 'g', 1));
        return [await tx.append({ type: 'ONE' }), await tx.append({ type: 'TWO' })];
      });
      expect(seqs[1]).toBe(seqs[0] + 1);
      expect(heard).toHaveLength(1);
      expect(heard[0].stores).toEqual(['log', 'things']);
      expect(heard[0].events).toEqual([
        { type: 'ONE', seq: seqs[0] },
        { type: 'TWO', seq: seqs[1] },
      ]);
      await db.write(['log'], (tx) => tx.store('log').delete(seqs[1]));
      const [third] = await db.write(['log'], async (tx) => [await tx.append({ type: 'THREE' })]);
      expect(third).toBeGreaterThan(seqs[1]);
      expect(await db.latestSeq()).toBe(third);
      expect((await db.readLogAfter(seqs[0] - 1, 10)).map((e) => e.type)).toEqual(['ONE', 'THREE']);
      expect((await db.readLogAfter(seqs[0], 1)).map((e) => e.type)).toEqual(['THREE']);
      stop();
      await db.write(['log'], async (tx) => [await tx.append({ type: 'FOUR' })]);
      expect(heard).toHaveLength(3);
      db.close();
    });

    it('generates a key above every numeric key stored, also one a write named itself, so a generated key never replaces a record', async () => {
      const db = await storage();
      const [first] = await db.write(['log'], async (tx) => [await tx.append({ type: 'ONE' })]);
      await db.write(['log'], (tx) => tx.store('log').add({ seq: first + 10.5, type: 'NAMED' }));
      const [next] = await db.write(['log'], async (tx) => [await tx.append({ type: 'TWO' })]);
      expect(next).toBe(first + 11);
      expect((await db.readLogAfter(0, 10)).map((e) => e.type)).toEqual(['ONE', 'NAMED', 'TWO']);
      await expectFailure(
        db.write(['log'], (tx) => tx.store('log').add({ seq: next, type: 'AGAIN' })),
        'ConstraintError',
      );
      db.close();
    });

    it('tells the commit listeners what the write changed, record by record and in order; a store only read is absent', async () => {
      const db = await storage();
      await db.write(['things'], (tx) => tx.store('things').put(thing('old', 'g', 0)));
      const heard: Commit<SuiteDB, LogEntry>[] = [];
      db.onCommit((commit) => heard.push(commit));
      const a = thing('a', 'g', 1);
      await db.write(['things', 'pairs', 'kv', 'log'], async (tx) => {
        await tx.store('pairs').get(['x', 1]);
        await tx.store('things').add(a);
        await tx.store('things').delete('old');
        await tx.store('kv').put('v', ['k', 2]);
        await tx.store('kv').delete(keyRange.bound(['k', 3], ['k', 9]));
        await tx.append({ type: 'NOTED_AS_AN_EVENT' });
      });
      await db.write(['kv'], (tx) => tx.store('kv').clear());
      expect(heard[0].changes).toEqual(
        new Map<string, unknown>([
          [
            'things',
            [
              { kind: 'put', key: 'a', value: a },
              { kind: 'delete', query: 'old' },
            ],
          ],
          [
            'kv',
            [
              { kind: 'put', key: ['k', 2], value: 'v' },
              { kind: 'delete', query: keyRange.bound(['k', 3], ['k', 9]) },
            ],
          ],
        ]),
      );
      expect(heard[1].changes).toEqual(new Map([['kv', [{ kind: 'clear' }]]]));
      // A body that throws commits nothing, so no listener hears of its changes.
      await db
        .write(['kv'], async (tx) => {
          await tx.store('kv').put('lost', 'k');
          throw new Error('undone');
        })
        .catch(() => undefined);
      expect(heard).toHaveLength(2);
      db.close();
    });

    it('hears a commit before the writer does, so what listens is current when the writer answers', async () => {
      const db = await storage();
      const order: string[] = [];
      db.onCommit(() => order.push('listener'));
      await db.write(['kv'], (tx) => tx.store('kv').put(1, 'k'));
      order.push('writer');
      expect(order).toEqual(['listener', 'writer']);
      db.close();
    });
  });
}
