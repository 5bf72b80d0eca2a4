/**
 * What the simulated client knows, kept current by its gateway session's dispatches (READY,
 * GUILD_CREATE, member, channel, role, presence, message and lobby events) and by the history
 * reads the shell makes over HTTP. A plain store: `apply(dispatch)` changes it and fires
 * `change`.
 */
import type { GatewayDispatch } from '../../src/gateway/protocol';
import type { GuildMessageEvent } from '../../src/store/records/dispatches';
import type { WirePresence } from '../../src/store/records/presence';
import type {
  GuildState,
  Presence,
  WireChannel,
  WireLobby,
  WireLobbyMember,
  WireMember,
  WireMessage,
  WireRole,
  WireUser,
} from './wire';

export type {
  GuildState,
  Presence,
  PresenceActivity,
  WireChannel,
  WireLobby,
  WireLobbyMember,
  WireMember,
  WireMessage,
  WireOverwrite,
  WireRole,
  WireUser,
} from './wire';

/** Ids are snowflakes: longer is later, then string order. */
const byId = (a: { id: string }, b: { id: string }) =>
  a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** `known` and `messages` together, each id once (the newer copy), oldest first. */
function merged(known: WireMessage[] = [], messages: WireMessage[]): WireMessage[] {
  const byKey = new Map(known.map((m) => [m.id, m]));
  for (const m of messages) byKey.set(m.id, m);
  return [...byKey.values()].sort(byId);
}

/**
 * The client's state.
 * @example
 * const state = new ClientState();
 * session = new GatewaySession({ ..., onDispatch: (dispatch) => state.apply(dispatch) });
 * state.addEventListener('change', () => render());
 */
export class ClientState extends EventTarget {
  me: WireUser | null = null;
  readonly guilds = new Map<string, GuildState>();
  readonly presences = new Map<string, Presence>();
  readonly lobbies = new Map<string, WireLobby>();
  /** Each lobby's messages, oldest first. */
  readonly messages = new Map<string, WireMessage[]>();
  /** Each guild channel's messages the client has read or heard of, oldest first. */
  readonly channelMessages = new Map<string, WireMessage[]>();
  /** Every user the client has heard of. */
  readonly users = new Map<string, WireUser>();

  /** Applies one gateway dispatch, its payload typed by its name. */
  apply(dispatch: GatewayDispatch): void {
    switch (dispatch.t) {
      case 'READY': {
        const { user, presences } = dispatch.d;
        this.me = user;
        this.#user(user);
        // A new session: what the platform now says replaces what an earlier one heard.
        this.presences.clear();
        for (const p of presences ?? []) this.#presence(p);
        break;
      }
      case 'GUILD_CREATE': {
        const guild = dispatch.d;
        this.guilds.set(guild.id, {
          id: guild.id,
          name: guild.name,
          owner_id: guild.owner_id,
          roles: new Map((guild.roles ?? []).map((r) => [r.id, r])),
          channels: new Map((guild.channels ?? []).map((c) => [c.id, c])),
          members: new Map((guild.members ?? []).map((m) => [m.user.id, m])),
        });
        for (const m of guild.members ?? []) this.#user(m.user);
        for (const p of guild.presences ?? []) this.#presence(p);
        break;
      }
      case 'GUILD_MEMBERS_CHUNK':
        for (const m of dispatch.d.members ?? []) this.#member(dispatch.d.guild_id, m);
        for (const p of dispatch.d.presences ?? []) this.#presence(p);
        break;
      case 'GUILD_MEMBER_ADD':
      case 'GUILD_MEMBER_UPDATE':
        this.#member(dispatch.d.guild_id, dispatch.d);
        break;
      case 'GUILD_MEMBER_REMOVE':
        this.guilds.get(dispatch.d.guild_id)?.members.delete(dispatch.d.user.id);
        break;
      case 'CHANNEL_CREATE':
      case 'CHANNEL_UPDATE': {
        // A DM channel has no guild: nothing of the guild list changes.
        const channel = dispatch.d;
        if ('guild_id' in channel && channel.guild_id)
          this.guilds.get(channel.guild_id)?.channels.set(channel.id, channel);
        break;
      }
      case 'CHANNEL_DELETE':
        if (dispatch.d.guild_id) this.guilds.get(dispatch.d.guild_id)?.channels.delete(dispatch.d.id);
        break;
      case 'GUILD_ROLE_CREATE':
      case 'GUILD_ROLE_UPDATE':
        this.guilds.get(dispatch.d.guild_id)?.roles.set(dispatch.d.role.id, dispatch.d.role);
        break;
      case 'GUILD_ROLE_DELETE':
        this.guilds.get(dispatch.d.guild_id)?.roles.delete(dispatch.d.role_id);
        break;
      case 'PRESENCE_UPDATE':
        this.#presence(dispatch.d);
        break;
      case 'LOBBY_CREATE':
      case 'LOBBY_UPDATE':
        this.setLobby(dispatch.d);
        return;
      case 'LOBBY_DELETE':
        this.lobbies.delete(dispatch.d.id);
        break;
      case 'LOBBY_MEMBER_ADD':
      case 'LOBBY_MEMBER_UPDATE':
      case 'LOBBY_MEMBER_REMOVE':
        this.#lobbyMember(dispatch.t, dispatch.d.lobby_id, dispatch.d.member);
        break;
      case 'LOBBY_MESSAGE_CREATE':
        if (dispatch.d.lobby_id) this.addMessages(dispatch.d.lobby_id, [dispatch.d]);
        return;
      case 'MESSAGE_CREATE':
      case 'MESSAGE_UPDATE': {
        // The client's user session hears guild channel messages; an update may carry only what
        // changed: merge it into what the client has.
        const message = dispatch.d as GuildMessageEvent;
        this.addChannelMessages(message.channel_id, [
          { ...this.channelMessages.get(message.channel_id)?.find((m) => m.id === message.id), ...message },
        ]);
        return;
      }
      case 'MESSAGE_DELETE':
        this.channelMessages.set(
          dispatch.d.channel_id,
          (this.channelMessages.get(dispatch.d.channel_id) ?? []).filter((m) => m.id !== dispatch.d.id),
        );
        break;
      default:
        return;
    }
    this.changed();
  }

