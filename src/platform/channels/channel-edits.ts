/**
 * One channel changed or deleted by a bot: `PATCH` / `DELETE /channels/{channel.id}`.
 * A guild channel needs MANAGE_CHANNELS (and a channel the bot can view, 50001); changing its
 * overwrites also MANAGE_ROLES (`channel-rules.ts`). A change appends CHANNEL_UPDATE with the full
 * channel and a CHANNEL_UPDATE audit entry naming what changed; the gateway obfuscates it for bots
 * that cannot view the channel, and reveals it with full data to one that now can. Deleting
 * appends CHANNEL_DELETE and a CHANNEL_DELETE audit entry, and takes the channel's messages,
 * invites and webhooks with it; its children leave the category (CHANNEL_UPDATE each). Deleting a
 * DM channel closes it: the bot gets the channel back, nothing is removed. A DM has nothing to
 * modify (50024).
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { PERMISSIONS } from '../core/permissions';
import { keyRange } from '../../store/port';
import {
  canViewChannel,
  channelPermissions,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
  type GuildView,
} from '../guilds/access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from '../guilds/audit-log';
import { serializeChannel } from '../guilds/wire';
import { requireVoiceSettings } from '../guilds/voice-channel-settings';
import { emitWebhooksUpdate } from '../channel-webhooks/changes';
import { serializeDmChannel } from '../messages/direct-messages';
import type { DmChannel } from '../../store/records/direct-messages';
import { CHANNEL_TYPES, type Channel, type ChannelRecord } from '../../store/records/core';
import { checkedOverwrites, requireSettingsOfType } from './channel-rules';
import type { ModifyChannelInput } from './schemas';
import type { PlatformStoreName } from '../../store/schema';

const EDIT_STORES: PlatformStoreName[] = ['guilds', 'roles', 'members', 'channels', 'dm_channels', 'audit_log_entries'];
const DELETE_STORES: PlatformStoreName[] = [
  ...EDIT_STORES,
  'users',
  'channel_messages',
  'attachment_files',
  'invites',
  'channel_webhooks',
];

/** The guild channel the bot manages, or the DM channel it is in; 404 10003 for neither. */
async function channelOf(
  tx: WriteTx,
  principal: BotPrincipal,
  channelId: string,
): Promise<{ channel: ChannelRecord; view: GuildView; bits: bigint } | { dm: DmChannel }> {
  const channel = await tx.store('channels').get(channelId);
  if (!channel || !channel.guild_id) {
    const dm = await tx.store('dm_channels').get(channelId);
    if (!dm || !dm.recipient_ids.includes(principal.user.id)) throw ApiError.of('UNKNOWN_CHANNEL');
    const otherId = dm.recipient_ids.find((id) => id !== principal.user.id) ?? principal.user.id;
    const other = await tx.store('users').get(otherId);
    return { dm: serializeDmChannel(dm, other ? [other] : []) };
  }
  const view = await loadGuildView(txReader(tx), channel.guild_id, principal.user.id);
  requireMember(view);
  if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
  const bits = channelPermissions(view, channel);
  requirePermissions(bits, PERMISSIONS.MANAGE_CHANNELS);
  return { channel, view, bits };
}

/** Appends CHANNEL_UPDATE with the full channel (GUILDS intent). */
function emitChannelUpdate(emit: Emit, channel: ChannelRecord): void {
  emit({
    type: 'CHANNEL_UPDATE',
    data: serializeChannel(channel),
    audience: { guild_id: channel.guild_id!, intent: INTENTS.GUILDS },
  });
}

