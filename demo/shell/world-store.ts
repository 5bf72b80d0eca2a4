/**
 * Where the demo keeps its record of the seeded world and of the lobbies each user joined: an
 * IndexedDB database of its own (`platformpp-demo`) beside the platform's, so that clearing
 * localStorage (or cookies, or the cache) never makes the page seed a second copy of everyone.
 * Clearing IndexedDB clears the platform's data as well, and the page then seeds afresh.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { WORLD_VERSION, type DemoWorld } from './world';

/** The demo's database: one store of records by key. */
export const DEMO_DB_NAME = 'platformpp-demo';
/** The world's key in the store. */
const WORLD_KEY = 'world';
/** Where earlier versions of the demo kept the world: moved over once, then removed. */
const LEGACY_WORLD_KEY = 'platformpp-demo:world';

interface DemoDB extends DBSchema {
  records: { key: string; value: unknown };
}

let opening: Promise<IDBPDatabase<DemoDB>> | null = null;

function db(): Promise<IDBPDatabase<DemoDB>> {
  opening ??= openDB<DemoDB>(DEMO_DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore('records');
    },
    // A database deleted from elsewhere (DevTools) is opened anew on the next call.
    terminated() {
      opening = null;
    },
  }).catch((error) => {
    opening = null;
    throw error;
  });
  return opening;
}

const lobbiesKey = (userId: string) => `lobbies:${userId}`;

/** The recorded world, or null when there is none (or it is from another version). */
export async function loadWorld(): Promise<DemoWorld | null> {
  const store = await db();
  let world = (await store.get('records', WORLD_KEY)) as DemoWorld | undefined;
  if (!world) world = await adoptLegacyWorld(store);
  return world?.version === WORLD_VERSION ? world : null;
}

/** Records the world; resolves once the write committed. */
export async function saveWorld(world: DemoWorld): Promise<void> {
  await (await db()).put('records', world, WORLD_KEY);
}

/** Forgets the world and every user's lobbies (before a reset). */
export async function forgetWorld(): Promise<void> {
  await (await db()).clear('records');
}

/** The lobbies the user joined from this browser (besides the seeded one). */
export async function loadLobbyIds(userId: string): Promise<string[]> {
  const ids = await (await db()).get('records', lobbiesKey(userId));
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** Changes the user's list of lobbies in one transaction (two tabs may join at once). */
export async function updateLobbyIds(userId: string, change: (ids: Set<string>) => void): Promise<void> {
  const tx = (await db()).transaction('records', 'readwrite');
  const current = await tx.store.get(lobbiesKey(userId));
  const ids = new Set(Array.isArray(current) ? (current as string[]) : []);
  change(ids);
  await tx.store.put([...ids], lobbiesKey(userId));
  await tx.done;
}

/** A world an earlier version recorded in localStorage, moved into the database. */
async function adoptLegacyWorld(store: IDBPDatabase<DemoDB>): Promise<DemoWorld | undefined> {
  let world: DemoWorld | undefined;
  try {
    world = JSON.parse(localStorage.getItem(LEGACY_WORLD_KEY) ?? 'null') ?? undefined;
  } catch {
    // Not JSON: nothing to adopt.
  }
  if (world?.version !== WORLD_VERSION) return undefined;
  await store.put('records', world, WORLD_KEY);
  localStorage.removeItem(LEGACY_WORLD_KEY);
  return world;
}
