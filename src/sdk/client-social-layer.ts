/**
 * The social layer of the game SDK `Client` between `ClientCore` and `Client`: relationships
 * (friends everywhere and game friends, requests, blocks) and direct messages, under the names
 * the platform SDK gives them (`SendDiscordFriendRequest`, `GetUserMessagesWithLimit`, ...), so
 * that a game written against the public SDK calls the same operations here.
 */
import { ClientCore, type ClientOptions } from './client-core';
import type { ClientCallbacks } from './client-events';
import {
  getUserMessageSummaries,
  getUserMessagesWithLimit,
  sendUserMessage,
  type UserMessageSummary,
} from './client-messages';
import {
  blockUser,
  changeFrom,
  getRelationships,
  removeFriend,
  RelationshipType,
  sendFriendRequestById,
  sendFriendRequestByName,
  type RelationshipHandle,
} from './client-relationships';
import type { SocialContext } from './client-social';
import type { LobbyMessage, Metadata } from './types';

/** Relationships and direct messages; see `Client`. */
export class SocialLayerClient extends ClientCore {
  readonly #ctx: SocialContext;

  constructor(options: ClientOptions = {}) {
    super(options);
    this.#ctx = { http: this.http, events: this.events };
  }

  /** Sends a direct message from the current user; to a non-friend it is delivered in this game only. */
  sendUserMessage(recipientId: string, content: string, metadata?: Metadata): Promise<LobbyMessage> {
    return this.run(() => sendUserMessage(this.#ctx, recipientId, content, metadata));
  }
  /** The newest `limit` messages with a user, newest first: at most 200, from the last 72 hours (0 or less: all of those). */
  getUserMessagesWithLimit(recipientId: string, limit: number): Promise<LobbyMessage[]> {
    return this.run(() => getUserMessagesWithLimit(this.#ctx, recipientId, limit));
  }
  /** Every user the current user has a kept conversation with, and its last message id. */
  getUserMessageSummaries(): Promise<UserMessageSummary[]> {
    return this.run(() => getUserMessageSummaries(this.#ctx));
  }
  /** A direct or lobby message changed (its moderation metadata was set by the game's server). */
  setMessageUpdatedCallback(callback: ClientCallbacks['messageUpdated'] | null): void {
    this.events.set('messageUpdated', callback);
  }

  /** Reads every relationship of the current user (and fills the cache of `getRelationshipHandle`). */
  getRelationships(): Promise<RelationshipHandle[]> {
    return this.run(() => getRelationships(this.#ctx));
  }
  /** The relationships with one user as last read or heard of over the gateway; undefined when none. */
  getRelationshipHandle(userId: string): RelationshipHandle | undefined {
    return this.events.relationships.get(userId);
  }
  /** A relationship was created or changed; `isDiscordRelationshipUpdate` is false for a game relationship. */
  setRelationshipCreatedCallback(callback: ClientCallbacks['relationshipCreated'] | null): void {
    this.events.set('relationshipCreated', callback);
  }
  /** A relationship ended; `isDiscordRelationshipUpdate` is false for a game relationship. */
  setRelationshipDeletedCallback(callback: ClientCallbacks['relationshipDeleted'] | null): void {
    this.events.set('relationshipDeleted', callback);
  }

  /** Sends (or accepts, when they asked first) a platform-wide friend request by username. */
  sendDiscordFriendRequest(username: string): Promise<void> {
    return this.run(() => sendFriendRequestByName(this.#ctx, username, false));
  }
  /** Sends (or accepts) a platform-wide friend request by user id. */
  sendDiscordFriendRequestById(userId: string): Promise<void> {
    return this.run(() => sendFriendRequestById(this.#ctx, userId, false));
  }
  /** Sends (or accepts) a friend request in this game only, by username. */
  sendGameFriendRequest(username: string): Promise<void> {
    return this.run(() => sendFriendRequestByName(this.#ctx, username, true));
  }
  /** Sends (or accepts) a friend request in this game only, by user id. */
  sendGameFriendRequestById(userId: string): Promise<void> {
    return this.run(() => sendFriendRequestById(this.#ctx, userId, true));
  }
  /** Accepts the user's incoming platform-wide friend request (ValidationError when there is none). */
  acceptDiscordFriendRequest(userId: string): Promise<void> {
    return this.run(() =>
      changeFrom(
        this.#ctx,
        userId,
        false,
        RelationshipType.PendingIncoming,
        'accept',
        'acceptDiscordFriendRequest(): no incoming friend request',
      ),
    );
  }
  /** Accepts the user's incoming game friend request. */
  acceptGameFriendRequest(userId: string): Promise<void> {
    return this.run(() =>
      changeFrom(
        this.#ctx,
        userId,
        true,
        RelationshipType.PendingIncoming,
        'accept',
        'acceptGameFriendRequest(): no incoming game friend request',
      ),
    );
  }
  /** Rejects the user's incoming platform-wide friend request. */
  rejectDiscordFriendRequest(userId: string): Promise<void> {
    return this.run(() =>
      changeFrom(
        this.#ctx,
        userId,
        false,
        RelationshipType.PendingIncoming,
        'remove',
        'rejectDiscordFriendRequest(): no incoming friend request',
      ),
    );
  }
  /** Rejects the user's incoming game friend request. */
  rejectGameFriendRequest(userId: string): Promise<void> {
    return this.run(() =>
      changeFrom(
        this.#ctx,
        userId,
        true,
        RelationshipType.PendingIncoming,
        'remove',
        'rejectGameFriendRequest(): no incoming game friend request',
      ),
    );
  }
  /** Cancels the current user's outgoing platform-wide friend request. */
  cancelDiscordFriendRequest(userId: string): Promise<void> {
    return this.run(() =>
      changeFrom(
        this.#ctx,
        userId,
        false,
        RelationshipType.PendingOutgoing,
        'remove',
        'cancelDiscordFriendRequest(): no outgoing friend request',
      ),
    );
  }
  /** Cancels the current user's outgoing game friend request. */
  cancelGameFriendRequest(userId: string): Promise<void> {
    return this.run(() =>
      changeFrom(
        this.#ctx,
        userId,
        true,
        RelationshipType.PendingOutgoing,
        'remove',
        'cancelGameFriendRequest(): no outgoing game friend request',
      ),
    );
  }
  /** Ends both the platform-wide and the game friendship with the user. */
  removeDiscordAndGameFriend(userId: string): Promise<void> {
    return this.run(() => removeFriend(this.#ctx, userId, true));
  }
  /** Ends the game friendship with the user (a platform-wide one stays). */
  removeGameFriend(userId: string): Promise<void> {
    return this.run(() => removeFriend(this.#ctx, userId, false));
  }
  /** Blocks the user everywhere: it ends every relationship with them and refuses their messages and requests. */
  blockUser(userId: string): Promise<void> {
    return this.run(() => blockUser(this.#ctx, userId));
  }
  /** Lifts the current user's block (ValidationError when there is none); nothing earlier comes back. */
  unblockUser(userId: string): Promise<void> {
    return this.run(() =>
      changeFrom(this.#ctx, userId, false, RelationshipType.Blocked, 'remove', 'unblockUser(): no block'),
    );
  }
}
