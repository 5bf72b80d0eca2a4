/**
 * What every change of an incoming webhook does in its write: WEBHOOKS_UPDATE `{guild_id,
 * channel_id}` (GUILD_WEBHOOKS intent) for each channel it concerns, and its WEBHOOK_UPDATE /
 * WEBHOOK_DELETE audit entry (with no user when the webhook's own token made the change). The
 * token is in neither.
 */
import type { Emit, WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { parseImageData, type ImageData } from '../core/image-data';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from '../guilds/audit-log';
import type { ChannelWebhookRecord } from '../../store/records/channel-webhooks';
import type { PlatformStoreName } from '../../store/schema';

/** The stores a webhook write touches. */
export const WEBHOOK_WRITE_STORES: PlatformStoreName[] = [
  'guilds',
  'roles',
  'members',
  'channels',
  'users',
  'channel_webhooks',
  'audit_log_entries',
];

/** Appends WEBHOOKS_UPDATE for a channel (GUILD_WEBHOOKS intent). */
export function emitWebhooksUpdate(emit: Emit, guildId: string, channelId: string): void {
  emit({
    type: 'WEBHOOKS_UPDATE',
    data: { guild_id: guildId, channel_id: channelId },
    audience: { guild_id: guildId, intent: INTENTS.GUILD_WEBHOOKS },
  });
}

/** The webhook by id: 404 10015 for none. */
export async function webhookOf(tx: WriteTx, webhookId: string): Promise<ChannelWebhookRecord> {
  const webhook = await tx.store('channel_webhooks').get(webhookId);
  if (!webhook) throw ApiError.of('UNKNOWN_WEBHOOK');
  return webhook;
}

/** An avatar of a body decoded (before a write opens: hashing is async); absent and null pass. */
export const decodeAvatar = async (avatar: string | null | undefined): Promise<ImageData | null | undefined> =>
  avatar === undefined || avatar === null ? avatar : parseImageData(avatar, 'avatar');

/**
 * Applies a modification in the caller's write: the changed webhook stored, WEBHOOKS_UPDATE for
 * its channel (and the one it left), a WEBHOOK_UPDATE audit entry when anything changed.
 */
export async function saveModification(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  current: ChannelWebhookRecord,
  change: { name?: string; avatar?: ImageData | null; channel_id?: string },
  actorId: string | null,
): Promise<ChannelWebhookRecord> {
  const next: ChannelWebhookRecord = { ...current };
  const changes: { key: string; old_value?: unknown; new_value?: unknown }[] = [];
  if (change.name !== undefined && change.name !== current.name) {
    next.name = change.name;
    changes.push({ key: 'name', old_value: current.name, new_value: change.name });
  }
  if (change.avatar !== undefined && (change.avatar?.hash ?? null) !== current.avatar) {
    next.avatar = change.avatar?.hash ?? null;
    next.avatar_data = change.avatar?.dataUri ?? null;
    changes.push({ key: 'avatar_hash', old_value: current.avatar, new_value: next.avatar });
  }
  if (change.channel_id !== undefined && change.channel_id !== current.channel_id) {
    next.channel_id = change.channel_id;
    changes.push({ key: 'channel_id', old_value: current.channel_id, new_value: change.channel_id });
  }
  await tx.store('channel_webhooks').put(next);
  emitWebhooksUpdate(emit, next.guild_id, next.channel_id);
  if (next.channel_id !== current.channel_id) emitWebhooksUpdate(emit, current.guild_id, current.channel_id);
  if (changes.length > 0)
    await appendAuditLogEntry(ctx, tx, {
      guild_id: next.guild_id,
      action_type: AUDIT_LOG_EVENTS.WEBHOOK_UPDATE,
      user_id: actorId,
      target_id: next.id,
      changes,
    });
  return next;
}

/** Deletes the webhook in the caller's write: WEBHOOKS_UPDATE and a WEBHOOK_DELETE audit entry. */
export async function removeWebhook(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  webhook: ChannelWebhookRecord,
  actorId: string | null,
): Promise<void> {
  await tx.store('channel_webhooks').delete(webhook.id);
  emitWebhooksUpdate(emit, webhook.guild_id, webhook.channel_id);
  await appendAuditLogEntry(ctx, tx, {
    guild_id: webhook.guild_id,
    action_type: AUDIT_LOG_EVENTS.WEBHOOK_DELETE,
    user_id: actorId,
    target_id: webhook.id,
    changes: [
      { key: 'name', old_value: webhook.name },
      { key: 'type', old_value: webhook.type },
      { key: 'channel_id', old_value: webhook.channel_id },
    ],
  });
}
