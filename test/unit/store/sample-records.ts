/**
 * One record in every store of a database, for tests that must touch all of them (migrations
 * read them back after an upgrade; a sandbox reset must empty them). The records are written
 * and read through the storage port, so the same helpers serve every engine; only the list of
 * stores a database has is read from below the port, from each engine's own account of it.
 */
import { expect } from 'vitest';
import type { ClockState } from '../../../src/platform/core/clock';
import { type Catalogue, type KeyPath, valueAtKeyPath } from '../../../src/store/catalogue';
import { IndexedDbEngine } from '../../../src/store/indexeddb/engine';
import type { Key, Schema, StorageEngine } from '../../../src/store/port';
import type { PlatformStorage } from '../../../src/store/schema';
import { SqliteEngine } from '../../../src/store/sqlite/engine';

/**
 * Every store the database under `storage` has, with its key path and indexes: IndexedDB's own
 * object stores (at whatever version it was opened), or the catalogue SQLite made its tables from.
 */
export function catalogueOf(storage: PlatformStorage): Catalogue<Schema> {
  const { engine } = storage;
  if (engine instanceof SqliteEngine) return engine.catalogue as Catalogue<Schema>;
  if (!(engine instanceof IndexedDbEngine)) throw new Error('A storage on an engine these tests do not know.');
  const db = engine.database;
  const names = [...db.objectStoreNames];
  const tx = db.transaction(names);
  return Object.fromEntries(
    names.map((name) => {
      const store = tx.objectStore(name);
      const indexes = Object.fromEntries(
        [...store.indexNames].map((index) => [index, { keyPath: store.index(index).keyPath }]),
      );
      return [name, { keyPath: store.keyPath ?? undefined, autoIncrement: store.autoIncrement, indexes }];
    }),
  );
}

/** A valid key at `keyPath` in `record`, or undefined when the record has none there. */
function keyAt(record: unknown, keyPath: KeyPath): Key | undefined {
  if (typeof keyPath !== 'string') {
    const parts = keyPath.map((path) => keyAt(record, path));
    return parts.every((part) => part !== undefined) ? (parts as Key[]) : undefined;
  }
  const value = valueAtKeyPath(record, keyPath);
  return typeof value === 'string' || typeof value === 'number' || Array.isArray(value) ? (value as Key) : undefined;
}

/** Sets `record`'s field at `keyPath` (every part of a compound one) unless the record has it. */
function fill(record: Record<string, unknown>, keyPath: KeyPath, store: string): void {
  for (const path of typeof keyPath === 'string' ? [keyPath] : keyPath) {
    const fields = path.split('.');
    let at = record;
    for (const field of fields.slice(0, -1)) at = (at[field] ??= {}) as Record<string, unknown>;
    // A real record's null stays null (no index holds it), as the platform writes it.
    if (!(fields.at(-1)! in at)) at[fields.at(-1)!] = `${store}:${path}`;
  }
}

/** One record written: its store, its key, and what reading it must return. */
export type Written = { store: string; key: Key; value: unknown };

/** The engine of `storage`, spoken to by store names alone (the stores of any version). */
const engineOf = (storage: PlatformStorage) => storage.engine as unknown as StorageEngine<Schema>;

/**
 * Writes one record into every store of `storage`'s database (the clock state into meta), in
 * one write of its engine, and says what each read must return: `real` records where given,
 * else a sample with the store's key and the fields of every index set.
 */
export function writeSampleRecords(
  storage: PlatformStorage,
  options: { real?: Partial<Record<string, object>>; clock: ClockState },
): Promise<Written[]> {
  const catalogue = catalogueOf(storage);
  const names = Object.keys(catalogue);
  return engineOf(storage).write(names, (tx) =>
    Promise.all(
      names.map(async (name): Promise<Written> => {
        const store = tx.store(name);
        const { keyPath, autoIncrement, indexes } = catalogue[name];
        if (name === 'meta') {
          await store.put(options.clock, 'clock');
          return { store: name, key: 'clock', value: options.clock };
        }
        const record = structuredClone(options.real?.[name] ?? { sample: { of: name, at: [1, 'two'] } }) as Record<
          string,
          unknown
        >;
        for (const index of Object.values(indexes)) fill(record, index.keyPath, name);
        if (autoIncrement && typeof keyPath === 'string') {
          const key = await store.add(record);
          return { store: name, key, value: { ...record, [keyPath]: key } };
        }
        if (keyPath === undefined) {
          await store.put(record, `${name}-key`);
          return { store: name, key: `${name}-key`, value: record };
        }
        fill(record, keyPath, name);
        await store.put(record);
        return { store: name, key: keyAt(record, keyPath)!, value: record };
      }),
    ),
  );
}

/** Every written record reads back unchanged by its key, and through every index that covers it. */
export async function expectEveryRecord(storage: PlatformStorage, written: Written[], step: string): Promise<void> {
  const catalogue = catalogueOf(storage);
  const tx = engineOf(storage).read(Object.keys(catalogue));
  for (const { store: name, key, value } of written) {
    const store = tx.store(name);
    expect(await store.get(key), `${step}: ${name}`).toEqual(value);
    for (const [index, { keyPath }] of Object.entries(catalogue[name].indexes)) {
      const indexKey = keyAt(value, keyPath);
      if (indexKey === undefined) continue;
      expect(await store.index(index).getAll(indexKey), `${step}: ${name}.${index}`).toContainEqual(value);
    }
  }
}
