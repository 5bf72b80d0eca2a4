/**
 * Friends, friend requests and blocks of the current user, platform-wide (`/users/@me/
 * relationships`) or in the caller's game (`/users/@me/game-relationships`), and the sandbox's
 * direct setting of a pair. The rules are those of the public Social SDK guide:
 * - a friend request to someone who already asked you accepts theirs;
 * - provisional accounts have game friends only; game friends must both have played the game;
 * - platform friends are limited to 1000, game friends are not;
 * - blocking is platform-wide: it ends the other user's side of the platform relationship and
 *   every game relationship of the pair, and refuses friend requests either way;
 * - removing a friend, cancelling or rejecting a request removes both sides; unblocking
 *   removes only the block and restores nothing.
 */
import { write } from '../../store/write';
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { FRIENDS_MAX } from '../core/limits';
import type { UserRecord } from '../../store/records/core';
import {
  PLATFORM_SCOPE,
  RELATIONSHIP_TYPE,
  type GameRelationship,
  type Relationship,
  type StoredRelationshipType,
} from '../../store/records/relationships';
import {
  RELATIONSHIP_STORES,
  RelationshipWriter,
  hasPlayed,
  scopeRange,
  serializeAnyRelationship,
  serializeGameRelationship,
  serializeRelationship,
  type RelationshipTx,
} from './store';

/** Whom a friend request names: a user id, or a username. */
export type FriendRequestTarget = { id: string } | { username: string };

/** `scope` of the caller: '' platform-wide, the application's id for its game. */
export function callerScope(principal: BearerPrincipal, game: boolean): string {
  return game ? principal.application.id : PLATFORM_SCOPE;
}

async function resolveTarget(tx: RelationshipTx, target: FriendRequestTarget): Promise<UserRecord> {
  if ('id' in target) {
    const user = await tx.store('users').get(target.id);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    return user;
  }
  // Usernames may repeat in the sandbox: the oldest account of that name is the one meant.
  const matches = await tx.store('users').index('by_username').getAll(target.username);
  const user = matches.filter((u) => !u.bot).sort((a, b) => a.created_at - b.created_at)[0];
  if (!user) throw ApiError.of('UNKNOWN_USERNAME');
  return user;
}

async function listScope(ctx: PlatformContext, userId: string, scope: string) {
  const tx = ctx.db.read(['relationships', 'users']);
  const records = await tx.store('relationships').getAll(scopeRange(userId, scope));
  const users = await Promise.all(records.map((r) => tx.store('users').get(r.other_id)));
  return records.flatMap((record, i) => (users[i] ? [{ record, user: users[i] }] : []));
}

/** `GET /users/@me/relationships`: the caller's platform friends, requests and blocks. */
export async function listRelationships(ctx: PlatformContext, principal: BearerPrincipal): Promise<Relationship[]> {
  return (await listScope(ctx, principal.user.id, PLATFORM_SCOPE)).map(({ record, user }) =>
    serializeRelationship(record, user),
  );
}

/** `GET /users/@me/game-relationships`: the caller's game friends and game friend requests in the caller's game. */
export async function listGameRelationships(
  ctx: PlatformContext,
  principal: BearerPrincipal,
): Promise<GameRelationship[]> {
  return (await listScope(ctx, principal.user.id, principal.application.id)).map(({ record, user }) =>
    serializeGameRelationship(record, user),
  );
}

/**
 * Sends a friend request (platform-wide, or a game friend request when `game`), or accepts the
 * one the target already sent. Asking again, or asking a friend, changes nothing.
 * @example await sendFriendRequest(ctx, principal, { username: 'bob' }, true)
 */
export async function sendFriendRequest(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  target: FriendRequestTarget,
  game: boolean,
): Promise<void> {
  const me = principal.user;
  const scope = callerScope(principal, game);
  await write(ctx, RELATIONSHIP_STORES, async (tx, emit) => {
    const other = await resolveTarget(tx, target);
    if (other.id === me.id || other.bot)
      throw ApiError.of('INVALID_RECIPIENT', 'A friend request needs another user who is not a bot.');
    if (!game && (me.provisional || other.provisional)) {
      throw ApiError.of(
        'INVALID_USER_TYPE',
        'Provisional accounts have game friends only: send a game friend request.',
      );
    }
    if (game && !(await hasPlayed(tx, scope, other.id)))
      throw ApiError.of('FRIEND_REQUEST_REFUSED', 'This user has not played this game.');
    const writer = new RelationshipWriter(tx, emit, ctx.clock.now());
    if ((await writer.get(me.id, PLATFORM_SCOPE, other.id))?.type === RELATIONSHIP_TYPE.BLOCKED) {
      throw ApiError.of('FRIEND_REQUEST_REFUSED', 'You blocked this user: unblock them first.');
    }
    if ((await writer.get(other.id, PLATFORM_SCOPE, me.id))?.type === RELATIONSHIP_TYPE.BLOCKED)
      throw ApiError.of('FRIEND_REQUEST_REFUSED');
    const mine = (await writer.get(me.id, scope, other.id))?.type;
    if (mine === RELATIONSHIP_TYPE.FRIEND || mine === RELATIONSHIP_TYPE.PENDING_OUTGOING) return;
    if (mine === RELATIONSHIP_TYPE.PENDING_INCOMING) {
      await befriend(writer, scope, me.id, other.id);
      return;
    }
    await writer.set(me.id, scope, other.id, RELATIONSHIP_TYPE.PENDING_OUTGOING);
    await writer.set(other.id, scope, me.id, RELATIONSHIP_TYPE.PENDING_INCOMING);
  });
}

