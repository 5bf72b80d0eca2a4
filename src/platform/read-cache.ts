/**
 * The service worker's read cache: callers by credential and lobbies' newest messages as wire
 * JSON, so that a repeated read answers from memory without a round trip to IndexedDB.
 *
 * Coherence: the service worker is the only writer of what is cached (users, applications,
 * tokens, lobbies, their members and messages; the shared worker writes only its sessions and
 * rate limits), and every read-write transaction its connection opens empties the cache first
 * (`watchWrites`). A read that missed keeps what it loaded only if no write was opened since its
 * own transaction was: that snapshot may already be old. A reset is a write like any other. The
 * browser may stop the worker at any time: the cache is only an optimization, built again on
 * use. Only contexts that are the sole writer may enable it (`createPlatformApp` does, the hub
 * does not).
 */
import type { PlatformDatabase } from '../store/schema';
import { watchWrites } from '../store/write-watch';
import type { Principal } from './auth';
import type { LobbyRecord } from './records';

/** Entries kept at most per map: past that, the map starts again empty. */
const PRINCIPALS_MAX = 1000;
const LOBBIES_MAX = 32;

/** What a lobby read needs of one lobby, as of one snapshot. */
export interface LobbyReadEntry {
  lobby: LobbyRecord;
  /** Whether each user asked about so far is a member. */
  members: Map<string, boolean>;
  /** The newest messages (up to the most a read may ask for), newest first: order key and wire JSON. */
  messages: { orderKey: string; json: string }[];
}

/** A value with the write generation it was read at. */
type Versioned<T> = { generation: number; value: T };

/** The cache of one database connection. */
export class ReadCache {
  #generation = 0;
  /** The generation the maps below hold; older maps are dropped on first use. */
  #held = 0;
  readonly #principals = new Map<string, Principal>();
  readonly #lobbies = new Map<string, LobbyReadEntry>();
  /** The earliest idle deadline of any lobby (Infinity when none has one). */
  #idleDeadline: number | undefined;

  /** Changes with every write: take it before opening the read whose result is kept. */
  get generation(): number {
    return this.#generation;
  }

  /** Forgets everything (a write is about to happen). */
  invalidate(): void {
    this.#generation++;
  }

  #current(): void {
    if (this.#held === this.#generation) return;
    this.#principals.clear();
    this.#lobbies.clear();
    this.#idleDeadline = undefined;
    this.#held = this.#generation;
  }

  /** Keeps `entry.value` only if nothing was written since `entry.generation`. */
  #fresh<T>(entry: Versioned<T>): boolean {
    this.#current();
    return entry.generation === this.#generation;
  }

  /** The caller of `credential` (`Bot x`, `Bearer y`): a copy, so no request changes another's. */
  principal(credential: string): Principal | undefined {
    this.#current();
    const principal = this.#principals.get(credential);
    return principal && structuredClone(principal);
  }

  keepPrincipal(credential: string, entry: Versioned<Principal>): void {
    if (!this.#fresh(entry)) return;
    if (this.#principals.size >= PRINCIPALS_MAX) this.#principals.clear();
    this.#principals.set(credential, structuredClone(entry.value));
  }

  lobby(lobbyId: string): LobbyReadEntry | undefined {
    this.#current();
    return this.#lobbies.get(lobbyId);
  }

  keepLobby(lobbyId: string, entry: Versioned<LobbyReadEntry>): void {
    if (!this.#fresh(entry)) return;
    if (this.#lobbies.size >= LOBBIES_MAX) this.#lobbies.clear();
    this.#lobbies.set(lobbyId, entry.value);
  }

  /** Records whether `userId` is a member of a cached lobby. */
  keepMembership(lobbyId: string, userId: string, entry: Versioned<boolean>): void {
    if (!this.#fresh(entry)) return;
    this.#lobbies.get(lobbyId)?.members.set(userId, entry.value);
  }

  idleDeadline(): number | undefined {
    this.#current();
    return this.#idleDeadline;
  }

  keepIdleDeadline(entry: Versioned<number>): void {
    if (this.#fresh(entry)) this.#idleDeadline = entry.value;
  }
}

const caches = new WeakMap<PlatformDatabase, ReadCache>();

/**
 * Turns the read cache on for this connection (idempotent). Only for the sole writer of the
 * cached stores: the service worker.
 * @example enableReadCache(ctx.db);
 */
export function enableReadCache(db: PlatformDatabase): ReadCache {
  let cache = caches.get(db);
  if (!cache) {
    const created = new ReadCache();
    watchWrites(db, () => created.invalidate());
    caches.set(db, created);
    cache = created;
  }
  return cache;
}

/** The connection's read cache, or undefined where none was enabled (reads then go to the store). */
export function readCacheOf(db: PlatformDatabase): ReadCache | undefined {
  return caches.get(db);
}
