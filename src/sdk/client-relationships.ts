/**
 * Relationships in the game SDK: the operations over `/users/@me/relationships` and
 * `/users/@me/game-relationships`, kept in step with the cache behind `getRelationshipHandle`
 * (`relationship-cache.ts`, which also names `RelationshipType` and `RelationshipHandle`).
 * Accept, reject, cancel, unblock and the removals read the relationship first: each is
 * refused with a ValidationError (nothing changed) when there is no such request or block, so a
 * stale button can never turn a "reject" into removing a friend.
 */
import type { GameRelationship, Relationship } from '../store/records/relationships';
import { RelationshipType, type RelationshipHandle } from './relationship-cache';
import type { SocialContext } from './client-social';
import { SdkError } from './errors';
import type { User } from './types';

export { RelationshipType, type RelationshipHandle } from './relationship-cache';

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
