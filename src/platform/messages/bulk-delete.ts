/**
 * Bulk Delete Messages (`POST /channels/{channel.id}/messages/bulk-delete`), as the platform's
 * public API has it: a bot with MANAGE_MESSAGES deletes 2 to 100 distinct messages of a guild
 * channel at once (the body's schema refuses other counts and duplicates with 400 50035). A
 * message older than 14 days by the platform clock (its creation time; an unknown id's snowflake
 * time) refuses the whole request (400 50034); ids of
 * messages that do not exist count toward the limits and are skipped. The messages go with their
 * files, reactions and poll votes; MESSAGE_DELETE_BULK names the deleted ids, and the guild's audit log gets
 * MESSAGE_BULK_DELETE (73) with the channel as target and the count. In a DM channel, 403 50003.
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { BULK_DELETE_MAX_AGE_MS } from '../core/limits';
import { PERMISSIONS } from '../core/permissions';
import { snowflakeTime } from '../core/snowflake';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from '../guilds/audit-log';
import type { Principal } from '../oauth2/auth';
import { loadChannelAccess, requireChannelPermissions } from './access';
import { MESSAGE_WRITE_STORES } from './create';
import { messageAudience } from './events';
import { messageOrderKey } from './keys';
import { messageReactionsRange } from './reactions-store';
import { pollVotesRange } from './poll-results';

/**
 * Deletes the messages `ids` of `channelId`; `reason` (the `X-Audit-Log-Reason` header) goes to
 * the audit log entry.
 * @example await bulkDeleteMessages(ctx, principal, channelId, [a, b], 'spam');
 */
export async function bulkDeleteMessages(
  ctx: PlatformContext,
  principal: Principal,
  channelId: string,
  ids: readonly string[],
  reason?: string,
): Promise<void> {
  await write(ctx, [...MESSAGE_WRITE_STORES, 'dm_channels', 'audit_log_entries'], async (tx, emit) => {
    if (await tx.store('dm_channels').getKey(channelId)) throw ApiError.of('CANNOT_EXECUTE_IN_DM');
    const access = await loadChannelAccess(tx, channelId, principal.user.id);
    requireChannelPermissions(access, PERMISSIONS.MANAGE_MESSAGES);
    const messages = tx.store('channel_messages');
    const records = await Promise.all(ids.map((id) => messages.get([channelId, messageOrderKey(id)])));
    // A stored message's age is its creation time by the platform clock; an unknown id's, its snowflake's.
    const oldest = ctx.clock.now() - BULK_DELETE_MAX_AGE_MS;
    if (ids.some((id, i) => (records[i]?.created_at ?? snowflakeTime(id)) < oldest))
      throw ApiError.of('BULK_DELETE_TOO_OLD');
    const found = records.flatMap((r) => (r ? [r] : []));
    for (const message of found) {
      await messages.delete([channelId, message.order_key]);
      await tx.store('message_reactions').delete(messageReactionsRange(channelId, message.id));
      if (message.poll) await tx.store('poll_votes').delete(pollVotesRange(channelId, message.id));
      const fileIds = [
        ...message.attachments.map((a) => a.id),
        ...(message.message_snapshots ?? []).flatMap((s) => s.message.attachments.map((a) => a.id)),
      ];
      await Promise.all(fileIds.map((id) => tx.store('attachment_files').delete(id)));
    }
    if (!found.length) return;
    const guildId = access.view.guild.id;
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.MESSAGE_BULK_DELETE,
      user_id: principal.user.id,
      target_id: channelId,
      options: { count: String(found.length) },
      ...(reason ? { reason } : {}),
    });
    emit({
      type: 'MESSAGE_DELETE_BULK',
      data: { ids: found.map((m) => m.id), channel_id: channelId, guild_id: guildId },
      audience: messageAudience(guildId),
    });
  });
}
