/**
 * Relationships in the store: the wire forms, and `RelationshipWriter`, which changes one side
 * of a relationship inside a write and emits the event that side's user hears of it in the same
 * transaction. Platform relationships emit RELATIONSHIP_ADD / UPDATE / REMOVE (the events the
 * RPC host turns into an activity's RELATIONSHIP_UPDATE); game relationships emit
 * GAME_RELATIONSHIP_ADD / UPDATE / REMOVE to that application's sessions only.
 */
import type { PlatformDB } from '../../store/schema';
import type { Emit, WriteTx } from '../../store/write';
import { ApiError } from '../core/errors';
import type { UserRecord } from '../../store/records/core';
import {
  PLATFORM_SCOPE,
  RELATIONSHIP_TYPE,
  type GameRelationship,
  type Relationship,
  type RelationshipRecord,
  type StoredRelationshipType,
} from '../../store/records/relationships';
import { serializeUser } from '../accounts/users';
import { keyRange, type KeyRange } from '../../store/port';
import { type PlatformStoreName, type ReadTx } from '../../store/schema';

/** Every store a relationship write reads or touches (the event log is added by `write`). */
export const RELATIONSHIP_STORES: PlatformStoreName[] = ['users', 'relationships', 'tokens', 'applications'];

/** A transaction over the relationship stores. */
export type RelationshipTx = ReadTx;

/** Every record of one user in one scope (`[user_id, scope, *]`). */
export function scopeRange(userId: string, scope: string): KeyRange {
  return keyRange.bound([userId, scope, ''], [userId, scope, '\uffff']);
}

/** A platform relationship on the wire. */
export function serializeRelationship(record: RelationshipRecord, other: UserRecord): Relationship {
  return {
    id: record.other_id,
    type: record.type,
    nickname: null,
    user: serializeUser(other),
    since: new Date(record.since).toISOString(),
  };
}

/** A game relationship on the wire. */
export function serializeGameRelationship(record: RelationshipRecord, other: UserRecord): GameRelationship {
  return {
    id: record.other_id,
    application_id: record.application_id,
    type: record.type,
    user: serializeUser(other),
    since: new Date(record.since).toISOString(),
  };
}

/** The wire form of either kind of relationship. */
export function serializeAnyRelationship(
  record: RelationshipRecord,
  other: UserRecord,
): Relationship | GameRelationship {
  return record.application_id === PLATFORM_SCOPE
    ? serializeRelationship(record, other)
    : serializeGameRelationship(record, other);
}

/**
 * True once `userId` has played the application's game: it holds (or held) an OAuth2 or
 * provisional token of the application. Game friends and DM history need it (the public guides).
 */
export async function hasPlayed(tx: RelationshipTx, applicationId: string, userId: string): Promise<boolean> {
  return (await tx.store('tokens').index('by_application_user').count([applicationId, userId])) > 0;
}

/** The platform relationship type `userId` holds towards `otherId` (0 when none). */
export async function platformType(tx: RelationshipTx, userId: string, otherId: string): Promise<number> {
  return (await tx.store('relationships').get([userId, PLATFORM_SCOPE, otherId]))?.type ?? RELATIONSHIP_TYPE.NONE;
}

/** True when either user blocked the other (blocks are platform-wide). */
export async function eitherBlocked(tx: RelationshipTx, a: string, b: string): Promise<boolean> {
  const [ab, ba] = await Promise.all([platformType(tx, a, b), platformType(tx, b, a)]);
  return ab === RELATIONSHIP_TYPE.BLOCKED || ba === RELATIONSHIP_TYPE.BLOCKED;
}

/** True when the two are friends on the platform, or game friends in `applicationId`. */
export async function areFriends(tx: RelationshipTx, a: string, b: string, applicationId: string): Promise<boolean> {
  const store = tx.store('relationships');
  const [platform, game] = await Promise.all([store.get([a, PLATFORM_SCOPE, b]), store.get([a, applicationId, b])]);
  return platform?.type === RELATIONSHIP_TYPE.FRIEND || game?.type === RELATIONSHIP_TYPE.FRIEND;
}

/**
 * Changes sides of relationships inside one write; each change emits one event to the user
 * whose side it is, carrying the relationship as that user sees it.
 * @example
 * const writer = new RelationshipWriter(tx, emit, now);
 * await writer.set(alice.id, PLATFORM_SCOPE, bob.id, RELATIONSHIP_TYPE.PENDING_OUTGOING);
 */
export class RelationshipWriter {
  readonly #users = new Map<string, UserRecord>();

  constructor(
    private readonly tx: WriteTx,
    private readonly emit: Emit,
    private readonly now: number,
  ) {}

  /** One side, or undefined. */
  get(userId: string, scope: string, otherId: string): Promise<RelationshipRecord | undefined> {
    return this.tx.store('relationships').get([userId, scope, otherId]);
  }

  /** Sets `userId`'s side to `type`: ADD when it had none, UPDATE when its type changes, nothing when it is already so. */
  async set(userId: string, scope: string, otherId: string, type: StoredRelationshipType): Promise<void> {
    const existing = await this.get(userId, scope, otherId);
    if (existing?.type === type) return;
    const record: RelationshipRecord = {
      user_id: userId,
      application_id: scope,
      other_id: otherId,
      type,
      since: this.now,
    };
    await this.tx.store('relationships').put(record);
    this.#emit(existing ? 'UPDATE' : 'ADD', record, await this.#user(otherId));
  }

  /** Removes `userId`'s side (REMOVE carries the relationship as it was); false when there was none. */
  async clear(userId: string, scope: string, otherId: string): Promise<boolean> {
    const existing = await this.get(userId, scope, otherId);
    if (!existing) return false;
    await this.tx.store('relationships').delete([userId, scope, otherId]);
    this.#emit('REMOVE', existing, await this.#user(otherId));
    return true;
  }

  /** Removes every game relationship between the two users, in every application, on both sides. */
  async clearGameRelationships(a: string, b: string): Promise<void> {
    const index = this.tx.store('relationships').index('by_pair');
    const sides = [...(await index.getAll([a, b])), ...(await index.getAll([b, a]))];
    for (const side of sides)
      if (side.application_id !== PLATFORM_SCOPE) await this.clear(side.user_id, side.application_id, side.other_id);
  }

  /** Throws 30002 when `userId` already has the most platform friends. */
  async requireFriendRoom(userId: string, max: number): Promise<void> {
    const friends = await this.tx
      .store('relationships')
      .index('by_type')
      .count([userId, PLATFORM_SCOPE, RELATIONSHIP_TYPE.FRIEND]);
    if (friends >= max) throw ApiError.of('FRIENDS_MAX');
  }

  async #user(id: string): Promise<UserRecord> {
    let user = this.#users.get(id);
    if (!user) {
      user = await this.tx.store('users').get(id);
      if (!user) throw ApiError.of('UNKNOWN_USER');
      this.#users.set(id, user);
    }
    return user;
  }

  #emit(change: 'ADD' | 'UPDATE' | 'REMOVE', record: RelationshipRecord, other: UserRecord): void {
    if (record.application_id === PLATFORM_SCOPE) {
      this.emit({
        type: `RELATIONSHIP_${change}`,
        data: serializeRelationship(record, other),
        audience: { user_ids: [record.user_id] },
      });
    } else {
      this.emit({
        type: `GAME_RELATIONSHIP_${change}`,
        data: serializeGameRelationship(record, other),
        audience: { user_ids: [record.user_id], application_id: record.application_id },
      });
    }
  }
}
