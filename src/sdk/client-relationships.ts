/**
 * Relationships in the game SDK, named as the platform SDK names them: `RelationshipType`,
 * `RelationshipHandle` (the platform-wide and the game relationship with one user, side by
 * side), the cache behind `getRelationshipHandle` that gateway events keep current, and the
 * operations over `/users/@me/relationships` and `/users/@me/game-relationships`.
 * Accept, reject, cancel, unblock and the removals read the relationship first: each is
 * refused with a ValidationError (nothing changed) when there is no such request or block, so a
 * stale button can never turn a "reject" into removing a friend.
 */
import type { GameRelationship, Relationship } from '../store/records/relationships';
import type { SocialContext } from './client-social';
import { SdkError } from './errors';
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

const SNOWFLAKE = /^\d{1,20}$/;

function userId(value: unknown): string {
  if (typeof value !== 'string' || !SNOWFLAKE.test(value))
    throw SdkError.validation('userId must be a user id (a snowflake string).');
  return value;
}

function username(value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw SdkError.validation('The friend request needs a username (a non-empty string).');
  return value;
}

const path = (game: boolean) => (game ? '/users/@me/game-relationships' : '/users/@me/relationships');

/** `GET` both lists: every relationship of the current user, and the cache filled with them. */
export async function getRelationships(ctx: SocialContext): Promise<RelationshipHandle[]> {
  const [platform, game] = await Promise.all([
    ctx.http.call<Relationship[]>('GET', path(false)),
    ctx.http.call<GameRelationship[]>('GET', path(true)),
  ]);
  ctx.events.relationships.replace(platform, game);
  return ctx.events.relationships.all();
}

/** Sends (or accepts) a friend request by id: platform-wide, or in this game when `game`. */
export async function sendFriendRequestById(ctx: SocialContext, id: string, game: boolean): Promise<void> {
  await ctx.http.call('PUT', `${path(game)}/${userId(id)}`, { body: {} });
}

/** Sends (or accepts) a friend request by username. */
export async function sendFriendRequestByName(ctx: SocialContext, name: string, game: boolean): Promise<void> {
  await ctx.http.call('POST', path(game), { body: { username: username(name) } });
}

/**
 * The type the current user holds towards `id` on one side, read afresh (which refreshes the
 * cache too): an event still on its way must not make a check answer from the past.
 */
async function currentType(ctx: SocialContext, id: string, game: boolean): Promise<RelationshipType> {
  await getRelationships(ctx);
  const handle = ctx.events.relationships.get(id);
  return (game ? handle?.gameRelationshipType : handle?.discordRelationshipType) ?? RelationshipType.None;
}

/**
 * A change that only makes sense from one type (accept and reject need an incoming request,
 * cancel an outgoing one, unblock a block): refused with a ValidationError otherwise.
 */
export async function changeFrom(
  ctx: SocialContext,
  id: string,
  game: boolean,
  from: RelationshipType,
  action: 'accept' | 'remove',
  what: string,
): Promise<void> {
  const checked = userId(id);
  if ((await currentType(ctx, checked, game)) !== from)
    throw SdkError.validation(`${what}: there is none with user ${checked}.`);
  if (action === 'accept') await ctx.http.call('PUT', `${path(game)}/${checked}`, { body: {} });
  else await ctx.http.call('DELETE', `${path(game)}/${checked}`);
}

/**
 * Ends the game friendship and, with `platformToo`, the platform-wide one: only friendships, so
 * a pending request or a block is left as it is. Nothing to end is not an error.
 */
export async function removeFriend(ctx: SocialContext, id: string, platformToo: boolean): Promise<void> {
  const checked = userId(id);
  if ((await currentType(ctx, checked, true)) === RelationshipType.Friend)
    await ctx.http.call('DELETE', `${path(true)}/${checked}`);
  if (platformToo && (await currentType(ctx, checked, false)) === RelationshipType.Friend)
    await ctx.http.call('DELETE', `${path(false)}/${checked}`);
}

/** Blocks the user everywhere (it ends every relationship with them). */
export async function blockUser(ctx: SocialContext, id: string): Promise<void> {
  await ctx.http.call('PUT', `${path(false)}/${userId(id)}`, { body: { type: RelationshipType.Blocked } });
}