  /** Adds or replaces a lobby (from `PUT /lobbies` or `GET /lobbies/{id}`). */
  setLobby(lobby: WireLobby): void {
    this.lobbies.set(lobby.id, {
      id: lobby.id,
      application_id: lobby.application_id,
      metadata: lobby.metadata,
      members: lobby.members,
    });
    this.changed();
  }

  /** Forgets a lobby the user left or lost. */
  dropLobby(lobbyId: string): void {
    this.lobbies.delete(lobbyId);
    this.messages.delete(lobbyId);
    this.changed();
  }

  /** Merges messages into a lobby's history (from the history read or the gateway), without duplicates. */
  addMessages(lobbyId: string, messages: WireMessage[]): void {
    this.messages.set(lobbyId, merged(this.messages.get(lobbyId), messages));
    for (const m of messages) this.#user(m.author);
    this.changed();
  }

  /** Merges messages into a guild channel's history, without duplicates. */
  addChannelMessages(channelId: string, messages: WireMessage[]): void {
    this.channelMessages.set(channelId, merged(this.channelMessages.get(channelId), messages));
    for (const m of messages) this.#user(m.author);
    this.changed();
  }

  /** Remembers a user (e.g. read from `/sandbox/users/{id}`). */
  rememberUser(user: WireUser): void {
    this.#user(user);
    this.changed();
  }

  /** Fires `change`. */
  changed(): void {
    this.dispatchEvent(new Event('change'));
  }

  #user(user: WireUser | undefined): void {
    if (user?.id) this.users.set(user.id, { ...this.users.get(user.id), ...user });
  }

  #member(guildId: string, member: WireMember): void {
    this.guilds
      .get(guildId)
      ?.members.set(member.user.id, { user: member.user, nick: member.nick, roles: member.roles });
    this.#user(member.user);
  }

  #presence(presence: WirePresence): void {
    if (presence.user?.id)
      this.presences.set(presence.user.id, { status: presence.status, activities: presence.activities ?? [] });
  }

  #lobbyMember(type: string, lobbyId: string, member: WireLobbyMember): void {
    const lobby = this.lobbies.get(lobbyId);
    if (type === 'LOBBY_MEMBER_REMOVE' && member.id === this.me?.id) {
      this.lobbies.delete(lobbyId);
      return;
    }
    if (!lobby) return;
    const others = lobby.members.filter((m) => m.id !== member.id);
    lobby.members = type === 'LOBBY_MEMBER_REMOVE' ? others : [...others, member];
  }
}
