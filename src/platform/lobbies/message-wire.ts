/**
 * A lobby message as the API and the gateway show it: the one shape shared by the POST's answer,
 * its LOBBY_MESSAGE_CREATE, the read path and its cache.
 */
import type { LobbyMessageRecord, Message, UserRecord } from '../../store/records/core';
import { deletedUser, serializeUser } from '../accounts/users';

/** The message type of a plain message. */
const DEFAULT_MESSAGE_TYPE = 0;

/** The message object of a lobby message: `channel_id` is the lobby's id unless a channel is linked. */
export function serializeLobbyMessage(message: LobbyMessageRecord, author: UserRecord | undefined): Message {
  return {
    id: message.id,
    type: DEFAULT_MESSAGE_TYPE,
    content: message.content,
    lobby_id: message.lobby_id,
    channel_id: message.channel_id,
    author: author ? serializeUser(author) : deletedUser(message.author_id),
    timestamp: new Date(message.created_at).toISOString(),
    edited_timestamp: null,
    // The description has no null here: a message without metadata leaves the field out.
    ...(message.metadata ? { metadata: message.metadata } : {}),
    flags: 0,
    application_id: message.application_id,
    ...(message.moderation_metadata ? { moderation_metadata: message.moderation_metadata } : {}),
  };
}
