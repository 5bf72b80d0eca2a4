/**
 * Get Guild (`GET /guilds/{guild.id}`) and Get Guild Roles (`GET /guilds/{guild.id}/roles`), for
 * a bot that is a member (403 50001 otherwise, 404 10004 for an unknown guild), as the public
 * docs have them. With `with_counts=true` the guild carries `approximate_member_count` and
 * `approximate_presence_count` (members whose shown status is not offline).
 */
import type { PlatformContext } from '../core/context';
import type { Principal } from '../oauth2/auth';
import { countOnlineMembers } from '../presence/presence';
import { keyRange } from '../../store/port';
import type { GuildRecord, RoleRecord } from '../../store/records/core';
import type { GuildSettingsRecord } from '../../store/records/guild-settings';
import { dbReader, loadGuildView, requireMember } from './access';
import { listGuildEmojis } from './emoji';
import { guildSettingsFields, readGuildSettings } from './guild-settings';
import { serializeGuild, serializeRole } from './wire';

/**
 * The guild object's settings that the sandbox has no way to change: each as a guild that never
 * set it has it on the platform (no AFK, system, rules or widget channel; the default 5-minute
 * AFK timeout; no verification, MFA or content filter level; `region` is deprecated and answers
 * so; the default member and video limits of a new guild).
 */
function unchangeableSettings(guild: GuildRecord) {
  return {
    description: null,
    home_header: null,
    splash: null,
    discovery_splash: null,
    application_id: null,
    region: 'deprecated',
    afk_channel_id: null,
    afk_timeout: 300,
    system_channel_id: null,
    system_channel_flags: 0,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 0,
    default_message_notifications: 0,
    mfa_level: 0,
    explicit_content_filter: 0,
    max_presences: null,
    max_members: 500_000,
    max_stage_video_channel_users: 50,
    max_video_channel_users: 25,
    vanity_url_code: null,
    premium_tier: guild.premium_tier ?? 0,
    premium_subscription_count: 0,
    preferred_locale: 'en-US',
    rules_channel_id: null,
    safety_alerts_channel_id: null,
    public_updates_channel_id: null,
    premium_progress_bar_enabled: false,
    nsfw: false,
    nsfw_level: 0,
    incidents_data: null,
  };
}

/**
 * `GET /guilds/{guild.id}[?with_counts=true]`: the guild with its roles and emoji.
 * @example const guild = await getGuild(ctx, principal, guildId, { withCounts: true });
 */
export async function getGuild(
  ctx: PlatformContext,
  principal: Principal,
  guildId: string,
  options: { withCounts: boolean },
) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  const emojis = await listGuildEmojis(ctx, principal, guildId);
  const counts = options.withCounts
    ? {
        approximate_member_count: await ctx.db.count('members', keyRange.bound([guildId], [guildId, []])),
        approximate_presence_count: await countOnlineMembers(ctx, guildId),
      }
    : {};
  const settings = await readGuildSettings(ctx.db, guildId);
  return { ...guildObject(view.guild, view.roles, emojis, settings, ctx.clock.now()), ...counts };
}

/**
 * The full guild object (as Get Guild, Modify Guild and GUILD_UPDATE carry it) from its record,
 * roles, serialized emoji and settings, with the incident actions in force at `now`.
 */
export function guildObject<E>(
  guild: GuildRecord,
  roles: RoleRecord[],
  emojis: E[],
  settings: GuildSettingsRecord,
  now: number,
) {
  return {
    ...unchangeableSettings(guild),
    ...serializeGuild(guild, sortedRoles(roles)),
    ...guildSettingsFields(guild, settings, now),
    emojis,
    stickers: [],
  };
}

/** Roles by position, then id (the order the platform lists them in). */
function sortedRoles<R extends { position: number; id: string }>(roles: R[]): R[] {
  return [...roles].sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

/**
 * `GET /guilds/{guild.id}/roles`: every role of the guild, @everyone included.
 * @example const roles = await listGuildRoles(ctx, principal, guildId);
 */
export async function listGuildRoles(ctx: PlatformContext, principal: Principal, guildId: string) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  return sortedRoles(view.roles).map(serializeRole);
}
