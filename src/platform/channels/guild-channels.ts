/**
 * A guild's channels over HTTP, for bots with MANAGE_CHANNELS: `POST /guilds/{guild.id}/channels`
 * (with the sandbox fixture's own logic: at most 500 channels, 30013; a parent must be a category
 * of the guild) and `PATCH /guilds/{guild.id}/channels` (positions and parents). A new channel
 * appends CHANNEL_CREATE and a CHANNEL_CREATE audit entry; each moved channel CHANNEL_UPDATE
 * (GUILDS intent, obfuscated per session by the gateway for bots that cannot view it).
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INTENTS } from '../core/intents';
import { PERMISSIONS } from '../core/permissions';
import { guildPermissions, loadGuildView, requireMember, requirePermissions, txReader } from '../guilds/access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from '../guilds/audit-log';
import { insertGuildChannel } from '../guilds/fixtures';
import { serializeChannel } from '../guilds/wire';
import { CHANNEL_TYPES, type Channel, type ChannelRecord } from '../../store/records/core';
import { checkedOverwrites, requireSettingsOfType } from './channel-rules';
import type { ChannelPositionsInput, CreateGuildChannelInput } from './schemas';

/** The stores a guild channel write touches. */
export const CHANNEL_WRITE_STORES = ['guilds', 'roles', 'members', 'channels', 'audit_log_entries'] as const;

/**
 * Creates a guild channel; answers it (201).
 * @example await createGuildChannel(ctx, bot, guildId, { name: 'builds', type: 0, topic: 'CI' });
 */
export async function createGuildChannel(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  input: CreateGuildChannelInput,
): Promise<Channel> {
  return write(ctx, [...CHANNEL_WRITE_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const bits = guildPermissions(view);
    requirePermissions(bits, PERMISSIONS.MANAGE_CHANNELS);
    const type = input.type ?? CHANNEL_TYPES.GUILD_TEXT;
    requireSettingsOfType(type, input);
    const overwrites = input.permission_overwrites
      ? await checkedOverwrites(tx, view, bits, input.permission_overwrites)
      : undefined;
    const channel = await insertGuildChannel(ctx, tx, emit, guildId, {
      name: input.name,
      type,
      parent_id: input.parent_id ?? null,
      permission_overwrites: overwrites,
      topic: input.topic ?? null,
      nsfw: input.nsfw ?? false,
      ...(input.rate_limit_per_user != null ? { rate_limit_per_user: input.rate_limit_per_user } : {}),
      ...(input.bitrate != null ? { bitrate: input.bitrate } : {}),
      ...(input.user_limit != null ? { user_limit: input.user_limit } : {}),
      ...(input.position != null ? { position: input.position } : {}),
    });
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.CHANNEL_CREATE,
      user_id: principal.user.id,
      target_id: channel.id,
      changes: [
        { key: 'name', new_value: channel.name },
        { key: 'type', new_value: channel.type },
      ],
    });
    return serializeChannel(channel);
  });
}

/**
 * `PATCH /guilds/{guild.id}/channels`: each named channel of the guild takes its new position
 * and, where given, its new parent (a category of the guild, or null); `lock_permissions` copies
 * the new parent's overwrites. An unknown channel of the body is 400 50035 and nothing moves.
 */
export async function modifyChannelPositions(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  input: ChannelPositionsInput,
): Promise<void> {
  await write(ctx, [...CHANNEL_WRITE_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_CHANNELS);
    const channels = new Map((await tx.store('channels').index('by_guild').getAll(guildId)).map((c) => [c.id, c]));
    const bad: Record<string, string> = {};
    const moved: ChannelRecord[] = [];
    for (const [i, item] of input.entries()) {
      const current = channels.get(item.id);
      if (!current) {
        bad[`${i}.id`] = 'Unknown channel of this guild.';
        continue;
      }
      const next: ChannelRecord = { ...current };
      if (item.position != null) next.position = item.position;
      if (item.parent_id !== undefined) {
        const parent = item.parent_id === null ? null : channels.get(item.parent_id);
        if (
          parent === undefined ||
          (parent && (parent.type !== CHANNEL_TYPES.GUILD_CATEGORY || current.type === CHANNEL_TYPES.GUILD_CATEGORY))
        ) {
          bad[`${i}.parent_id`] = 'Must be a category of this guild.';
          continue;
        }
        next.parent_id = parent ? parent.id : null;
        if (parent && item.lock_permissions) next.permission_overwrites = [...parent.permission_overwrites];
      }
      if (JSON.stringify(next) !== JSON.stringify(current)) moved.push(next);
    }
    if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
    for (const channel of moved) {
      await tx.store('channels').put(channel);
      emit({
        type: 'CHANNEL_UPDATE',
        data: serializeChannel(channel),
        audience: { guild_id: guildId, intent: INTENTS.GUILDS },
      });
    }
  });
}
