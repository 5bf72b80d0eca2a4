/**
 * A user's connections to other services (`GET /users/@me/connections`, scope `connections`),
 * with the spec's rules for the two game-publisher kinds: `game_studio_account` (a game
 * studio's account service) and `game_network_account` (a game network's account service).
 * A connection of either kind made since the platform stopped returning them is never
 * returned; legacy ones stop being returned on their dates, by the platform clock
 * (`RULE_DATES.STUDIO_CONNECTIONS_HIDDEN`, `RULE_DATES.NETWORK_CONNECTIONS_HIDDEN`). Nothing
 * replaces them.
 */
import { write } from '../../store/write';
import type { ConnectionRecord } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { inForce, RULE_DATES } from '../core/dates';
import { ApiError } from '../core/errors';
import { keyRange } from '../../store/port';

/** The game-publisher connection kinds and the date from which their legacy connections are hidden. */
export const PUBLISHER_CONNECTION_TYPES = {
  game_studio_account: RULE_DATES.STUDIO_CONNECTIONS_HIDDEN,
  game_network_account: RULE_DATES.NETWORK_CONNECTIONS_HIDDEN,
} as const;

/** Connection types the sandbox can create: common services and the two publisher kinds. */
export const CONNECTION_TYPES = [
  'battlenet',
  'bluesky',
  'bungie',
  'crunchyroll',
  'domain',
  'ebay',
  'epicgames',
  'facebook',
  'github',
  'instagram',
  'mastodon',
  'paypal',
  'playstation',
  'reddit',
  'roblox',
  'spotify',
  'steam',
  'tiktok',
  'twitch',
  'twitter',
  'xbox',
  'youtube',
  ...(Object.keys(PUBLISHER_CONNECTION_TYPES) as (keyof typeof PUBLISHER_CONNECTION_TYPES)[]),
] as const;

/** A connection type. */
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

/**
 * Whether `GET /users/@me/connections` returns the connection at `now`.
 * @example isConnectionReturned({ type: 'game_network_account', legacy: true }, Date.parse('2026-09-21T23:59:59Z')) // true
 */
export function isConnectionReturned(connection: Pick<ConnectionRecord, 'type' | 'legacy'>, now: number): boolean {
  if (!Object.hasOwn(PUBLISHER_CONNECTION_TYPES, connection.type)) return true;
  if (!connection.legacy) return false;
  return !inForce(PUBLISHER_CONNECTION_TYPES[connection.type as keyof typeof PUBLISHER_CONNECTION_TYPES], now);
}

/** The connection object on the wire. */
export function serializeConnection(connection: ConnectionRecord) {
  return {
    id: connection.id,
    name: connection.name,
    type: connection.type,
    verified: connection.verified,
    revoked: false,
    friend_sync: false,
    show_activity: true,
    two_way_link: false,
    visibility: connection.visibility,
    integrations: [],
  };
}

/** The connections of `userId` that are returned now, oldest first. */
export async function listConnections(ctx: PlatformContext, userId: string) {
  const all = await ctx.db.getAll('connections', keyRange.bound([userId], [userId, []]));
  const now = ctx.clock.now();
  return all
    .filter((c) => isConnectionReturned(c, now))
    .sort((a, b) => a.created_at - b.created_at)
    .map(serializeConnection);
}

/**
 * The sandbox adds a connection to a user's account. `legacy` marks a connection made before
 * the platform stopped returning new game-publisher connections.
 * @example await addConnection(ctx, userId, { type: 'steam', name: 'nova' });
 */
export async function addConnection(
  ctx: PlatformContext,
  userId: string,
  input: { type: ConnectionType; name: string; id?: string; verified?: boolean; visibility?: 0 | 1; legacy?: boolean },
): Promise<ConnectionRecord> {
  const record: ConnectionRecord = {
    user_id: userId,
    id: input.id ?? ctx.ids.next(),
    type: input.type,
    name: input.name,
    verified: input.verified ?? true,
    visibility: input.visibility ?? 1,
    legacy: input.legacy ?? false,
    created_at: ctx.clock.now(),
  };
  await write(ctx, ['users', 'connections'], async (tx) => {
    const user = await tx.store('users').get(userId);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    if (user.bot) throw ApiError.of('INVALID_ACCOUNT_TYPE', 'Bots have no connections.');
    if (await tx.store('connections').getKey([userId, record.id]))
      throw ApiError.invalidForm({ id: 'This user already has a connection with this id.' });
    await tx.store('connections').add(record);
  });
  return record;
}