/** Both sides become friends; platform friendships count against {@link FRIENDS_MAX} of each. */
async function befriend(writer: RelationshipWriter, scope: string, a: string, b: string): Promise<void> {
  if (scope === PLATFORM_SCOPE) {
    if ((await writer.get(a, scope, b))?.type !== RELATIONSHIP_TYPE.FRIEND)
      await writer.requireFriendRoom(a, FRIENDS_MAX);
    if ((await writer.get(b, scope, a))?.type !== RELATIONSHIP_TYPE.FRIEND)
      await writer.requireFriendRoom(b, FRIENDS_MAX);
  }
  await writer.set(a, scope, b, RELATIONSHIP_TYPE.FRIEND);
  await writer.set(b, scope, a, RELATIONSHIP_TYPE.FRIEND);
}

/** Blocks `other` for `me`: ends the other's platform side (unless they block too) and every game relationship of the pair. */
async function block(writer: RelationshipWriter, me: string, other: string): Promise<void> {
  await writer.set(me, PLATFORM_SCOPE, other, RELATIONSHIP_TYPE.BLOCKED);
  if ((await writer.get(other, PLATFORM_SCOPE, me))?.type !== RELATIONSHIP_TYPE.BLOCKED)
    await writer.clear(other, PLATFORM_SCOPE, me);
  await writer.clearGameRelationships(me, other);
}

/** `PUT /users/@me/relationships/{id}` with `type: 2`: the caller blocks the user. */
export async function blockUser(ctx: PlatformContext, principal: BearerPrincipal, otherId: string): Promise<void> {
  await write(ctx, RELATIONSHIP_STORES, async (tx, emit) => {
    const other = await resolveTarget(tx, { id: otherId });
    if (other.id === principal.user.id) throw ApiError.of('INVALID_RECIPIENT', 'You cannot block yourself.');
    await block(new RelationshipWriter(tx, emit, ctx.clock.now()), principal.user.id, other.id);
  });
}

/**
 * `DELETE /users/@me/relationships/{id}` (or `game-relationships`): removes a friend, cancels
 * or rejects a request (both sides go), or lifts a block (only the block goes). Nothing to
 * remove is not an error.
 */
export async function removeRelationship(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  otherId: string,
  game: boolean,
): Promise<void> {
  const me = principal.user.id;
  const scope = callerScope(principal, game);
  await write(ctx, RELATIONSHIP_STORES, async (tx, emit) => {
    const writer = new RelationshipWriter(tx, emit, ctx.clock.now());
    const mine = await writer.get(me, scope, otherId);
    if (!mine) return;
    await writer.clear(me, scope, otherId);
    if (
      mine.type !== RELATIONSHIP_TYPE.BLOCKED &&
      (await writer.get(otherId, scope, me))?.type !== RELATIONSHIP_TYPE.BLOCKED
    ) {
      await writer.clear(otherId, scope, me);
    }
  });
}

/**
 * `PUT /sandbox/users/{id}/relationships/{other_id}`: sets a pair directly, with the same
 * events and invariants as the user routes. `type` is `userId`'s side: 0 none (both sides go),
 * 1 friends, 2 `userId` blocks, 3 an incoming request (the other asked), 4 an outgoing one.
 * With `applicationId` it is their game relationship in that application (no blocks there).
 * Resolves to both sides as their users see them (null for none).
 */
export async function sandboxSetRelationship(
  ctx: PlatformContext,
  input: { userId: string; otherId: string; type: 0 | StoredRelationshipType; applicationId: string | null },
) {
  const scope = input.applicationId ?? PLATFORM_SCOPE;
  return write(ctx, RELATIONSHIP_STORES, async (tx, emit) => {
    const [user, other] = await Promise.all([
      resolveTarget(tx, { id: input.userId }),
      resolveTarget(tx, { id: input.otherId }),
    ]);
    if (user.id === other.id) throw ApiError.invalidForm({ other_id: 'A relationship needs two different users.' });
    if (input.applicationId !== null && !(await tx.store('applications').getKey(input.applicationId)))
      throw ApiError.of('UNKNOWN_APPLICATION');
    if (scope !== PLATFORM_SCOPE && input.type === RELATIONSHIP_TYPE.BLOCKED)
      throw ApiError.invalidForm({ type: 'Blocks are platform-wide: leave application_id out.' });
    if (
      scope === PLATFORM_SCOPE &&
      input.type !== RELATIONSHIP_TYPE.BLOCKED &&
      input.type !== 0 &&
      (user.provisional || other.provisional)
    ) {
      throw ApiError.of('INVALID_USER_TYPE', 'Provisional accounts have game friends only: give application_id.');
    }
    const writer = new RelationshipWriter(tx, emit, ctx.clock.now());
    const mirror: Record<number, StoredRelationshipType> = {
      3: RELATIONSHIP_TYPE.PENDING_OUTGOING,
      4: RELATIONSHIP_TYPE.PENDING_INCOMING,
    };
    if (input.type === 0) {
      await writer.clear(user.id, scope, other.id);
      await writer.clear(other.id, scope, user.id);
    } else if (input.type === RELATIONSHIP_TYPE.BLOCKED) await block(writer, user.id, other.id);
    else if (input.type === RELATIONSHIP_TYPE.FRIEND) await befriend(writer, scope, user.id, other.id);
    else {
      await writer.set(user.id, scope, other.id, input.type);
      await writer.set(other.id, scope, user.id, mirror[input.type]);
    }
    const [mine, theirs] = await Promise.all([
      writer.get(user.id, scope, other.id),
      writer.get(other.id, scope, user.id),
    ]);
    return {
      relationship: mine ? serializeAnyRelationship(mine, other) : null,
      other_relationship: theirs ? serializeAnyRelationship(theirs, user) : null,
    };
  });
}
