/**
 * What the simulated client knows, kept current by its gateway session's dispatches (READY,
 * GUILD_CREATE, member, channel, role, presence, voice state of guild channels and lobby calls,
 * typing, message and lobby events) and by the history reads the shell makes over HTTP. A plain
 * store: `apply(type, data)` changes it and fires `change`.
 */
import { applyGuildEvent } from './guild-events';
import { TypingTracker } from './typing-tracker';
import { VoiceStates } from './voice-states';
import type {
  GuildState,
  Presence,
  WireDmChannel,
  WireLobby,
  WireLobbyMember,
  WireMessage,
  WireUser,
  WireVoiceState,
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
  WireVoiceState,
  WireDmChannel,
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
  /** Who is in which voice channel and lobby call. */
  readonly voiceStates = new VoiceStates();
  /** The user's DM channels: channel id → the other user's id. */
  readonly dmChannels = new Map<string, string>();
  /** Who is typing where (TYPING_START). */
  readonly typing = new TypingTracker();

  constructor() {
    super();
    this.typing.addEventListener('change', () => this.changed());
  }

  /** Applies one gateway dispatch. */
  apply(type: string, d: Data): void {
    // A DM channel is no guild's; every other channel event is.
    if (!(type.startsWith('CHANNEL_') && d.type === 1) && applyGuildEvent(this.guilds, type, d, (u) => this.#user(u))) {
      for (const p of d.presences ?? []) this.#presence(p);
      if (type === 'GUILD_CREATE') for (const v of d.voice_states ?? []) this.#voiceState({ ...v, guild_id: d.id });
      this.changed();
      return;
    }
    switch (type) {
      case 'READY':
        this.me = d.user;
        this.#user(d.user);
        // A new session: what the platform now says replaces what an earlier one heard.
        this.presences.clear();
        this.voiceStates.clear();
        for (const p of d.presences ?? []) this.#presence(p);
        break;
      case 'VOICE_STATE_UPDATE':
        if (!this.#voiceState(d as WireVoiceState)) return;
        break;
      case 'TYPING_START':
        if (d.user_id === this.me?.id) return;
        if (d.member?.user) this.#user(d.member.user);
        this.typing.started(d.channel_id, d.user_id);
        return;
      case 'CHANNEL_CREATE':
      case 'CHANNEL_UPDATE':
        // A DM channel opened by a first message: the guild's channels are the guild's.
        this.setDmChannels([d as WireDmChannel]);
        return;
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
        if (d.author) this.typing.stopped(d.channel_id, d.author.id);
        // A direct message (no guild): its channel is the DM with the other user.
        if (!d.guild_id && d.recipient_id) this.#dmChannel(d.channel_id, d as WireMessage);
        this.addChannelMessages(d.channel_id, [d as WireMessage]);
        return;
      case 'MESSAGE_UPDATE': {
        // An update may carry only what changed: merge it into what the client has. One of a
        // message the client does not have (never read, or deleted here meanwhile) is no news.
        const known = this.channelMessages.get(d.channel_id)?.find((m) => m.id === d.id);
        if (known) this.addChannelMessages(d.channel_id, [{ ...known, ...d } as WireMessage]);
        return;
      }
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

  /** Records DM channels (from `GET /users/@me/channels` or CHANNEL_CREATE). */
  setDmChannels(channels: WireDmChannel[]): void {
    for (const channel of channels) {
      const other = channel.recipients[0];
      if (!other) continue;
      this.#user(other);
      this.dmChannels.set(channel.id, other.id);
    }
    this.changed();
  }

  /** Records that `channelId` is the DM channel with `userId` (read from its history). */
  rememberDm(channelId: string, userId: string): void {
    if (this.dmChannels.get(channelId) === userId) return;
    this.dmChannels.set(channelId, userId);
    this.changed();
  }

  /** The DM channel with `userId`, once there is one. */
  dmChannelWith(userId: string): string | undefined {
    for (const [channelId, other] of this.dmChannels) if (other === userId) return channelId;
    return undefined;
  }

  /** Marks which of a channel's messages are pinned (from its pins list). */
  setPinned(channelId: string, pinnedIds: ReadonlySet<string>): void {
    const messages = this.channelMessages.get(channelId);
    if (!messages) return;
    this.channelMessages.set(
      channelId,
      messages.map((m) => (!!m.pinned === pinnedIds.has(m.id) ? m : { ...m, pinned: pinnedIds.has(m.id) })),
    );
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

  #presence(d: Data): void {
    if (d.user?.id) this.presences.set(d.user.id, { status: d.status, activities: d.activities ?? [] });
  }

  #voiceState(state: WireVoiceState): boolean {
    if (state.member?.user) this.#user(state.member.user);
    return this.voiceStates.apply(state);
  }

  /** A direct message tells which DM channel is the one with the other user. */
  #dmChannel(channelId: string, message: WireMessage): void {
    const other = message.author.id === this.me?.id ? message.recipient_id : message.author.id;
    if (other) this.dmChannels.set(channelId, other);
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
