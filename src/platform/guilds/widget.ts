/**
 * A guild's widget: its settings (`GET` / `PATCH /guilds/{guild.id}/widget`, MANAGE_GUILD; a
 * change emits GUILD_UPDATE and writes a GUILD_UPDATE audit entry with the `widget_enabled` /
 * `widget_channel_id` changes) and the public widget (`GET /guilds/{guild.id}/widget.json`, no
 * token): the voice channels @everyone can see and the online members, from the stored
 * presences, at most 100, with their voice state in a listed channel. A disabled widget answers
 * 403 (50004).
 */
import { write } from '../../store/write';
import { keyRange } from '../../store/port';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { WIDGET_MEMBERS_MAX } from '../core/limits';
import { PERMISSIONS, computeChannelPermissions, hasPermission, parsePermissions } from '../core/permissions';
import {
  CHANNEL_TYPES,
  type ChannelRecord,
  type GuildRecord,
  type MemberRecord,
  type RoleRecord,
} from '../../store/records/core';
import type { VoiceStateRecord } from '../../store/records/guilds';
import { shownStatus } from '../presence/shown';
import {
  dbReader,
  guildPermissions,
  loadGuildView,
  requireMember,
  requirePermissions,
  toPermissionOverwrites,
  txReader,
} from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { GUILD_SETTINGS_STORES, readGuildSettings, storeGuildSettings, txGuildSettings } from './guild-settings';
import { widgetInviteUrl } from './widget-invite';

/**
 * `GET /guilds/{guild.id}/widget`: `{enabled, channel_id}`.
 * @example const { enabled } = await getWidgetSettings(ctx, bot, guildId);
 */
export async function getWidgetSettings(ctx: PlatformContext, principal: BotPrincipal, guildId: string) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
  const { enabled, channel_id } = (await readGuildSettings(ctx.db, guildId)).widget;
  return { enabled, channel_id };
}

/**
 * `PATCH /guilds/{guild.id}/widget`: `channel_id` must be a channel of the guild, or null.
 */
export async function modifyWidgetSettings(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  change: { enabled?: boolean | null; channel_id?: string | null },
) {
  return write(ctx, [...GUILD_SETTINGS_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
    if (change.channel_id) {
      const channel = await tx.store('channels').get(change.channel_id);
      if (channel?.guild_id !== guildId) throw ApiError.invalidForm({ channel_id: 'Unknown channel.' });
    }
    const settings = await txGuildSettings(tx, guildId);
    const widget = {
      ...settings.widget,
      enabled: change.enabled ?? settings.widget.enabled,
      channel_id: change.channel_id === undefined ? settings.widget.channel_id : change.channel_id,
    };
    const changes = [
      ...(widget.enabled !== settings.widget.enabled
        ? [{ key: 'widget_enabled', old_value: settings.widget.enabled, new_value: widget.enabled }]
        : []),
      ...(widget.channel_id !== settings.widget.channel_id
        ? [{ key: 'widget_channel_id', old_value: settings.widget.channel_id, new_value: widget.channel_id }]
        : []),
    ];
    const answer = { enabled: widget.enabled, channel_id: widget.channel_id };
    if (changes.length === 0) return answer;
    await storeGuildSettings(tx, emit, view.guild, view.roles, { ...settings, widget }, ctx.clock.now());
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.GUILD_UPDATE,
      user_id: principal.user.id,
      target_id: guildId,
      changes,
    });
    return answer;
  });
}

/** True when @everyone (no role, no member overwrite) can see the channel. */
function everyoneSees(guild: GuildRecord, roles: RoleRecord[], channel: ChannelRecord): boolean {
  const bits = computeChannelPermissions(
    {
      guildId: guild.id,
      ownerId: guild.owner_id,
      userId: '0',
      roles: roles.map((r) => ({ id: r.id, permissions: parsePermissions(r.permissions) ?? 0n })),
      memberRoleIds: [],
    },
    toPermissionOverwrites(channel.permission_overwrites),
  );
  return hasPermission(bits, PERMISSIONS.VIEW_CHANNEL);
}

/** The platform's default avatar of a user id, as the widget links it. */
function defaultAvatarUrl(userId: string): string {
  return `https://cdn.discordapp.com/embed/avatars/${Number((BigInt(userId) >> 22n) % 6n)}.png`;
}

/** A member's voice state as the widget shows it: only in a channel the widget lists. */
function voiceFields(member: MemberRecord, state: VoiceStateRecord | undefined, listed: Set<string>) {
  if (!state || !listed.has(state.channel_id)) return {};
  return {
    channel_id: state.channel_id,
    deaf: member.deaf ?? false,
    mute: member.mute ?? false,
    self_deaf: state.self_deaf,
    self_mute: state.self_mute,
    suppress: state.suppress,
  };
}

/** The widget's data: a disabled widget or an unknown guild refuses it. */
export async function readWidget(ctx: PlatformContext, guildId: string) {
  const tx = ctx.db.read([
    'guilds',
    'roles',
    'channels',
    'members',
    'users',
    'presences',
    'voice_states',
    'guild_settings',
  ]);
  const guild = await tx.store('guilds').get(guildId);
  if (!guild) throw ApiError.of('UNKNOWN_GUILD');
  const settings = (await tx.store('guild_settings').get(guildId))?.widget;
  if (!settings?.enabled) throw ApiError.of('WIDGET_DISABLED');
  const roles = await tx.store('roles').index('by_guild').getAll(guildId);
  const channels = (await tx.store('channels').index('by_guild').getAll(guildId))
    .filter((c) => c.type === CHANNEL_TYPES.GUILD_VOICE || c.type === CHANNEL_TYPES.GUILD_STAGE_VOICE)
    .filter((c) => everyoneSees(guild, roles, c))
    .sort((a, b) => a.position - b.position);
  const members = await tx.store('members').getAll(keyRange.bound([guildId, ''], [guildId, '\uffff']));
  const presences = await Promise.all(members.map((m) => tx.store('presences').get(m.user_id)));
  const online = members
    .map((m, i) => ({ member: m, status: shownStatus(presences[i]?.sessions) }))
    .filter((m) => m.status !== 'offline');
  const users = await Promise.all(online.map((m) => tx.store('users').get(m.member.user_id)));
  const voice = await Promise.all(online.map((m) => tx.store('voice_states').get([guildId, m.member.user_id])));
  return { guild, channels, online, users, voice, channel_id: settings.channel_id };
}

/**
 * `GET /guilds/{guild.id}/widget.json`. Member ids are the list's own indexes, not user ids,
 * as on the platform; `instant_invite` is an invite to the widget's invite channel, or null.
 * @example const widget = await getWidget(ctx, guildId);
 */
export async function getWidget(ctx: PlatformContext, guildId: string) {
  const { guild, channels, online, users, voice } = await readWidget(ctx, guildId);
  const listed = new Set(channels.map((c) => c.id));
  return {
    id: guild.id,
    name: guild.name,
    instant_invite: await widgetInviteUrl(ctx, guildId),
    channels: channels.map((c) => ({ id: c.id, name: c.name ?? '', position: c.position })),
    members: online.slice(0, WIDGET_MEMBERS_MAX).flatMap((m, i) => {
      const user = users[i];
      if (!user) return [];
      return [
        {
          id: String(i),
          username: user.username,
          discriminator: '0000',
          avatar: null,
          status: m.status,
          avatar_url: defaultAvatarUrl(user.id),
          ...voiceFields(m.member, voice[i], listed),
        },
      ];
    }),
    presence_count: online.length,
  };
}
