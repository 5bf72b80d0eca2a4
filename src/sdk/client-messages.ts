/**
 * Direct messages in the game SDK (`SendUserMessage`, `GetUserMessagesWithLimit`,
 * `GetUserMessageSummaries`) over `/users/@me/dms/{recipient_id}/messages` and
 * `/users/@me/channels`. Messages to friends are kept in their DM channel; others are delivered
 * in the game only (the platform decides; see the README). A limit of 0 or less asks for all the
 * platform keeps, as the public guide says: the newest 200 of the last 72 hours.
 */
import { DM_MESSAGES_HISTORY_HOURS, DM_MESSAGES_MAX } from '../platform/core/limits';
import type { DmChannel } from '../store/records/direct-messages';
import type { SocialContext } from './client-social';
import { SdkError } from './errors';
import type { LobbyMessage as Message, Metadata } from './types';

/** The last message of one conversation (the platform SDK's `UserMessageSummary`). */
export interface UserMessageSummary {
  userId: string;
  lastMessageId: string | null;
}

const SNOWFLAKE = /^\d{1,20}$/;

function recipient(value: unknown): string {
  if (typeof value !== 'string' || !SNOWFLAKE.test(value))
    throw SdkError.validation('recipientId must be a user id (a snowflake string).');
  return value;
}

/** `POST /users/@me/dms/{recipient_id}/messages`: a message from the current user, sent from this game. */
export async function sendUserMessage(
  ctx: SocialContext,
  recipientId: string,
  content: string,
  metadata?: Metadata,
): Promise<Message> {
  if (typeof content !== 'string' || content === '')
    throw SdkError.validation('sendUserMessage() needs the message content (a non-empty string).');
  if (
    metadata !== undefined &&
    (metadata === null || typeof metadata !== 'object' || Object.values(metadata).some((v) => typeof v !== 'string'))
  ) {
    throw SdkError.validation('metadata must be a dictionary of strings.');
  }
  return ctx.http.call<Message>('POST', `/users/@me/dms/${recipient(recipientId)}/messages`, {
    body: { content, metadata },
  });
}

/**
 * `GET /users/@me/dms/{recipient_id}/messages`: the newest `limit` kept messages with the user,
 * newest first. 0 or less means all the platform keeps (200, from the last 72 hours); above
 * 200 is refused before any request, so the caller learns the bound.
 */
export async function getUserMessagesWithLimit(
  ctx: SocialContext,
  recipientId: string,
  limit: number,
): Promise<Message[]> {
  if (!Number.isInteger(limit) || limit > DM_MESSAGES_MAX) {
    throw SdkError.validation(
      `getUserMessagesWithLimit() takes a whole limit up to ${DM_MESSAGES_MAX} (0 or less for all): it returns at most ${DM_MESSAGES_MAX} messages from the last ${DM_MESSAGES_HISTORY_HOURS} hours.`,
    );
  }
  const query = { limit: limit <= 0 ? DM_MESSAGES_MAX : limit };
  return ctx.http.call<Message[]>('GET', `/users/@me/dms/${recipient(recipientId)}/messages`, { query });
}

/** `GET /users/@me/channels`: the users the current user has kept conversations with, and each one's last message. */
export async function getUserMessageSummaries(ctx: SocialContext): Promise<UserMessageSummary[]> {
  const channels = await ctx.http.call<DmChannel[]>('GET', '/users/@me/channels');
  return channels.flatMap((c) => c.recipients.map((user) => ({ userId: user.id, lastMessageId: c.last_message_id })));
}
