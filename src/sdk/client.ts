/**
 * The game SDK `Client` (spec: `Client::` operations, namespace `platformpp`): `ClientCore`'s
 * accounts and connection, `SocialLayerClient`'s relationships and direct messages,
 * `VoiceClient`'s calls and audio settings, plus the events of the gateway as typed callbacks,
 * AUTHORIZE_REQUEST from the host platform client, lobbies and their chat, rich presence and
 * guild channels.
 */
import { subscribeAuthorizeRequests, type AuthorizeRequest } from './authorize-requests';
import { settle, type ClientOptions, type ClientResult } from './client-core';
import type { ClientCallbacks } from './client-events';
import {
  createOrJoinLobby,
  getGuildChannels,
  getLobbyMessagesWithLimit,
  leaveLobby,
  sendLobbyMessage,
  updateRichPresence,
  type SocialContext,
} from './client-social';
import {
  exchangeChildToken,
  getProvisionalToken,
  getTokenFromProvisionalMerge,
  unmergeIntoProvisionalAccount,
  type ExternalAuthType,
} from './client-provisional';
import { VoiceClient } from './client-voice';
import type {
  GuildChannel,
  Lobby,
  LobbyMessage,
  Metadata,
  RichPresenceActivity,
  StoredActivity,
  TokenResult,
} from './types';

/**
 * The game SDK client.
 * @example
 * const client = new Client({ applicationId, userId });
 * const { challenge, verifier } = await client.createAuthorizationCodeVerifier();
 * const args = new AuthorizationArgs();
 * args.setScopes(Client.getDefaultCommunicationScopes());
 * args.setCodeChallenge(challenge);
 * const { code, redirectUri } = await client.authorize(args);
 * const tokens = await client.getToken(applicationId, code, verifier, redirectUri);
 * await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
 * await client.connect();
 * client.setMessageCreatedCallback((id, message) => console.log(message.content));
 * const lobby = await client.createOrJoinLobby('match-42');
 * await client.sendLobbyMessage(lobby.id, 'gl hf');
 */
export class Client extends VoiceClient {
  readonly #social: SocialContext;
  #unsubscribeAuthorizeRequests: (() => void) | null = null;

  constructor(options: ClientOptions = {}) {
    super(options);
    this.#social = { http: this.http, events: this.events };
  }

  /** The token of the provisional account of an external identity (created on first use). */
  getProvisionalToken(
    applicationId: string,
    externalAuthType: ExternalAuthType,
    externalAuthToken: string,
    callback?: (result: ClientResult, tokens?: TokenResult) => void,
  ): Promise<TokenResult> {
    return settle(
      this.run(() => getProvisionalToken(this.auth, applicationId, externalAuthType, externalAuthToken)),
      callback,
    );
  }

  /** `getToken` that also merges the identity's provisional account into the account that authorized. */
  getTokenFromProvisionalMerge(
    applicationId: string,
    code: string,
    codeVerifier: string,
    redirectUri: string,
    externalAuthType: ExternalAuthType,
    externalAuthToken: string,
    callback?: (result: ClientResult, tokens?: TokenResult) => void,
  ): Promise<TokenResult> {
    const input = { applicationId, code, codeVerifier, redirectUri, externalAuthType, externalAuthToken };
    return settle(
      this.run(() => getTokenFromProvisionalMerge(this.auth, input)),
      callback,
    );
  }

  /** Splits the identity off the full account it was merged into, as a new provisional account. */
  unmergeIntoProvisionalAccount(
    applicationId: string,
    externalAuthType: ExternalAuthType,
    externalAuthToken: string,
    callback?: (result: ClientResult) => void,
  ): Promise<void> {
    return settle(
      this.run(() => unmergeIntoProvisionalAccount(this.auth, applicationId, externalAuthType, externalAuthToken)),
      callback,
    );
  }

  /** A publisher's (parent's) access token for a token of one of its approved games (child). */
  exchangeChildToken(
    parentApplicationToken: string,
    childApplicationId: string,
    callback?: (result: ClientResult, tokens?: TokenResult) => void,
  ): Promise<TokenResult> {
    return settle(
      this.run(() => exchangeChildToken(this.auth, parentApplicationToken, childApplicationId)),
      callback,
    );
  }

