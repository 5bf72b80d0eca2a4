/**
 * What a database holds, declared once: each store's key path and indexes. An engine that
 * creates its tables from scratch (SQLite) reads it; IndexedDB reaches the same shape through its
 * versioned migrations (`indexeddb/migrations.ts`), and a test checks that both agree.
 */
import type { IndexName, Schema, StoreName } from './port';

/** A key path: one field, or several making an array key. */
export type KeyPath = string | readonly string[];

/** One secondary index. */
export interface IndexDefinition {
  keyPath: KeyPath;
  /** No two records may have the same index key. */
  unique?: boolean;
  /** For an array field: one index entry per element. */
  multiEntry?: boolean;
}

/** One store: records carry their key at `keyPath`; without one, writes name the key. */
export interface StoreDefinition<I extends string = string> {
  keyPath?: KeyPath;
  /** Keys are generated in increasing order (the event log). */
  autoIncrement?: boolean;
  indexes: { [name in I]: IndexDefinition };
}

/** Every store of schema `S` with its definition. */
export type Catalogue<S extends Schema> = { [N in StoreName<S>]: StoreDefinition<IndexName<S, N>> };

/**
 * The value at `keyPath` of `value`, or undefined when a part is missing.
 * @example valueAtKeyPath({ guild_id: '1', user_id: '2' }, ['guild_id', 'user_id']) // ['1', '2']
 */
export function valueAtKeyPath(value: unknown, keyPath: KeyPath): unknown {
  if (typeof keyPath !== 'string') {
    const parts = keyPath.map((path) => valueAtKeyPath(value, path));
    return parts.some((part) => part === undefined) ? undefined : parts;
  }
  let current: unknown = value;
  for (const part of keyPath.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
