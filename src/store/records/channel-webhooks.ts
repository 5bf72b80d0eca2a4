/**
 * Incoming webhooks of guild channels (`/channels/{channel.id}/webhooks`, `/webhooks/{webhook.id}`).
 * Type declarations only; the operations live in `platform/channel-webhooks/`.
 */
import type { Snowflake } from './core';

/** Webhook types (the platform's public values); the sandbox creates incoming webhooks only. */
export const WEBHOOK_TYPES = { INCOMING: 1, CHANNEL_FOLLOWER: 2, APPLICATION: 3 } as const;

/** An incoming webhook as stored. */
export interface ChannelWebhookRecord {
  id: Snowflake;
  type: number;
  guild_id: Snowflake;
  channel_id: Snowflake;
  /** The default name of the messages it sends (1-80 characters). */
  name: string;
  /** The avatar's hash, or null for the default avatar. */
  avatar: string | null;
  /** The avatar image as a data URI (no CDN: it stays here); absent or null for none. */
  avatar_data?: string | null;
  /** The token that executes it: a credential, never logged, never put in an event or an audit entry. */
  token: string;
  /** Who created it (the bot user when created through the API). */
  user_id: Snowflake;
  /** The application whose bot created it, or null. */
  application_id: Snowflake | null;
  created_at: number;
}
