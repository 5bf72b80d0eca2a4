/**
 * The service worker's read cache: values read from the store (callers by credential, lobbies'
 * newest messages as wire JSON...) kept in memory, so that a repeated read answers without a
 * round trip to IndexedDB. Each entry names the records it was read from; a commit drops
 * exactly the entries whose records it changed, or lets an entry take the change in
 * (write-through: a lobby's new message joins its cached newest messages).
 *
 * Coherence:
 * - Every commit of this context reaches {@link ReadCache.apply} before the writer answers
 *   (the storage's `onCommit` hook, wired by `createPlatformContext`), with the changes record
 *   by record.
 * - A read that missed keeps what it loaded only if no commit changed any store its entry
 *   depends on since it took the {@link ReadCache.generation}, before opening its own read: a
 *   read that overlapped such a write may have seen either side of it.
 * - Other contexts write too (the shared worker; an older or newer service worker during an
 *   update): their announcements name the stores their commits changed, and
 *   {@link ReadCache.forget} drops every entry that depends on one of them. The shared worker
 *   never changes a store an entry here depends on (its sessions, resume points, rate limits,
 *   presences and voice states are read by nobody through this cache), so its writes drop
 *   nothing.
 * - The browser may stop the worker at any time: the cache is only an optimization, built again
 *   on use. Memory is bounded by {@link READ_CACHE_MAX_BYTES}; past it the entries used least
 *   recently go first.
 */
import { type Change, type Changes, changeTouches } from '../../store/changes';
import type { Key } from '../../store/port';

/**
 * The most the cache holds, in bytes: each entry's strings counted at two bytes a character
 * (what a JavaScript engine stores at most) plus a fixed share for its objects. 8 MiB holds
 * about 60 lobbies' newest 200 messages of 330 characters each.
 */
export const READ_CACHE_MAX_BYTES = 8 * 1024 * 1024;

/** The bytes counted for one entry's objects besides its strings. */
export const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Records an entry was read from: one record of `store` by `key`, every record whose key starts
 * with `key` (`prefix`, for array keys such as `[lobby_id, ...]`), or the whole store (no key).
 */
export interface Dependency {
  store: string;
  key?: Key;
  prefix?: boolean;
}

/**
 * Takes a change to a record the entry depends on into the entry, in place: resolves to the
 * entry's new size in bytes, or false when the entry cannot follow and must go.
 */
export type Absorb = (store: string, change: Change) => number | false;

/** What a read keeps. */
export interface Keepable<T> {
  value: T;
  /** Its size as {@link READ_CACHE_MAX_BYTES} counts it. */
  bytes: number;
  /** What it was read from; an entry may add to its own list when it absorbs a change. */
  dependencies: Dependency[];
  /** Without it, any change to what the entry depends on drops it. */
  absorb?: Absorb;
}

interface Entry extends Keepable<unknown> {
  stores: Set<string>;
}

/**
 * The key of a user's record in the cache: kept with each caller (`oauth2/auth.ts`), and read by
 * entries that take in a change written by that user (a lobby's new message needs its author).
 */
export function userEntryKey(userId: string): string {
  return `user:${userId}`;
}

/** The bytes a string costs as {@link READ_CACHE_MAX_BYTES} counts it. */
export function stringBytes(text: string): number {
  return text.length * 2;
}

/** The cache of one platform context. */
export class ReadCache {
  #tick = 0;
  /** The tick of the last commit that changed each store; `#all` for every store. */
  readonly #storeTicks = new Map<string, number>();
  #all = 0;
  /** Every entry, the least recently used first. */
  readonly #entries = new Map<string, Entry>();
  /** The entries that depend on each store. */
  readonly #byStore = new Map<string, Set<string>>();
  #bytes = 0;

  constructor(readonly maxBytes = READ_CACHE_MAX_BYTES) {}

  /** Moves with every commit that changes anything: take it before opening a read whose result is kept. */
  get generation(): number {
    return this.#tick;
  }

  /** The bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** How many entries are held. */
  get size(): number {
    return this.#entries.size;
  }

  /** True when no commit changed any of `stores` since `generation`. */
  unchangedSince(stores: Iterable<string>, generation: number): boolean {
    if (this.#all > generation) return false;
    for (const store of stores) if ((this.#storeTicks.get(store) ?? 0) > generation) return false;
    return true;
  }

  /** The value kept under `key`, now the most recently used. */
  get<T>(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value as T;
  }

  /**
   * Keeps `entry` under `key`, read after `generation` was taken, unless a commit since then
   * changed a store it depends on (then it may be older than that commit) or it alone is over
   * the bound. Resolves to whether it was kept.
   */
  keep<T>(key: string, generation: number, entry: Keepable<T>): boolean {
    const stores = new Set(entry.dependencies.map((d) => d.store));
    if (!this.unchangedSince(stores, generation) || entry.bytes > this.maxBytes) return false;
    this.#drop(key);
    this.#entries.set(key, { ...entry, stores });
    this.#index(key, stores);
    this.#bytes += entry.bytes;
    this.#evict();
    return true;
  }

  /** Counts `bytes` more (or fewer) for the entry under `key`, which grew in place. */
  grow(key: string, bytes: number): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.bytes += bytes;
    this.#bytes += bytes;
    this.#evict();
  }

  /** Forgets the entry under `key`. */
  delete(key: string): void {
    this.#drop(key);
  }

  /**
   * One of this context's commits: each entry that depends on a changed record absorbs the
   * change or goes.
   */
  apply(changes: Changes): void {
    if (changes.size === 0) return;
    const tick = ++this.#tick;
    for (const [store, list] of changes) {
      this.#storeTicks.set(store, tick);
      const keys = this.#byStore.get(store);
      if (!keys) continue;
      for (const key of [...keys]) {
        const entry = this.#entries.get(key);
        if (entry) this.#follow(key, entry, store, list);
      }
    }
    this.#evict();
  }

  /**
   * Another context changed `stores` (every store when not known): drops every entry that
   * depends on one of them.
   */
  forget(stores?: readonly string[]): void {
    const tick = ++this.#tick;
    if (!stores) {
      this.#all = tick;
      for (const key of [...this.#entries.keys()]) this.#drop(key);
      return;
    }
    for (const store of stores) {
      this.#storeTicks.set(store, tick);
      for (const key of [...(this.#byStore.get(store) ?? [])]) this.#drop(key);
    }
  }

  #follow(key: string, entry: Entry, store: string, list: readonly Change[]): void {
    for (const change of list) {
      const touched = entry.dependencies.some(
        (d) => d.store === store && (d.key === undefined || changeTouches(change, d.key, d.prefix)),
      );
      if (!touched) continue;
      const bytes = entry.absorb?.(store, change) ?? false;
      if (bytes === false || bytes > this.maxBytes) return this.#drop(key);
      this.#bytes += bytes - entry.bytes;
      entry.bytes = bytes;
      // An absorbed change may add what the entry depends on (a new message's author).
      const stores = new Set(entry.dependencies.map((d) => d.store));
      for (const s of stores) if (!entry.stores.has(s)) entry.stores.add(s);
      this.#index(key, stores);
    }
  }

  #index(key: string, stores: Iterable<string>): void {
    for (const store of stores) {
      let keys = this.#byStore.get(store);
      if (!keys) this.#byStore.set(store, (keys = new Set()));
      keys.add(key);
    }
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    for (const store of entry.stores) this.#byStore.get(store)?.delete(key);
  }

  #evict(): void {
    for (const key of this.#entries.keys()) {
      if (this.#bytes <= this.maxBytes) return;
      this.#drop(key);
    }
  }
}
