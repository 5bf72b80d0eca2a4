/**
 * The people an activity's user knows, as the platform's client answers GET_RELATIONSHIPS and
 * GET_USER. Users come in the RPC's user shape (the public embedded-app SDK's `User`: `flags`
 * always a number); a friend's relationship carries their presence, with their first activity,
 * in the SDK's shape (no null fields, no join secrets: those are for the friend's own game).
 */
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import type { UserRecord } from '../../store/records/core';
import { serializeUser } from '../accounts/users';
import { shownPresence } from '../presence/shown';
import { type GatewayActivity, type PresenceActivity, type PresenceRecord } from '../../store/records/presence';
import { PLATFORM_SCOPE, RELATIONSHIP_TYPE } from '../../store/records/relationships';
import { scopeRange } from '../relationships/store';
import { keyRange } from '../../store/port';

/** A user as the RPC answers it. */
export interface RpcUserView {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  flags: number;
  bot: boolean;
  premium_type: number | null;
}

/** `user` as the RPC answers it to `viewer` (premium type as the spec's User.premium_type rule says). */
export function rpcUserView(user: UserRecord, viewer: BearerPrincipal): RpcUserView {
  const wire = serializeUser(user, viewer);
  return {
    id: wire.id,
    username: wire.username,
    global_name: wire.global_name,
    discriminator: wire.discriminator,
    avatar: wire.avatar,
    flags: 0,
    bot: wire.bot === true,
    premium_type: wire.premium_type ?? 0,
  };
}

/** The fields of `value` that are set (the SDK's schemas take absent, not null). */
function present<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** An activity in the SDK's relationship presence shape. */
function rpcActivity(activity: PresenceActivity | GatewayActivity) {
  const rich = activity as Partial<PresenceActivity>;
  const assets = rich.assets ? present(rich.assets) : undefined;
  const party = rich.party ? present(rich.party) : undefined;
  return present({
    name: activity.name,
    type: activity.type,
    created_at: activity.created_at,
    application_id: rich.application_id,
    state: rich.state,
    state_url: rich.state_url,
    details: rich.details,
    details_url: rich.details_url,
    status_display_type: rich.status_display_type,
    timestamps: rich.timestamps ? present(rich.timestamps) : undefined,
    assets: assets && Object.keys(assets).length > 0 ? assets : undefined,
    party:
      party && (party.id !== undefined || party.size?.length === 2)
        ? present({ id: party.id, size: party.size?.length === 2 ? party.size : undefined })
        : undefined,
    instance: rich.instance,
  });
}

/** A friend's presence: their status and the first activity they show. */
function rpcPresence(record: PresenceRecord | undefined) {
  const shown = shownPresence(record);
  const [first] = shown.activities;
  return first ? { status: shown.status, activity: rpcActivity(first) } : { status: shown.status };
}

/**
 * GET_RELATIONSHIPS: the user's platform-wide relationships (friends, requests, blocks), each
 * with the other user; friends also with their presence.
 * @example const { relationships } = await rpcRelationships(ctx, principal);
 */
export async function rpcRelationships(ctx: PlatformContext, principal: BearerPrincipal) {
  const tx = ctx.db.read(['relationships', 'users', 'presences']);
  const records = await tx.store('relationships').getAll(scopeRange(principal.user.id, PLATFORM_SCOPE));
  const rows = await Promise.all(
    records.map(async (record) => ({
      record,
      user: await tx.store('users').get(record.other_id),
      presence: record.type === RELATIONSHIP_TYPE.FRIEND ? await tx.store('presences').get(record.other_id) : undefined,
    })),
  );
  return {
    relationships: rows.flatMap(({ record, user, presence }) =>
      user
        ? [
            {
              type: record.type,
              user: rpcUserView(user, principal),
              ...(record.type === RELATIONSHIP_TYPE.FRIEND ? { presence: rpcPresence(presence) } : {}),
            },
          ]
        : [],
    ),
  };
}

/** True when `viewerId` knows `userId` the way the client does: a relationship, a guild or a lobby in common. */
async function knows(ctx: PlatformContext, viewerId: string, userId: string): Promise<boolean> {
  if (viewerId === userId) return true;
  const tx = ctx.db.read(['relationships', 'members', 'lobby_members']);
  const pairs = await Promise.all([
    tx.store('relationships').index('by_pair').count([viewerId, userId]),
    tx.store('relationships').index('by_pair').count([userId, viewerId]),
  ]);
  if (pairs.some((n) => n > 0)) return true;
  const [mine, theirs] = await Promise.all(
    [viewerId, userId].map((id) => tx.store('members').index('by_user').getAllKeys(id)),
  );
  const guilds = new Set(mine.map(([guildId]) => guildId));
  if (theirs.some(([guildId]) => guilds.has(guildId))) return true;
  const lobbiesOf = (id: string) =>
    tx
      .store('lobby_members')
      .index('by_user_application')
      .getAllKeys(keyRange.bound([id, ''], [id, '\uffff']));
  const [myLobbies, theirLobbies] = await Promise.all([lobbiesOf(viewerId), lobbiesOf(userId)]);
  const lobbies = new Set(myLobbies.map(([lobbyId]) => lobbyId));
  return theirLobbies.some(([lobbyId]) => lobbies.has(lobbyId));
}

/**
 * GET_USER: a user the client knows (the user, someone they have a relationship with or share
 * a guild or a lobby with), or null, as the client answers for anyone else (and any id that
 * names nobody).
 */
export async function rpcUser(ctx: PlatformContext, principal: BearerPrincipal, id: string) {
  if (!/^\d{1,20}$/.test(id)) return null;
  const user = await ctx.db.get('users', id);
  if (!user || !(await knows(ctx, principal.user.id, id))) return null;
  return rpcUserView(user, principal);
}
