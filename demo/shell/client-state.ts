/**
 * What the simulated client knows, kept current by its gateway session's dispatches (READY,
 * GUILD_CREATE, member, channel, role, presence, message and lobby events) and by the history
 * reads the shell makes over HTTP. A plain store: `apply(type, data)` changes it and fires
 * `change`.
 */
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

type Data = Record<string, any>;

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
 * session = new GatewaySession({ ..., onDispatch: (t, d) => state.apply(t, d) });
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

  /** Applies one gateway dispatch. */
  apply(type: string, d: Data): void {
    switch (type) {
      case 'READY':
        this.me = d.user;
        this.#user(d.user);
        // A new session: what the platform now says replaces what an earlier one heard.
        this.presences.clear();
        for (const p of d.presences ?? []) this.#presence(p);
        break;
      case 'GUILD_CREATE':
        this.guilds.set(d.id, {
          id: d.id,
          name: d.name,
          owner_id: d.owner_id,
          roles: new Map((d.roles ?? []).map((r: WireRole) => [r.id, r])),
          channels: new Map((d.channels ?? []).map((c: WireChannel) => [c.id, c])),
          members: new Map((d.members ?? []).map((m: WireMember) => [m.user.id, m])),
        });
        for (const m of d.members ?? []) this.#user(m.user);
        for (const p of d.presences ?? []) this.#presence(p);
        break;
      case 'GUILD_MEMBERS_CHUNK':
        for (const m of d.members ?? []) this.#member(d.guild_id, m);
        for (const p of d.presences ?? []) this.#presence(p);
        break;
      case 'GUILD_MEMBER_ADD':
      case 'GUILD_MEMBER_UPDATE':
        this.#member(d.guild_id, d as WireMember);
        break;
      case 'GUILD_MEMBER_REMOVE':
        this.guilds.get(d.guild_id)?.members.delete(d.user.id);
        break;
      case 'CHANNEL_CREATE':
      case 'CHANNEL_UPDATE':
        this.guilds.get(d.guild_id)?.channels.set(d.id, d as WireChannel);
        break;
      case 'CHANNEL_DELETE':
        this.guilds.get(d.guild_id)?.channels.delete(d.id);
        break;
      case 'GUILD_ROLE_CREATE':
      case 'GUILD_ROLE_UPDATE':
        this.guilds.get(d.guild_id)?.roles.set(d.role.id, d.role);
        break;
      case 'GUILD_ROLE_DELETE':
        this.guilds.get(d.guild_id)?.roles.delete(d.role_id);
        break;
      case 'PRESENCE_UPDATE':
        this.#presence(d);
        break;
      case 'LOBBY_CREATE':
      case 'LOBBY_UPDATE':
        this.setLobby(d as WireLobby);
        return;
      case 'LOBBY_DELETE':
        this.lobbies.delete(d.id);
        break;
      case 'LOBBY_MEMBER_ADD':
      case 'LOBBY_MEMBER_UPDATE':
      case 'LOBBY_MEMBER_REMOVE':
        this.#lobbyMember(type, d.lobby_id, d.member);
        break;
      case 'LOBBY_MESSAGE_CREATE':
        this.addMessages(d.lobby_id, [d as WireMessage]);
        return;
      case 'MESSAGE_CREATE':
      case 'MESSAGE_UPDATE':
        // An update may carry only what changed: merge it into what the client has.
        this.addChannelMessages(d.channel_id, [
          { ...this.channelMessages.get(d.channel_id)?.find((m) => m.id === d.id), ...d } as WireMessage,
        ]);
        return;
      case 'MESSAGE_DELETE':
        this.channelMessages.set(
          d.channel_id,
          (this.channelMessages.get(d.channel_id) ?? []).filter((m) => m.id !== d.id),
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

  #presence(d: Data): void {
    if (d.user?.id) this.presences.set(d.user.id, { status: d.status, activities: d.activities ?? [] });
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
