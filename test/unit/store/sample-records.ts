/**
 * One record in every store of a database, for tests that must touch all of them (migrations
 * read them back after an upgrade; a sandbox reset must empty them).
 */
import { indexedDbOf } from './indexeddb-of';
import { expect } from 'vitest';
import type { ClockState } from '../../../src/platform/core/clock';
import type { PlatformStorage } from '../../../src/store/schema';

/** A valid IndexedDB key for `keyPath` in `record`, or undefined when the record has none there. */
function keyAt(record: Record<string, unknown>, keyPath: string | string[]): IDBValidKey | undefined {
  if (Array.isArray(keyPath)) {
    const parts = keyPath.map((path) => keyAt(record, path));
    return parts.every((part) => part !== undefined) ? (parts as IDBValidKey[]) : undefined;
  }
  const value = keyPath
    .split('.')
    .reduce<unknown>((at, field) => (at as Record<string, unknown> | undefined)?.[field], record);
  return typeof value === 'string' || typeof value === 'number' || Array.isArray(value)
    ? (value as IDBValidKey)
    : undefined;
}

/** Sets `record`'s field at `keyPath` (every part of a compound one) unless the record has it. */
function fill(record: Record<string, unknown>, keyPath: string | string[], store: string): void {
  for (const path of Array.isArray(keyPath) ? keyPath : [keyPath]) {
    const fields = path.split('.');
    let at = record;
    for (const field of fields.slice(0, -1)) at = (at[field] ??= {}) as Record<string, unknown>;
    // A real record's null stays null (no index holds it), as the platform writes it.
    if (!(fields.at(-1)! in at)) at[fields.at(-1)!] = `${store}:${path}`;
  }
}

/** One record written: its store, its key, and what reading it must return. */
export type Written = { store: string; key: IDBValidKey; value: unknown };

/**
 * Writes one record into every store of `db` (the clock state into meta) and says what each
 * read must return: `real` records where given, else a sample with the store's key and the
 * fields of every index set.
 */
export async function writeSampleRecords(
  storage: PlatformStorage,
  options: { real?: Partial<Record<string, object>>; clock: ClockState },
): Promise<Written[]> {
  const db = indexedDbOf(storage);
  const names = [...db.objectStoreNames];
  const tx = db.transaction(names, 'readwrite');
  const written = await Promise.all(
    names.map(async (name): Promise<Written> => {
      const store = tx.objectStore(name);
      if (name === 'meta') {
        await store.put(options.clock as never, 'clock' as never);
        return { store: name, key: 'clock', value: options.clock };
      }
      const record = structuredClone(options.real?.[name] ?? { sample: { of: name, at: [1, 'two'] } }) as Record<
        string,
        unknown
      >;
      for (const index of store.indexNames) fill(record, store.index(index).keyPath, name);
      if (store.autoIncrement) {
        const key = await store.add(record as never);
        return { store: name, key, value: { ...record, [store.keyPath as string]: key } };
      }
      if (store.keyPath === null) {
        await store.put(record as never, `${name}-key` as never);
        return { store: name, key: `${name}-key`, value: record };
      }
      fill(record, store.keyPath, name);
      await store.put(record as never);
      return { store: name, key: keyAt(record, store.keyPath)!, value: record };
    }),
  );
  await tx.done;
  return written;
}

/** Every written record reads back unchanged by its key, and through every index that covers it. */
export async function expectEveryRecord(storage: PlatformStorage, written: Written[], step: string): Promise<void> {
  const db = indexedDbOf(storage);
  const tx = db.transaction([...db.objectStoreNames]);
  for (const { store: name, key, value } of written) {
    const store = tx.objectStore(name as never);
    expect(await store.get(key as never), `${step}: ${name}`).toEqual(value);
    for (const index of store.indexNames) {
      const indexKey = keyAt(value as Record<string, unknown>, store.index(index).keyPath);
      if (indexKey === undefined) continue;
      expect(await store.index(index).getAll(indexKey as never), `${step}: ${name}.${index}`).toContainEqual(value);
    }
  }
}
