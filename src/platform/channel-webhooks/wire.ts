/**
 * Incoming webhooks on the wire: the webhook object, and the author its messages carry (the
 * webhook itself as a bot user, under the name and avatar the execution chose).
 */
import type { GuildIncomingWebhookResponse } from 'discord-api-spec';
import type { ChannelWebhookRecord } from '../../store/records/channel-webhooks';
import type { User, UserRecord } from '../../store/records/core';
import { serializeUser } from '../accounts/users';

/** The webhook object; this platform creates incoming webhooks only. */
export type WebhookObject = Omit<GuildIncomingWebhookResponse, 'type' | 'user'> & { type: 1; user?: User };

/**
 * The webhook object. `creator` (the user who made it) is answered with a bot's or user's token,
 * never with the webhook's own token; the token is answered only where `withToken` says (incoming
 * webhooks, to callers who may manage or already hold it).
 * @example serializeWebhook(record, { creator, withToken: true })
 */
export function serializeWebhook(
  record: ChannelWebhookRecord,
  options: { creator?: UserRecord | null; withToken: boolean },
): WebhookObject {
  const out: WebhookObject = {
    id: record.id,
    type: 1,
    guild_id: record.guild_id,
    channel_id: record.channel_id,
    name: record.name,
    avatar: record.avatar,
    application_id: record.application_id,
  };
  if (options.creator) out.user = serializeUser(options.creator);
  if (options.withToken) out.token = record.token;
  return out;
}

/**
 * The author of a message the webhook sends: a bot user whose id is the webhook's, named by the
 * execution's `username` or the webhook's name. An `avatar_url` is not mirrored (no CDN here):
 * the avatar is then the default one.
 */
export function webhookAuthor(
  record: ChannelWebhookRecord,
  overrides: { username?: string | null; avatar_url?: string | null } = {},
): User {
  return {
    id: record.id,
    username: overrides.username ?? record.name,
    global_name: null,
    discriminator: '0000',
    avatar: overrides.avatar_url ? null : record.avatar,
    public_flags: 0,
    flags: 0,
    primary_guild: null,
    bot: true,
  };
}
