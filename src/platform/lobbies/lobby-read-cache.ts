/**
 * A lobby's newest messages in the read cache (`core/read-cache.ts`), and how the entry follows
 * writes:
 * - a message stored in the lobby joins the entry in its place by order key (or replaces the one
 *   with its key), serialized with its author's record, which the entry or the cache holds
 *   (every caller's user is cached with the caller); an entry that holds the lobby's newest
 *   {@link LOBBY_MESSAGES_MAX} keeps only that many;
 * - any other change to the lobby's record, its members, its messages (a deletion) or a record
 *   of one of its authors drops the entry, to be read again;
 * - writes to other lobbies and users leave it as it is.
 * The earliest idle deadline of all lobbies is an entry of its own: a lower bound, lowered by
 * any lobby stored with an earlier one (deleting a lobby or clearing its deadline can only
 * raise the true earliest, so the bound stays safe: a read past it goes to the store).
 */
import type { Change } from '../../store/changes';
import type { LobbyRecord, UserRecord } from '../../store/records/core';
import type { StoredLobbyMessage } from '../../store/schema';
import { LOBBY_MESSAGES_MAX } from '../core/limits';
import {
  type Dependency,
  ENTRY_OVERHEAD_BYTES,
  type Keepable,
  type ReadCache,
  stringBytes,
  userEntryKey,
} from '../core/read-cache';
import { serializeLobbyMessage } from './message-wire';

/** What a lobby read needs of one lobby, as of one snapshot. */
export interface LobbyReadEntry {
  lobby: LobbyRecord;
  /** Whether each user asked about so far is a member. */
  members: Map<string, boolean>;
  /** The newest messages (up to the most a read may ask for), newest first, as wire JSON. */
  messages: string[];
  /** Each message's `order_key`, in the same order (ascending: newest first). */
  orderKeys: string[];
  /** The author of each message (undefined for a user who no longer exists). */
  authors: Map<string, UserRecord | undefined>;
  /** True when `messages` are all the lobby holds, false when older ones may exist. */
  complete: boolean;
}

/** The earliest idle deadline of any lobby, or a lower bound of it (Infinity when none has one). */
export interface IdleDeadline {
  at: number;
}

/** The cache key of the earliest idle deadline. */
export const IDLE_DEADLINE_KEY = 'lobbies:idle-deadline';

/** The bytes counted for each user a lobby entry knows the membership of. */
export const MEMBERSHIP_BYTES = 64;

/** The cache key of a lobby's entry. */
export function lobbyEntryKey(lobbyId: string): string {
  return `lobby:${lobbyId}`;
}

function entryBytes(entry: LobbyReadEntry): number {
  let bytes = ENTRY_OVERHEAD_BYTES + entry.members.size * MEMBERSHIP_BYTES + entry.authors.size * ENTRY_OVERHEAD_BYTES;
  for (const message of entry.messages) bytes += stringBytes(message);
  return bytes;
}

/** The cache entry of the earliest idle deadline read as `at`. */
export function idleDeadlineEntry(at: number): Keepable<IdleDeadline> {
  const value = { at };
  return {
    value,
    bytes: ENTRY_OVERHEAD_BYTES,
    dependencies: [{ store: 'lobbies' }],
    absorb: (_store, change) => {
      const deadline = change.kind === 'put' ? (change.value as LobbyRecord).idle_deadline : null;
      if (deadline !== null && deadline < value.at) value.at = deadline;
      return ENTRY_OVERHEAD_BYTES;
    },
  };
}

/** The index of `orderKey` in the ascending `orderKeys`, or where it would go. */
function position(orderKeys: readonly string[], orderKey: string): number {
  let low = 0;
  let high = orderKeys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (orderKeys[middle] < orderKey) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Takes a stored message into the entry; false when it cannot (its author's record is not known
 * here).
 */
function takeMessage(entry: LobbyReadEntry, message: StoredLobbyMessage, cache: ReadCache): boolean {
  const known = entry.authors.has(message.author_id);
  const author = known ? entry.authors.get(message.author_id) : cache.get<UserRecord>(userEntryKey(message.author_id));
  if (!known && !author) return false;
  entry.authors.set(message.author_id, author);
  const json = JSON.stringify(serializeLobbyMessage(message, author));
  const at = position(entry.orderKeys, message.order_key);
  if (entry.orderKeys[at] === message.order_key) {
    entry.messages[at] = json;
    return true;
  }
  // Older than every message of an entry that does not hold them all: not among the newest.
  if (at === entry.orderKeys.length && !entry.complete) return true;
  entry.messages.splice(at, 0, json);
  entry.orderKeys.splice(at, 0, message.order_key);
  if (entry.messages.length > LOBBY_MESSAGES_MAX) {
    entry.messages.pop();
    entry.orderKeys.pop();
    entry.complete = false;
  }
  return true;
}

/**
 * The cache entry of lobby `lobbyId` read as `entry`: it depends on the lobby's record, its
 * members, its messages and its authors' records, and takes new messages in.
 */
export function lobbyEntry(lobbyId: string, entry: LobbyReadEntry, cache: ReadCache): Keepable<LobbyReadEntry> {
  const dependencies: Dependency[] = [
    { store: 'lobbies', key: lobbyId },
    { store: 'lobby_members', key: [lobbyId], prefix: true },
    { store: 'lobby_messages', key: [lobbyId], prefix: true },
    ...[...entry.authors.keys()].map((id) => ({ store: 'users', key: id })),
  ];
  const absorb = (store: string, change: Change): number | false => {
    if (store !== 'lobby_messages' || change.kind !== 'put') return false;
    const message = change.value as StoredLobbyMessage;
    const newAuthor = !entry.authors.has(message.author_id);
    if (message.lobby_id !== lobbyId || !takeMessage(entry, message, cache)) return false;
    if (newAuthor) dependencies.push({ store: 'users', key: message.author_id });
    return entryBytes(entry);
  };
  return { value: entry, bytes: entryBytes(entry), dependencies, absorb };
}
