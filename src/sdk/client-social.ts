/**
 * The social operations of the client over the HTTP API: lobbies (create or join by secret,
 * leave, send, read history), rich presence, and guild channels. Arguments are checked before
 * anything is sent, so a mistake comes back as a ValidationError naming the argument; the
 * platform checks the rest (membership, scopes, sizes) and its refusals say what was wrong.
 */
import { LOBBY_MESSAGES_HISTORY_HOURS, LOBBY_MESSAGES_MAX } from '../platform/core/limits';
import type { ClientEvents } from './client-events';
import { SdkError } from './errors';
import type { SdkHttp } from './http';
import type { GuildChannel, Lobby, LobbyMessage, Metadata, RichPresenceActivity, StoredActivity } from './types';

/** What the social operations need of the client. */
export interface SocialContext {
  http: SdkHttp;
  events: ClientEvents;
}

const SNOWFLAKE = /^\d{1,20}$/;

function id(value: unknown, name: string): string {
  if (typeof value !== 'string' || !SNOWFLAKE.test(value))
    throw SdkError.validation(`${name} must be an id (a snowflake string).`);
  return value;
}

function metadata(value: unknown, name: string): Metadata | undefined {
  if (value === undefined) return undefined;
  const ok =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string');
  if (!ok) throw SdkError.validation(`${name} must be a dictionary of strings.`);
  return value as Metadata;
}

/** `PUT /lobbies`: joins the application's lobby with this secret, creating it when there is none. */
export async function createOrJoinLobby(
  ctx: SocialContext,
  secret: string,
  lobbyMetadata?: Metadata,
  memberMetadata?: Metadata,
): Promise<Lobby> {
  if (typeof secret !== 'string' || secret === '')
    throw SdkError.validation('createOrJoinLobby() needs the lobby secret (a non-empty string).');
  const body = {
    secret,
    lobby_metadata: metadata(lobbyMetadata, 'lobbyMetadata'),
    member_metadata: metadata(memberMetadata, 'memberMetadata'),
  };
  const lobby = await ctx.http.call<Lobby>('PUT', '/lobbies', { body });
  ctx.events.rememberLobby(lobby);
  return lobby;
}

/** `DELETE /lobbies/{id}/members/@me`: the current user leaves the lobby. */
export async function leaveLobby(ctx: SocialContext, lobbyId: string): Promise<void> {
  await ctx.http.call('DELETE', `/lobbies/${id(lobbyId, 'lobbyId')}/members/@me`);
  ctx.events.lobbies.delete(lobbyId);
}

/** `POST /lobbies/{id}/messages`: a message from the current user to every member. */
export async function sendLobbyMessage(
  ctx: SocialContext,
  lobbyId: string,
  content: string,
  messageMetadata?: Metadata,
): Promise<LobbyMessage> {
  if (typeof content !== 'string' || content === '')
    throw SdkError.validation('sendLobbyMessage() needs the message content (a non-empty string).');
  const body = { content, metadata: metadata(messageMetadata, 'metadata') };
  return ctx.http.call<LobbyMessage>('POST', `/lobbies/${id(lobbyId, 'lobbyId')}/messages`, { body });
}

/**
 * `GET /lobbies/{id}/messages`: the newest `limit` messages of the last 72 hours, newest first,
 * of a lobby the user is a member of (spec, Limits: at most 200 messages, up to 72 hours). The
 * route answers the newest messages however old; the window is the SDK's, judged by each
 * message's `timestamp` against the platform's clock as the answer states it (its `Date`
 * header, to the second; this machine's clock if it has none). A limit outside 1-200 is refused
 * here, before any request, so the caller learns the bound instead of silently getting fewer.
 */
export async function getLobbyMessagesWithLimit(
  ctx: SocialContext,
  lobbyId: string,
  limit: number,
): Promise<LobbyMessage[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > LOBBY_MESSAGES_MAX) {
    throw SdkError.validation(
      `getLobbyMessagesWithLimit() takes a limit from 1 to ${LOBBY_MESSAGES_MAX}: it returns at most ${LOBBY_MESSAGES_MAX} messages from the last ${LOBBY_MESSAGES_HISTORY_HOURS} hours.`,
    );
  }
  const { body, date } = await ctx.http.dated<LobbyMessage[]>('GET', `/lobbies/${id(lobbyId, 'lobbyId')}/messages`, {
    query: { limit },
  });
  const oldest = (date ?? Date.now()) - LOBBY_MESSAGES_HISTORY_HOURS * 3_600_000;
  // Newest first: the first message older than the window ends it.
  const recent = body.findIndex((message) => Date.parse(message.timestamp) < oldest);
  return recent === -1 ? body : body.slice(0, recent);
}

/** `PUT /users/@me/activities`: the user's rich presence for this application (null clears it). */
export async function updateRichPresence(
  ctx: SocialContext,
  activity: RichPresenceActivity | null,
): Promise<StoredActivity | null> {
  if (activity !== null && (typeof activity !== 'object' || Array.isArray(activity))) {
    throw SdkError.validation('updateRichPresence() takes an activity object (or null to clear it).');
  }
  return (
    await ctx.http.call<{ activity: StoredActivity | null }>('PUT', '/users/@me/activities', { body: { activity } })
  ).activity;
}

/** `GET /guilds/{id}/channels`: the guild's channels the user can see (needs the `guilds` scope). */
export async function getGuildChannels(ctx: SocialContext, guildId: string): Promise<GuildChannel[]> {
  return ctx.http.call<GuildChannel[]>('GET', `/guilds/${id(guildId, 'guildId')}/channels`);
}