  /**
   * Calls `callback` when the host platform client asks this game to authorize
   * (AUTHORIZE_REQUEST). The subscription stays across disconnects and reconnects.
   */
  registerAuthorizeRequestCallback(callback: (request: AuthorizeRequest) => void): void {
    this.removeAuthorizeRequestCallback();
    const target = () => ({ applicationId: this.applicationId, userId: this.options.userId });
    const deliver = (request: AuthorizeRequest) => {
      this.log.info(`AUTHORIZE_REQUEST for application ${request.applicationId}.`);
      try {
        callback(request);
      } catch (error) {
        this.log.error(
          `The authorize request callback threw: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    };
    this.#unsubscribeAuthorizeRequests = subscribeAuthorizeRequests(target, deliver, this.options.channelFactory);
  }

  /** Stops AUTHORIZE_REQUEST delivery. */
  removeAuthorizeRequestCallback(): void {
    this.#unsubscribeAuthorizeRequests?.();
    this.#unsubscribeAuthorizeRequests = null;
  }

  /** Also ends the AUTHORIZE_REQUEST subscription (and, as every client, every call). */
  override async destroy(): Promise<void> {
    this.removeAuthorizeRequestCallback();
    await super.destroy();
  }

  /** A lobby the user is a member of was created (LOBBY_CREATE). */
  setLobbyCreatedCallback(callback: ClientCallbacks['lobbyCreated'] | null): void {
    this.events.set('lobbyCreated', callback);
  }
  /** A lobby the user is in changed: metadata, flags (LOBBY_UPDATE). */
  setLobbyUpdatedCallback(callback: ClientCallbacks['lobbyUpdated'] | null): void {
    this.events.set('lobbyUpdated', callback);
  }
  /** A lobby is gone for the user: deleted, or the user left or was removed. */
  setLobbyDeletedCallback(callback: ClientCallbacks['lobbyDeleted'] | null): void {
    this.events.set('lobbyDeleted', callback);
  }
  /** Someone joined a lobby the user is in (LOBBY_MEMBER_ADD). */
  setLobbyMemberAddedCallback(callback: ClientCallbacks['lobbyMemberAdded'] | null): void {
    this.events.set('lobbyMemberAdded', callback);
  }
  /** A member's metadata or flags changed (LOBBY_MEMBER_UPDATE). */
  setLobbyMemberUpdatedCallback(callback: ClientCallbacks['lobbyMemberUpdated'] | null): void {
    this.events.set('lobbyMemberUpdated', callback);
  }
  /** Someone left or was removed from a lobby the user is in (LOBBY_MEMBER_REMOVE). */
  setLobbyMemberRemovedCallback(callback: ClientCallbacks['lobbyMemberRemoved'] | null): void {
    this.events.set('lobbyMemberRemoved', callback);
  }
  /**
   * A message was sent, this user's own included: in a lobby the user is in (`lobby_id` set), or
   * a direct message to or from the user (`recipient_id` set).
   */
  setMessageCreatedCallback(callback: ClientCallbacks['messageCreated'] | null): void {
    this.events.set('messageCreated', callback);
  }
  /** A user's presence changed (the current user's own, as the platform sends it). */
  setUserUpdatedCallback(callback: ClientCallbacks['userUpdated'] | null): void {
    this.events.set('userUpdated', callback);
  }

  /** Joins the application's lobby with this secret, creating it when there is none. */
  createOrJoinLobby(secret: string, lobbyMetadata?: Metadata, memberMetadata?: Metadata): Promise<Lobby> {
    return this.run(() => createOrJoinLobby(this.#social, secret, lobbyMetadata, memberMetadata));
  }
  /** The current user leaves the lobby. */
  leaveLobby(lobbyId: string): Promise<void> {
    return this.run(() => leaveLobby(this.#social, lobbyId));
  }
  /** A lobby the user created, joined or heard of over the gateway; undefined otherwise. */
  getLobbyHandle(lobbyId: string): Lobby | undefined {
    return this.events.lobbies.get(lobbyId);
  }
  /** The lobbies `getLobbyHandle` knows. */
  getLobbyIds(): string[] {
    return [...this.events.lobbies.keys()];
  }
  /** Sends a message, from the current user, to every member of the lobby. */
  sendLobbyMessage(lobbyId: string, content: string, metadata?: Metadata): Promise<LobbyMessage> {
    return this.run(() => sendLobbyMessage(this.#social, lobbyId, content, metadata));
  }
  /** At most 200 messages of the last 72 hours, newest first, of a lobby the user is a member of. */
  getLobbyMessagesWithLimit(lobbyId: string, limit: number): Promise<LobbyMessage[]> {
    return this.run(() => getLobbyMessagesWithLimit(this.#social, lobbyId, limit));
  }
  /** Sets the user's rich presence for this game; resolves with the activity as stored. */
  updateRichPresence(activity: RichPresenceActivity): Promise<StoredActivity | null> {
    return this.run(() => updateRichPresence(this.#social, activity));
  }
  /** Clears the user's rich presence for this game. */
  clearRichPresence(): Promise<void> {
    return this.run(async () => void (await updateRichPresence(this.#social, null)));
  }
  /** The channels of a guild the user can see (the OAuth2 `guilds` scope, which `sdk.social_layer` includes). */
  getGuildChannels(guildId: string): Promise<GuildChannel[]> {
    return this.run(() => getGuildChannels(this.#social, guildId));
  }
}
