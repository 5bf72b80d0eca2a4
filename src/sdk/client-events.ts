/**
 * Gateway dispatches as the client's typed callbacks, named as the platform SDK names them
 * (`setLobbyCreatedCallback`, `setMessageCreatedCallback`, ...), and the caches behind the
 * synchronous handles: the current user (from READY), the lobbies the user is in, and the
 * user's relationships.
 */
import { RelationshipCache } from './relationship-cache';
import type { SdkLogger } from './logger';
import type { Lobby, LobbyMember, LobbyMessage, User } from './types';
import type { GatewayDispatch } from '../gateway/protocol';
import type { GatewayActivity, PresenceActivity } from '../store/records/presence';
import type { LobbyMemberEvent } from '../store/records/dispatches';
import type { GameRelationship, Relationship } from '../store/records/relationships';

/** Every event callback of the client, by name. */
export interface ClientCallbacks {
  lobbyCreated: (lobbyId: string, lobby: Lobby) => void;
  lobbyUpdated: (lobbyId: string, lobby: Lobby) => void;
  lobbyDeleted: (lobbyId: string) => void;
  lobbyMemberAdded: (lobbyId: string, memberId: string, member: LobbyMember) => void;
  lobbyMemberUpdated: (lobbyId: string, memberId: string, member: LobbyMember) => void;
  lobbyMemberRemoved: (lobbyId: string, memberId: string) => void;
  /** A lobby message or a direct message (`lobby_id` tells a lobby message; `recipient_id` a direct one). */
  messageCreated: (messageId: string, message: LobbyMessage) => void;
  /** A message changed: the application's server set its moderation metadata. */
  messageUpdated: (messageId: string, message: LobbyMessage) => void;
  /** A relationship was created or changed; `isDiscordRelationshipUpdate` false for a game relationship. */
  relationshipCreated: (userId: string, isDiscordRelationshipUpdate: boolean) => void;
  /** A relationship ended; `isDiscordRelationshipUpdate` false for a game relationship. */
  relationshipDeleted: (userId: string, isDiscordRelationshipUpdate: boolean) => void;
  /** A user's presence changed (PRESENCE_UPDATE); `activities` as the platform sent them. */
  userUpdated: (
    userId: string,
    presence: { status: string; activities: (PresenceActivity | GatewayActivity)[] },
  ) => void;
}

/** The voice dispatches the client's calls follow. */
export type VoiceDispatch = Extract<GatewayDispatch, { t: 'VOICE_STATE_UPDATE' | 'VOICE_SERVER_UPDATE' }>;

/** The client's callbacks and caches. */
export class ClientEvents {
  readonly #callbacks: Partial<ClientCallbacks> = {};
  readonly lobbies = new Map<string, Lobby>();
  readonly relationships = new RelationshipCache();
  currentUser: User | undefined = undefined;
  /** Where voice dispatches go (the client's calls). */
  voice: ((dispatch: VoiceDispatch) => void) | null = null;

  constructor(private readonly log: SdkLogger) {}

  /** Sets (or with null removes) one callback. */
  set<K extends keyof ClientCallbacks>(name: K, callback: ClientCallbacks[K] | null): void {
    if (callback === null) delete this.#callbacks[name];
    else this.#callbacks[name] = callback;
  }

  /** Remembers a lobby the user created or joined over HTTP. */
  rememberLobby(lobby: Lobby): void {
    this.lobbies.set(lobby.id, lobby);
  }

  /** Forgets everything tied to a session (after `disconnect()`). */
  reset(): void {
    this.currentUser = undefined;
    this.lobbies.clear();
    this.relationships.clear();
  }

