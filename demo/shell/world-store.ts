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

/** Forgets the world, every user's lobbies and read marks (after a reset); dismissed help stays dismissed. */
export async function forgetWorld(): Promise<void> {
  const tx = (await db()).transaction('records', 'readwrite');
  for (const key of await tx.store.getAllKeys()) if (key !== helpKey) await tx.store.delete(key);
  await tx.done;
}

/** The lobbies the user joined from this browser (besides the seeded one), and the secrets they used. */
export interface KnownLobbies {
  ids: string[];
  /** Lobby id → the secret it was made or joined with here. */
  secrets: Record<string, string>;
}

/** Reads a record of the user's lobbies (an earlier version kept a bare array of ids). */
function knownLobbies(record: unknown): KnownLobbies {
  if (Array.isArray(record)) return { ids: record.filter((id): id is string => typeof id === 'string'), secrets: {} };
  const value = (record ?? {}) as Partial<KnownLobbies>;
  return {
    ids: Array.isArray(value.ids) ? value.ids.filter((id): id is string => typeof id === 'string') : [],
    secrets: value.secrets && typeof value.secrets === 'object' ? { ...value.secrets } : {},
  };
}

/** The lobbies the user joined from this browser (besides the seeded one). */
export async function loadLobbyIds(userId: string): Promise<KnownLobbies> {
  return knownLobbies(await (await db()).get('records', lobbiesKey(userId)));
}

/** Changes the user's list of lobbies in one transaction (two tabs may join at once); adds `secrets`. */
export async function updateLobbyIds(
  userId: string,
  change: (ids: Set<string>) => void,
  secrets: Record<string, string> = {},
): Promise<void> {
  const tx = (await db()).transaction('records', 'readwrite');
  const current = knownLobbies(await tx.store.get(lobbiesKey(userId)));
  const ids = new Set(current.ids);
  change(ids);
  const kept = Object.fromEntries(Object.entries({ ...current.secrets, ...secrets }).filter(([id]) => ids.has(id)));
  await tx.store.put({ ids: [...ids], secrets: kept }, lobbiesKey(userId));
  await tx.done;
}

const readsKey = (userId: string) => `reads:${userId}`;

/** The last message the user read in each conversation (`lobby:<id>`, `channel:<id>`), as saved from this browser. */
export async function loadReadMarks(userId: string): Promise<Record<string, string>> {
  const marks = await (await db()).get('records', readsKey(userId));
  return marks && typeof marks === 'object' && !Array.isArray(marks) ? (marks as Record<string, string>) : {};
}

/** Saves the user's read marks (every tab of the user shares them). */
export async function saveReadMarks(userId: string, marks: Record<string, string>): Promise<void> {
  await (await db()).put('records', { ...marks }, readsKey(userId));
}

const helpKey = 'help:dismissed';

/** The help tips the person dismissed in this browser. */
export async function loadDismissedHelp(): Promise<string[]> {
  const ids = await (await db()).get('records', helpKey);
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** Remembers that a help tip was dismissed. */
export async function dismissHelp(id: string): Promise<void> {
  const tx = (await db()).transaction('records', 'readwrite');
  const ids = new Set((await tx.store.get(helpKey)) as string[] | undefined);
  ids.add(id);
  await tx.store.put([...ids], helpKey);
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
