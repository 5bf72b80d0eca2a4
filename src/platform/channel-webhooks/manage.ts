/**
 * Incoming webhooks managed with a bot's token: `POST` / `GET /channels/{channel.id}/webhooks`,
 * `GET /guilds/{guild.id}/webhooks`, and `GET` / `PATCH` / `DELETE /webhooks/{webhook.id}`. Every
 * one needs MANAGE_WEBHOOKS (in the channel, or in the guild for the guild's list) and a channel
 * the bot can view (50001 otherwise). A channel holds at most 15 webhooks (30007), a guild 1000
 * (30058). Each change appends WEBHOOKS_UPDATE `{guild_id, channel_id}` (GUILD_WEBHOOKS intent)
 * and a WEBHOOK_CREATE / UPDATE / DELETE audit entry; neither ever carries the token.
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PERMISSIONS } from '../core/permissions';
import { generateSecret } from '../core/secrets';
import { WEBHOOKS_PER_CHANNEL_MAX, WEBHOOKS_PER_GUILD_MAX } from '../core/limits';
import {
  canViewChannel,
  channelPermissions,
  dbReader,
  guildPermissions,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
  type GuildStoreReader,
} from '../guilds/access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from '../guilds/audit-log';
import { TEXT_CHANNEL_TYPES } from '../messages/access';
import { CHANNEL_TYPES, type ChannelRecord } from '../../store/records/core';
import { WEBHOOK_TYPES, type ChannelWebhookRecord } from '../../store/records/channel-webhooks';
import type { ModifyWebhookInput } from './schemas';
import {
  WEBHOOK_WRITE_STORES,
  decodeAvatar,
  emitWebhooksUpdate,
  removeWebhook,
  saveModification,
  webhookOf,
} from './changes';
import { serializeWebhook, type WebhookObject } from './wire';

/** Channels that take webhooks: those that hold messages, and forums. */
const WEBHOOK_CHANNEL_TYPES: readonly number[] = [...TEXT_CHANNEL_TYPES, CHANNEL_TYPES.GUILD_FORUM];

/**
 * The guild channel, checked for the bot: 404 10003 for none, 50001 when not viewable,
 * 50013 without MANAGE_WEBHOOKS in it.
 */
async function managedChannel(
  reader: GuildStoreReader,
  channel: ChannelRecord | undefined,
  principal: BotPrincipal,
): Promise<ChannelRecord> {
  if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  const view = await loadGuildView(reader, channel.guild_id, principal.user.id);
  requireMember(view);
  if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
  requirePermissions(channelPermissions(view, channel), PERMISSIONS.MANAGE_WEBHOOKS);
  return channel;
}

/**
 * Creates an incoming webhook `{name, avatar?}` in a channel; answers it with its token and creator.
 * @example const hook = await createWebhook(ctx, bot, channelId, { name: 'Deploys' });
 */
export async function createWebhook(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
  input: { name: string; avatar?: string | null },
): Promise<WebhookObject> {
  const avatar = await decodeAvatar(input.avatar);
  return write(ctx, WEBHOOK_WRITE_STORES, async (tx, emit) => {
    const channel = await managedChannel(txReader(tx), await tx.store('channels').get(channelId), principal);
    if (!WEBHOOK_CHANNEL_TYPES.includes(channel.type)) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    const guildId = channel.guild_id!;
    if ((await tx.store('channel_webhooks').index('by_channel').count(channelId)) >= WEBHOOKS_PER_CHANNEL_MAX)
      throw ApiError.of('WEBHOOKS_MAX');
    if ((await tx.store('channel_webhooks').index('by_guild').count(guildId)) >= WEBHOOKS_PER_GUILD_MAX)
      throw ApiError.of('GUILD_WEBHOOKS_MAX');
    const webhook: ChannelWebhookRecord = {
      id: ctx.ids.next(),
      type: WEBHOOK_TYPES.INCOMING,
      guild_id: guildId,
      channel_id: channelId,
      name: input.name,
      avatar: avatar?.hash ?? null,
      avatar_data: avatar?.dataUri ?? null,
      token: generateSecret(51),
      user_id: principal.user.id,
      application_id: principal.application.id,
      created_at: ctx.clock.now(),
    };
    await tx.store('channel_webhooks').add(webhook);
    emitWebhooksUpdate(emit, guildId, channelId);
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.WEBHOOK_CREATE,
      user_id: principal.user.id,
      target_id: webhook.id,
      changes: [
        { key: 'name', new_value: webhook.name },
        { key: 'type', new_value: webhook.type },
        { key: 'channel_id', new_value: channelId },
        ...(webhook.avatar ? [{ key: 'avatar_hash', new_value: webhook.avatar }] : []),
      ],
    });
    return serializeWebhook(webhook, { creator: principal.user, withToken: true });
  });
}

