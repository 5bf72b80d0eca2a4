/**
 * Relationships as the platform SDK names them: `RelationshipType`, `RelationshipHandle` (the
 * platform-wide and the game relationship with one user, side by side), and the cache behind
 * `getRelationshipHandle`, which the relationship operations fill and gateway events keep
 * current. It needs nothing of the client, so the client's events hold one without importing
 * the operations.
 */
import type { GameRelationship, Relationship } from '../store/records/relationships';
import type { User } from './types';

/** Relationship types in the platform's values. */
export const RelationshipType = {
  None: 0,
  Friend: 1,
  Blocked: 2,
  PendingIncoming: 3,
  PendingOutgoing: 4,
  Implicit: 5,
  Suggestion: 6,
} as const;

/** One of {@link RelationshipType}. */
export type RelationshipType = (typeof RelationshipType)[keyof typeof RelationshipType];

/** The relationships of the current user with one other user. */
export interface RelationshipHandle {
  /** The other user's id. */
  id: string;
  /** The platform-wide relationship (friends everywhere, requests, blocks). */
  discordRelationshipType: RelationshipType;
  /** The relationship in this game only (game friends and game friend requests). */
  gameRelationshipType: RelationshipType;
  user: User | undefined;
}

/** What a relationship event changed: whose relationship, and whether the platform-wide one. */
export interface RelationshipChange {
  userId: string;
  isDiscordRelationshipUpdate: boolean;
  removed: boolean;
}

/** The current user's relationships by user id, filled by `getRelationships` and kept current by events. */
export class RelationshipCache {
  readonly #handles = new Map<string, RelationshipHandle>();

  /** Every relationship whose type is not None on either side. */
  all(): RelationshipHandle[] {
    return [...this.#handles.values()];
  }

  /** One user's relationships, or undefined when there is none. */
  get(userId: string): RelationshipHandle | undefined {
    return this.#handles.get(userId);
  }

  /** Replaces everything with the lists the platform answered. */
  replace(platform: Relationship[], game: GameRelationship[]): void {
    this.#handles.clear();
    for (const r of platform) this.#set(r.id, true, r.type as RelationshipType, r.user);
    for (const r of game) this.#set(r.id, false, r.type as RelationshipType, r.user);
  }

  /** Forgets everything (a disconnect: events may be missed from then on). */
  clear(): void {
    this.#handles.clear();
  }

  /** Applies a RELATIONSHIP_* or GAME_RELATIONSHIP_* dispatch; null for any other. */
  apply(t: string, d: { id?: string; type?: number; user?: User }): RelationshipChange | null {
    const match = /^(GAME_)?RELATIONSHIP_(ADD|UPDATE|REMOVE)$/.exec(t);
    if (!match || typeof d?.id !== 'string') return null;
    const platform = match[1] === undefined;
    const removed = match[2] === 'REMOVE';
    this.#set(d.id, platform, removed ? RelationshipType.None : ((d.type ?? 0) as RelationshipType), d.user);
    return { userId: d.id, isDiscordRelationshipUpdate: platform, removed };
  }

  #set(id: string, platform: boolean, type: RelationshipType, user: User | undefined): void {
    const handle = this.#handles.get(id) ?? {
      id,
      discordRelationshipType: RelationshipType.None,
      gameRelationshipType: RelationshipType.None,
      user,
    };
    const next = {
      ...handle,
      user: user ?? handle.user,
      [platform ? 'discordRelationshipType' : 'gameRelationshipType']: type,
    };
    if (next.discordRelationshipType === RelationshipType.None && next.gameRelationshipType === RelationshipType.None)
      this.#handles.delete(id);
    else this.#handles.set(id, next);
  }
}
