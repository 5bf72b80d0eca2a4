/**
 * The demo's world: the ids (and the simulated client's own tokens) of the data the first
 * visit seeded. The record is kept in IndexedDB (`world-store.ts`) as a pointer only: the
 * platform's data is the truth, so a record whose users the platform no longer knows (a reset)
 * is thrown away and the world seeded again.
 */

/** A simulated user and the client's token for them. */
export interface WorldUser {
  id: string;
  username: string;
  global_name: string;
  /** The client's OAuth2 access token (application {@link DemoWorld.client}). */
  token: string;
}

/** Everything the shell needs to find the seeded data again. */
export interface DemoWorld {
  version: typeof WORLD_VERSION;
  users: WorldUser[];
  /** The application the simulated client's tokens belong to. */
  client: { application_id: string };
  /** The sample activity's application and its bot. */
  game: { application_id: string; name: string; bot_user_id: string; bot_token: string };
  guild: { id: string; name: string };
  roles: { moderators: string; bots: string };
  channels: { general: string; staff: string; gameRoom: string };
  lobby: { id: string; secret: string };
}

/** Bumped when the shape or the seeded data changes, so an old record is seeded afresh. */
export const WORLD_VERSION = 3;

/** Scopes of the simulated client's tokens: guilds and members for its gateway, channel messages, the social layer for lobbies. */
export const CLIENT_SCOPES = 'identify guilds guilds.members.read messages.read messages.write sdk.social_layer';

/**
 * The user `as` names (a username or an id); the first user when `as` is absent or empty; null
 * when it names nobody of this world (the page then says so rather than open as someone else).
 * @example pickUser(world, new URLSearchParams(location.search).get('as'))
 */
export function pickUser(world: DemoWorld, as: string | null): WorldUser | null {
  const wanted = as?.trim().toLowerCase();
  if (!wanted) return world.users[0];
  return world.users.find((u) => u.username === wanted || u.id === wanted) ?? null;
}

/** The user's display name. */
export function displayName(user: { username: string; global_name?: string | null }): string {
  return user.global_name || user.username;
}