  /** One dispatch from the gateway, its payload typed by its name. */
  dispatch(dispatch: GatewayDispatch): void {
    switch (dispatch.t) {
      case 'READY':
        this.currentUser = dispatch.d.user;
        return;
      case 'LOBBY_CREATE':
        this.lobbies.set(dispatch.d.id, dispatch.d);
        return this.#emit('lobbyCreated', dispatch.d.id, dispatch.d);
      case 'LOBBY_UPDATE':
        this.lobbies.set(dispatch.d.id, dispatch.d);
        return this.#emit('lobbyUpdated', dispatch.d.id, dispatch.d);
      case 'LOBBY_DELETE':
        this.lobbies.delete(dispatch.d.id);
        return this.#emit('lobbyDeleted', dispatch.d.id);
      case 'LOBBY_MEMBER_ADD':
      case 'LOBBY_MEMBER_UPDATE':
        return this.#member(dispatch.t, dispatch.d);
      case 'LOBBY_MEMBER_REMOVE':
        return this.#memberRemoved(dispatch.d);
      case 'LOBBY_MESSAGE_CREATE':
        return this.#emit('messageCreated', dispatch.d.id, dispatch.d);
      case 'LOBBY_MESSAGE_UPDATE':
        return this.#emit('messageUpdated', dispatch.d.id, dispatch.d);
      // The SDK's sessions ask for no intents, so no guild channel message reaches them: these are direct messages.
      case 'MESSAGE_CREATE':
        return this.#emit('messageCreated', dispatch.d.id, dispatch.d as LobbyMessage);
      case 'MESSAGE_UPDATE':
        return this.#emit('messageUpdated', dispatch.d.id, dispatch.d as LobbyMessage);
      case 'RELATIONSHIP_ADD':
      case 'RELATIONSHIP_UPDATE':
      case 'RELATIONSHIP_REMOVE':
      case 'GAME_RELATIONSHIP_ADD':
      case 'GAME_RELATIONSHIP_UPDATE':
      case 'GAME_RELATIONSHIP_REMOVE':
        return this.#relationship(dispatch.t, dispatch.d);
      case 'VOICE_STATE_UPDATE':
      case 'VOICE_SERVER_UPDATE':
        return this.voice?.(dispatch);
      case 'PRESENCE_UPDATE':
        return this.#emit('userUpdated', dispatch.d.user?.id, {
          status: dispatch.d.status,
          activities: dispatch.d.activities ?? [],
        });
      default:
        this.log.verbose(`Gateway: ${dispatch.t} is not an SDK event; ignored.`);
    }
  }

  #member(t: 'LOBBY_MEMBER_ADD' | 'LOBBY_MEMBER_UPDATE', d: LobbyMemberEvent): void {
    const lobby = this.lobbies.get(d.lobby_id);
    if (lobby) {
      const members = lobby.members.filter((m) => m.id !== d.member.id);
      this.lobbies.set(lobby.id, { ...lobby, members: [...members, d.member] });
    }
    if (t === 'LOBBY_MEMBER_ADD') this.#emit('lobbyMemberAdded', d.lobby_id, d.member.id, d.member);
    else this.#emit('lobbyMemberUpdated', d.lobby_id, d.member.id, d.member);
  }

  #memberRemoved(d: LobbyMemberEvent): void {
    const lobby = this.lobbies.get(d.lobby_id);
    if (lobby) this.lobbies.set(lobby.id, { ...lobby, members: lobby.members.filter((m) => m.id !== d.member.id) });
    this.#emit('lobbyMemberRemoved', d.lobby_id, d.member.id);
    // The current user left (or was removed): for this client the lobby is gone.
    if (d.member.id === this.currentUser?.id) {
      this.lobbies.delete(d.lobby_id);
      this.#emit('lobbyDeleted', d.lobby_id);
    }
  }

  #relationship(t: string, d: Relationship | GameRelationship): void {
    const change = this.relationships.apply(t, d);
    if (!change) return;
    if (change.removed) this.#emit('relationshipDeleted', change.userId, change.isDiscordRelationshipUpdate);
    else this.#emit('relationshipCreated', change.userId, change.isDiscordRelationshipUpdate);
  }

  #emit<K extends keyof ClientCallbacks>(name: K, ...args: Parameters<ClientCallbacks[K]>): void {
    const callback = this.#callbacks[name] as ((...a: Parameters<ClientCallbacks[K]>) => void) | undefined;
    if (!callback) return;
    try {
      callback(...args);
    } catch (error) {
      this.log.error(`The ${name} callback threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
