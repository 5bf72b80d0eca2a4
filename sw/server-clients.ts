/**
 * Which platform server each client of the service worker uses (CONTRACT §7), kept in an
 * IndexedDB database of the worker's own (`platformpp-servers`), beside the platform's: the
 * browser stops the worker when it likes, and a page that joined a server must not fall back to
 * the local sandbox when the worker starts again. Memory is a cache in front of it.
 *
 * A client is a tab or a frame (the browser's client id). A page joins (`join`), tells which
 * activity frames it is about to load (`adoptFrame`), and the frame's navigation, which carries
 * its `frame_id`, makes the frame's new client use the same server (`enterFrame`). A client that
 * never joined uses the local sandbox.
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { JoinedServer } from '../src/wire/server-join';

/** The worker's own database. */
export const SERVER_CLIENTS_DB = 'platformpp-servers';

/** How long a frame's choice is kept for its navigations (a reload of the activity comes back for it). */
export const FRAME_CHOICE_MAX_AGE_MS = 7 * 24 * 3600_000;

/** One client's or frame's choice; `server` null is the local sandbox. */
interface Choice {
  id: string;
  server: JoinedServer | null;
  at: number;
}

interface ServerClientsDB extends DBSchema {
  clients: { key: string; value: Choice };
  frames: { key: string; value: Choice };
}

/**
 * The clients' choices.
 * @example const servers = new ServerClients(); const server = await servers.serverOf(event.clientId);
 */
export class ServerClients {
  readonly #memory = new Map<string, JoinedServer | null>();
  #db: Promise<IDBPDatabase<ServerClientsDB>> | null = null;

  constructor(
    private readonly dbName = SERVER_CLIENTS_DB,
    private readonly now: () => number = Date.now,
  ) {}

  /** The server `clientId` uses, or null for the local sandbox (also for an empty id). */
  async serverOf(clientId: string): Promise<JoinedServer | null> {
    if (!clientId) return null;
    const known = this.#memory.get(clientId);
    if (known !== undefined) return known;
    const stored = (await (await this.#open()).get('clients', clientId))?.server ?? null;
    // Another call may have joined meanwhile: what it set is newer than what was read.
    if (!this.#memory.has(clientId)) this.#memory.set(clientId, stored);
    return this.#memory.get(clientId) ?? null;
  }

  /**
   * Records that `clientId` uses `server` (null: the local sandbox); resolves once stored.
   * `liveClients`, when given, are the ids of every client that still exists: the others' choices
   * are forgotten.
   */
  async join(clientId: string, server: JoinedServer | null, liveClients?: ReadonlySet<string>): Promise<void> {
    this.#memory.set(clientId, server);
    const tx = (await this.#open()).transaction(['clients', 'frames'], 'readwrite');
    const clients = tx.objectStore('clients');
    if (server) await clients.put({ id: clientId, server, at: this.now() });
    else await clients.delete(clientId);
    if (liveClients) {
      for (const id of await clients.getAllKeys()) {
        if (!liveClients.has(id) && id !== clientId) {
          await clients.delete(id);
          this.#memory.delete(id);
        }
      }
      const frames = tx.objectStore('frames');
      for (const frame of await frames.getAll())
        if (this.now() - frame.at > FRAME_CHOICE_MAX_AGE_MS) await frames.delete(frame.id);
    }
    await tx.done;
  }

  /** The activity frame `frameId` that `clientId` is about to load uses what `clientId` uses. */
  async adoptFrame(frameId: string, clientId: string): Promise<void> {
    const server = await this.serverOf(clientId);
    const db = await this.#open();
    if (server) await db.put('frames', { id: frameId, server, at: this.now() });
    else await db.delete('frames', frameId);
  }

  /**
   * The navigation of the activity frame `frameId` creates the client `clientId`: it uses what
   * the frame's page chose. Resolves with that choice.
   */
  async enterFrame(clientId: string, frameId: string): Promise<JoinedServer | null> {
    const server = (await (await this.#open()).get('frames', frameId))?.server ?? null;
    if (server) await this.join(clientId, server);
    else this.#memory.set(clientId, null);
    return server;
  }

  #open(): Promise<IDBPDatabase<ServerClientsDB>> {
    this.#db ??= openDB<ServerClientsDB>(this.dbName, 1, {
      upgrade(db) {
        db.createObjectStore('clients', { keyPath: 'id' });
        db.createObjectStore('frames', { keyPath: 'id' });
      },
      // Deleted from elsewhere (DevTools): opened anew on the next call.
      terminated: () => {
        this.#db = null;
      },
    });
    this.#db.catch(() => (this.#db = null));
    return this.#db;
  }
}