/** The next channel and the audit changes of a modification, its rules checked. */
async function applyChanges(
  tx: WriteTx,
  current: ChannelRecord,
  view: GuildView,
  bits: bigint,
  input: ModifyChannelInput,
): Promise<{ next: ChannelRecord; changes: { key: string; old_value?: unknown; new_value?: unknown }[] }> {
  const type = input.type ?? current.type;
  if (input.type !== undefined && input.type !== current.type) {
    const convertible: readonly number[] = [CHANNEL_TYPES.GUILD_TEXT, CHANNEL_TYPES.GUILD_ANNOUNCEMENT];
    if (!convertible.includes(current.type))
      throw ApiError.invalidForm({ type: 'Only text and announcement channels convert, into each other.' });
  }
  requireSettingsOfType(type, input);
  const voice = {
    ...(input.bitrate != null ? { bitrate: input.bitrate } : {}),
    ...(input.user_limit != null ? { user_limit: input.user_limit } : {}),
  };
  requireVoiceSettings(type, view.guild.premium_tier ?? 0, voice);
  const next: ChannelRecord = { ...current, type, ...voice };
  if (input.name !== undefined) next.name = input.name;
  if (input.topic !== undefined) next.topic = input.topic || null;
  if (input.nsfw != null) next.nsfw = input.nsfw;
  if (input.rate_limit_per_user != null) next.rate_limit_per_user = input.rate_limit_per_user;
  if (input.position != null) next.position = input.position;
  if (input.parent_id !== undefined) {
    if (input.parent_id !== null) {
      const parent = await tx.store('channels').get(input.parent_id);
      if (
        !parent ||
        parent.guild_id !== current.guild_id ||
        parent.type !== CHANNEL_TYPES.GUILD_CATEGORY ||
        current.type === CHANNEL_TYPES.GUILD_CATEGORY
      )
        throw ApiError.invalidForm({ parent_id: 'Must be a category of this guild.' });
    }
    next.parent_id = input.parent_id;
  }
  if (input.permission_overwrites != null)
    next.permission_overwrites = await checkedOverwrites(tx, view, bits, input.permission_overwrites);
  const keys = [
    'name',
    'type',
    'topic',
    'nsfw',
    'rate_limit_per_user',
    'position',
    'parent_id',
    'bitrate',
    'user_limit',
  ] as const;
  const changes: { key: string; old_value?: unknown; new_value?: unknown }[] = keys
    .filter((k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]))
    .map((k) => ({ key: k, old_value: current[k] ?? null, new_value: next[k] ?? null }));
  if (JSON.stringify(next.permission_overwrites) !== JSON.stringify(current.permission_overwrites))
    changes.push({
      key: 'permission_overwrites',
      old_value: current.permission_overwrites,
      new_value: next.permission_overwrites,
    });
  return { next, changes };
}

/**
 * `PATCH /channels/{channel.id}` of a guild channel: its settings (see the schema), answered as
 * the channel is after the change.
 * @example await modifyChannel(ctx, bot, channelId, { topic: 'Releases', rate_limit_per_user: 10 });
 */
export async function modifyChannel(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
  input: ModifyChannelInput,
): Promise<Channel> {
  return write(ctx, EDIT_STORES, async (tx, emit) => {
    const found = await channelOf(tx, principal, channelId);
    if ('dm' in found) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    const { next, changes } = await applyChanges(tx, found.channel, found.view, found.bits, input);
    if (changes.length === 0) return serializeChannel(found.channel);
    await tx.store('channels').put(next);
    emitChannelUpdate(emit, next);
    await appendAuditLogEntry(ctx, tx, {
      guild_id: next.guild_id!,
      action_type: AUDIT_LOG_EVENTS.CHANNEL_UPDATE,
      user_id: principal.user.id,
      target_id: next.id,
      changes,
    });
    return serializeChannel(next);
  });
}

/** `DELETE /channels/{channel.id}`: the deleted guild channel, or the closed DM channel. */
export async function deleteChannel(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
): Promise<Channel | DmChannel> {
  return write(ctx, DELETE_STORES, async (tx, emit) => {
    const found = await channelOf(tx, principal, channelId);
    if ('dm' in found) return found.dm;
    const { channel } = found;
    const guildId = channel.guild_id!;
    await tx.store('channels').delete(channel.id);
    const range = keyRange.bound([channel.id, ''], [channel.id, '\uffff']);
    const messages = await tx.store('channel_messages').getAll(range);
    const files = messages.flatMap((m) => [
      ...m.attachments.map((a) => a.id),
      ...(m.message_snapshots ?? []).flatMap((s) => s.message.attachments.map((a) => a.id)),
    ]);
    await tx.store('channel_messages').delete(range);
    await Promise.all(files.map((id) => tx.store('attachment_files').delete(id)));
    for (const code of await tx.store('invites').index('by_channel').getAllKeys(channel.id))
      await tx.store('invites').delete(code);
    const webhooks = await tx.store('channel_webhooks').index('by_channel').getAllKeys(channel.id);
    for (const id of webhooks) await tx.store('channel_webhooks').delete(id);
    if (webhooks.length > 0) emitWebhooksUpdate(emit, guildId, channel.id);
    if (channel.type === CHANNEL_TYPES.GUILD_CATEGORY) {
      for (const child of await tx.store('channels').index('by_guild').getAll(guildId)) {
        if (child.parent_id !== channel.id) continue;
        const freed = { ...child, parent_id: null };
        await tx.store('channels').put(freed);
        emitChannelUpdate(emit, freed);
      }
    }
    const wire = serializeChannel(channel);
    emit({ type: 'CHANNEL_DELETE', data: wire, audience: { guild_id: guildId, intent: INTENTS.GUILDS } });
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.CHANNEL_DELETE,
      user_id: principal.user.id,
      target_id: channel.id,
      changes: [
        { key: 'name', old_value: channel.name },
        { key: 'type', old_value: channel.type },
      ],
    });
    return wire;
  });
}
