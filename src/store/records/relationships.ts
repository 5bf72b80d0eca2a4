/**
 * Relationships between users, as the platform and its game SDK model them: one relationship
 * across the whole platform (friends, friend requests, blocks) and, per application, a game
 * relationship (game friends and game friend requests) that no other game sees. Each user holds
 * their own side: a friend request is `PENDING_OUTGOING` for the sender and `PENDING_INCOMING`
 * for the recipient; a block exists only on the blocker's side.
 */
import type { Snowflake, User } from './core';

/** Relationship types in the platform's public values (the SDK's `RelationshipType`). */
export const RELATIONSHIP_TYPE = {
  NONE: 0,
  FRIEND: 1,
  BLOCKED: 2,
  PENDING_INCOMING: 3,
  PENDING_OUTGOING: 4,
} as const;

/** A stored relationship type (NONE is never stored: no record means none). */
export type StoredRelationshipType = 1 | 2 | 3 | 4;

/** The `application_id` of a platform-wide relationship; a game relationship holds its application's id. */
export const PLATFORM_SCOPE = '';

/** One side of a relationship, keyed `[user_id, application_id, other_id]`. */
export interface RelationshipRecord {
  /** The user whose side this is. */
  user_id: Snowflake;
  /** {@link PLATFORM_SCOPE} for the platform relationship, else the application of a game relationship. */
  application_id: string;
  other_id: Snowflake;
  type: StoredRelationshipType;
  /** When this side reached its current type (epoch ms). */
  since: number;
}

/** A platform relationship on the wire (`GET /users/@me/relationships`, RELATIONSHIP_* events). */
export interface Relationship {
  /** The other user's id. */
  id: Snowflake;
  type: number;
  nickname: null;
  user: User;
  since: string;
}

/** A game relationship on the wire (`GET /users/@me/game-relationships`, GAME_RELATIONSHIP_* events). */
export interface GameRelationship {
  id: Snowflake;
  application_id: Snowflake;
  type: number;
  user: User;
  since: string;
}
