/**
 * The service worker's read cache: callers by credential and lobbies' newest messages as wire
 * JSON, so that a repeated read answers from memory without a round trip to IndexedDB; and the
 * generation of the webhook settings and deliveries, so that the webhook outbox, once it found
 * nothing to do, knows without a read that this is still so.
 *
 * Coherence: the service worker is the only writer of what is cached (users, applications,
 * tokens, lobbies, their members and messages, webhook settings and deliveries; the shared
 * worker writes only its sessions, resume points, rate limits, voice states and voice tokens,
 * reading lobbies and members but never changing them), and every write it commits drops,
 * before the writer answers, whatever was read from a store in its scope (the storage's
 * `onCommit` hook, wired by `createPlatformContext`). A read that missed keeps what it loaded
 * only if no such commit happened since it took the generation, before opening its own read:
 * a read that overlapped a write may have seen either side of it. A reset is a write over
 * every store like any other. The browser may stop the worker at any time: the cache is only
 * an optimization, built again on use. Only contexts that are the sole writer may enable it
 * (`createPlatformApp` does, the hub does not).
 */
import type { Principal } from '../oauth2/principal';
import type { LobbyRecord } from '../../store/records/core';

/** Entries kept at most per map: past that, the map starts again empty. */
const PRINCIPALS_MAX = 1000;
const LOBBIES_MAX = 32;

/** What a lobby read needs of one lobby, as of one snapshot. */
export interface LobbyReadEntry {
  lobby: LobbyRecord;
  /** Whether each user asked about so far is a member. */
  members: Map<string, boolean>;
  /** The newest messages (up to the most a read may ask for), newest first, as wire JSON. */
  messages: string[];
}

/**
 * Where each kind of cached value is read from: a write whose scope has none of them keeps it.
 * A read path that comes to depend on another store must name it here.
 */
const PRINCIPAL_STORES: ReadonlySet<string> = new Set(['tokens', 'applications', 'users', 'bans']);
const LOBBY_STORES: ReadonlySet<string> = new Set(['lobbies', 'lobby_members', 'lobby_messages', 'users']);
/** What the webhook outbox reads to learn it has nothing to do (see `WebhookOutbox`). */
const WEBHOOK_STORES: ReadonlySet<string> = new Set(['event_webhooks', 'webhook_deliveries']);

/** How many writes that could change each kind of value were opened so far. */
export interface Generation {
  principals: number;
  lobbies: number;
  webhooks: number;
}

/** A value with the write generation it was read at. */
type Versioned<T> = { generation: Generation; value: T };

/** The cache of one platform context. */
export class ReadCache {
  #principalsGeneration = 0;
  #lobbiesGeneration = 0;
  #webhooksGeneration = 0;
  /** The generations the maps below hold; older maps are dropped on first use. */
  #held: Omit<Generation, 'webhooks'> = { principals: 0, lobbies: 0 };
  readonly #principals = new Map<string, Principal>();
  readonly #lobbies = new Map<string, LobbyReadEntry>();
  /** The earliest idle deadline of any lobby (Infinity when none has one). */
  #idleDeadline: number | undefined;

  /** Changes with every write that concerns the cache: take it before opening the read whose result is kept. */
  get generation(): Generation {
    return {
      principals: this.#principalsGeneration,
      lobbies: this.#lobbiesGeneration,
      webhooks: this.#webhooksGeneration,
    };
  }

  /** Forgets what a write over `stores` may change (everything when the stores are not known). */
  invalidate(stores?: readonly string[]): void {
    if (!stores || stores.some((name) => PRINCIPAL_STORES.has(name))) this.#principalsGeneration++;
    if (!stores || stores.some((name) => LOBBY_STORES.has(name))) this.#lobbiesGeneration++;
    if (!stores || stores.some((name) => WEBHOOK_STORES.has(name))) this.#webhooksGeneration++;
  }

  #current(): void {
    if (this.#held.principals !== this.#principalsGeneration) {
      this.#principals.clear();
      this.#held.principals = this.#principalsGeneration;
    }
    if (this.#held.lobbies !== this.#lobbiesGeneration) {
      this.#lobbies.clear();
      this.#idleDeadline = undefined;
      this.#held.lobbies = this.#lobbiesGeneration;
    }
  }

  /** True when nothing that concerns `kind` was written since `generation`. */
  unchanged(kind: keyof Generation, generation: Generation): boolean {
    this.#current();
    return generation[kind] === this.generation[kind];
  }

  /** The caller of `credential` (`Bot x`, `Bearer y`): a copy, so no request changes another's. */
  principal(credential: string): Principal | undefined {
    this.#current();
    const principal = this.#principals.get(credential);
    return principal && structuredClone(principal);
  }

  keepPrincipal(credential: string, entry: Versioned<Principal>): void {
    if (!this.unchanged('principals', entry.generation)) return;
    if (this.#principals.size >= PRINCIPALS_MAX) this.#principals.clear();
    this.#principals.set(credential, structuredClone(entry.value));
  }

  lobby(lobbyId: string): LobbyReadEntry | undefined {
    this.#current();
    return this.#lobbies.get(lobbyId);
  }

  keepLobby(lobbyId: string, entry: Versioned<LobbyReadEntry>): void {
    if (!this.unchanged('lobbies', entry.generation)) return;
    if (this.#lobbies.size >= LOBBIES_MAX) this.#lobbies.clear();
    this.#lobbies.set(lobbyId, entry.value);
  }

  /** Records whether `userId` is a member of a cached lobby. */
  keepMembership(lobbyId: string, userId: string, entry: Versioned<boolean>): void {
    if (!this.unchanged('lobbies', entry.generation)) return;
    this.#lobbies.get(lobbyId)?.members.set(userId, entry.value);
  }

  idleDeadline(): number | undefined {
    this.#current();
    return this.#idleDeadline;
  }

  keepIdleDeadline(entry: Versioned<number>): void {
    if (this.unchanged('lobbies', entry.generation)) this.#idleDeadline = entry.value;
  }
}