/** The webhooks with their creators, oldest first. */
async function withCreators(ctx: PlatformContext, webhooks: ChannelWebhookRecord[]): Promise<WebhookObject[]> {
  const sorted = [...webhooks].sort((a, b) => a.created_at - b.created_at || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const creators = await Promise.all(sorted.map((w) => ctx.db.get('users', w.user_id)));
  return sorted.map((w, i) =>
    serializeWebhook(w, { creator: creators[i], withToken: w.type === WEBHOOK_TYPES.INCOMING }),
  );
}

/** `GET /channels/{channel.id}/webhooks`: the channel's webhooks (MANAGE_WEBHOOKS in it). */
export async function listChannelWebhooks(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
): Promise<WebhookObject[]> {
  await managedChannel(dbReader(ctx.db), await ctx.db.get('channels', channelId), principal);
  return withCreators(ctx, await ctx.db.getAllFromIndex('channel_webhooks', 'by_channel', channelId));
}

/** `GET /guilds/{guild.id}/webhooks`: every webhook of the guild (MANAGE_WEBHOOKS in the guild). */
export async function listGuildWebhooks(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
): Promise<WebhookObject[]> {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_WEBHOOKS);
  return withCreators(ctx, await ctx.db.getAllFromIndex('channel_webhooks', 'by_guild', guildId));
}

/** `GET /webhooks/{webhook.id}`: MANAGE_WEBHOOKS in its channel. */
export async function getWebhook(
  ctx: PlatformContext,
  principal: BotPrincipal,
  webhookId: string,
): Promise<WebhookObject> {
  const webhook = await ctx.db.get('channel_webhooks', webhookId);
  if (!webhook) throw ApiError.of('UNKNOWN_WEBHOOK');
  await managedChannel(dbReader(ctx.db), await ctx.db.get('channels', webhook.channel_id), principal);
  const [answer] = await withCreators(ctx, [webhook]);
  return answer;
}

/**
 * `PATCH /webhooks/{webhook.id}`: name, avatar, and `channel_id` (a channel of the same guild
 * where the bot also has MANAGE_WEBHOOKS; another guild's is 400 50035).
 */
export async function modifyWebhook(
  ctx: PlatformContext,
  principal: BotPrincipal,
  webhookId: string,
  input: ModifyWebhookInput,
): Promise<WebhookObject> {
  const avatar = await decodeAvatar(input.avatar);
  return write(ctx, WEBHOOK_WRITE_STORES, async (tx, emit) => {
    const current = await webhookOf(tx, webhookId);
    const reader = txReader(tx);
    await managedChannel(reader, await tx.store('channels').get(current.channel_id), principal);
    if (input.channel_id !== undefined && input.channel_id !== current.channel_id) {
      const target = await tx.store('channels').get(input.channel_id);
      if (!target || target.guild_id !== current.guild_id)
        throw ApiError.invalidForm({ channel_id: "Must be a channel of the webhook's guild." });
      await managedChannel(reader, target, principal);
      if (!WEBHOOK_CHANNEL_TYPES.includes(target.type)) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
      if ((await tx.store('channel_webhooks').index('by_channel').count(target.id)) >= WEBHOOKS_PER_CHANNEL_MAX)
        throw ApiError.of('WEBHOOKS_MAX');
    }
    const next = await saveModification(
      ctx,
      tx,
      emit,
      current,
      { name: input.name, avatar, channel_id: input.channel_id },
      principal.user.id,
    );
    const creator = await tx.store('users').get(next.user_id);
    return serializeWebhook(next, { creator, withToken: true });
  });
}

/** `DELETE /webhooks/{webhook.id}`: MANAGE_WEBHOOKS in its channel. */
export async function deleteWebhook(ctx: PlatformContext, principal: BotPrincipal, webhookId: string): Promise<void> {
  await write(ctx, WEBHOOK_WRITE_STORES, async (tx, emit) => {
    const webhook = await webhookOf(tx, webhookId);
    await managedChannel(txReader(tx), await tx.store('channels').get(webhook.channel_id), principal);
    await removeWebhook(ctx, tx, emit, webhook, principal.user.id);
  });
}
