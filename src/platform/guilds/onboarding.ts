/**
 * A guild's onboarding: `GET /guilds/{guild.id}/onboarding` (members) and `PUT` (MANAGE_GUILD
 * and MANAGE_ROLES): prompts (up to 15, each with 1-50 options granting roles and channels of
 * the guild), default channels and the mode. Enabled onboarding needs at least 7 default
 * channels, 5 of them where @everyone may send messages (in advanced mode the channels the
 * prompts' options grant count too): enabling below that is 400 (350000), changing an enabled
 * onboarding to below it 400 (350001). Audit entries: ONBOARDING_UPDATE for the settings,
 * ONBOARDING_PROMPT_CREATE / UPDATE / DELETE per prompt; GUILD_UPDATE follows.
 */
import { write } from '../../store/write';
import type { WriteTx } from '../../store/write';
import type { ChannelRecord } from '../../store/records/core';
import type { GuildSettingsRecord, OnboardingPromptRecord } from '../../store/records/guild-settings';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { ONBOARDING_DEFAULT_CHANNELS_MIN, ONBOARDING_SENDABLE_CHANNELS_MIN } from '../core/limits';
import { PERMISSIONS, computeChannelPermissions, hasPermission, parsePermissions } from '../core/permissions';
import {
  dbReader,
  guildPermissions,
  loadGuildView,
  requireMember,
  requirePermissions,
  toPermissionOverwrites,
  txReader,
  type GuildView,
} from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { GUILD_SETTINGS_STORES, readGuildSettings, storeGuildSettings, txGuildSettings } from './guild-settings';

/** The onboarding object on the wire. */
function serializeOnboarding(guildId: string, onboarding: GuildSettingsRecord['onboarding']) {
  return {
    guild_id: guildId,
    prompts: onboarding.prompts.map((p) => ({
      id: p.id,
      type: p.type,
      title: p.title,
      single_select: p.single_select,
      required: p.required,
      in_onboarding: p.in_onboarding,
      options: p.options.map((o) => ({
        id: o.id,
        title: o.title,
        description: o.description,
        emoji: { id: o.emoji_id, name: o.emoji_name, animated: o.emoji_animated },
        role_ids: [...o.role_ids],
        channel_ids: [...o.channel_ids],
      })),
    })),
    default_channel_ids: [...onboarding.default_channel_ids],
    enabled: onboarding.enabled,
    mode: onboarding.mode,
  };
}

/**
 * `GET /guilds/{guild.id}/onboarding`.
 * @example const { prompts } = await getOnboarding(ctx, bot, guildId);
 */
export async function getOnboarding(ctx: PlatformContext, principal: BotPrincipal, guildId: string) {
  requireMember(await loadGuildView(dbReader(ctx.db), guildId, principal.user.id));
  return serializeOnboarding(guildId, (await readGuildSettings(ctx.db, guildId)).onboarding);
}

/** The body of `PUT /guilds/{guild.id}/onboarding` (absent or null: unchanged). */
export interface OnboardingChange {
  prompts?:
    | {
        id: string;
        title: string;
        options: {
          id?: string | null;
          title: string;
          description?: string | null;
          emoji_id?: string | null;
          emoji_name?: string | null;
          emoji_animated?: boolean | null;
          role_ids?: string[] | null;
          channel_ids?: string[] | null;
        }[];
        single_select?: boolean | null;
        required?: boolean | null;
        in_onboarding?: boolean | null;
        type?: 0 | 1 | null;
      }[]
    | null;
  default_channel_ids?: string[] | null;
  enabled?: boolean | null;
  mode?: 0 | 1 | null;
}

/** True when @everyone may view and send messages in the channel. */
function everyoneMaySend(view: GuildView, channel: ChannelRecord): boolean {
  const bits = computeChannelPermissions(
    {
      guildId: view.guild.id,
      ownerId: view.guild.owner_id,
      userId: '0',
      roles: view.roles.map((r) => ({ id: r.id, permissions: parsePermissions(r.permissions) ?? 0n })),
      memberRoleIds: [],
    },
    toPermissionOverwrites(channel.permission_overwrites),
  );
  return hasPermission(bits, PERMISSIONS.VIEW_CHANNEL | PERMISSIONS.SEND_MESSAGES);
}

/** Whether the onboarding meets the platform's constraints for being enabled. */
async function meetsRequirements(tx: WriteTx, view: GuildView, onboarding: GuildSettingsRecord['onboarding']) {
  const ids = new Set(onboarding.default_channel_ids);
  if (onboarding.mode === 1)
    for (const p of onboarding.prompts) for (const o of p.options) for (const c of o.channel_ids) ids.add(c);
  const channels = await Promise.all([...ids].map((id) => tx.store('channels').get(id)));
  const present = channels.filter((c): c is ChannelRecord => c?.guild_id === view.guild.id);
  return (
    present.length >= ONBOARDING_DEFAULT_CHANNELS_MIN &&
    present.filter((c) => everyoneMaySend(view, c)).length >= ONBOARDING_SENDABLE_CHANNELS_MIN
  );
}

/** Checks every role, channel and emoji the body names against the guild (400 50035 naming each). */
async function requireGuildReferences(tx: WriteTx, view: GuildView, change: OnboardingChange) {
  const guildId = view.guild.id;
  const bad: Record<string, string> = {};
  const channelOk = async (id: string) => (await tx.store('channels').get(id))?.guild_id === guildId;
  for (const [i, id] of (change.default_channel_ids ?? []).entries())
    if (!(await channelOk(id))) bad[`default_channel_ids.${i}`] = 'Unknown channel.';
  for (const [i, prompt] of (change.prompts ?? []).entries()) {
    for (const [j, option] of prompt.options.entries()) {
      const at = `prompts.${i}.options.${j}`;
      for (const [k, id] of (option.role_ids ?? []).entries())
        if (id === guildId || !view.roles.some((r) => r.id === id)) bad[`${at}.role_ids.${k}`] = 'Unknown role.';
      for (const [k, id] of (option.channel_ids ?? []).entries())
        if (!(await channelOk(id))) bad[`${at}.channel_ids.${k}`] = 'Unknown channel.';
      if (option.emoji_id && (await tx.store('emojis').get(option.emoji_id))?.guild_id !== guildId)
        bad[`${at}.emoji_id`] = 'Unknown emoji.';
      if (!option.emoji_id && !option.emoji_name && option.emoji_animated)
        bad[`${at}.emoji_animated`] = 'An option without an emoji cannot be animated.';
    }
  }
  if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
}

/** The stored prompts of a body, with ids for the options that came without one. */
function promptsOf(ctx: PlatformContext, prompts: NonNullable<OnboardingChange['prompts']>): OnboardingPromptRecord[] {
  return prompts.map((p) => ({
    id: p.id,
    type: p.type ?? 0,
    title: p.title,
    single_select: p.single_select ?? false,
    required: p.required ?? false,
    in_onboarding: p.in_onboarding ?? true,
    options: p.options.map((o) => ({
      id: o.id ?? ctx.ids.next(),
      title: o.title,
      description: o.description ?? '',
      emoji_id: o.emoji_id ?? null,
      emoji_name: o.emoji_name ?? null,
      emoji_animated: o.emoji_animated ?? false,
      role_ids: [...new Set(o.role_ids ?? [])],
      channel_ids: [...new Set(o.channel_ids ?? [])],
    })),
  }));
}

/**
 * `PUT /guilds/{guild.id}/onboarding`: answers the onboarding as stored.
 * @example await modifyOnboarding(ctx, bot, guildId, { enabled: true, default_channel_ids: ids, mode: 0 });
 */
export async function modifyOnboarding(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  change: OnboardingChange,
) {
  return write(ctx, [...GUILD_SETTINGS_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD | PERMISSIONS.MANAGE_ROLES);
    await requireGuildReferences(tx, view, change);
    const settings = await txGuildSettings(tx, guildId);
    const before = settings.onboarding;
    const after = {
      enabled: change.enabled ?? before.enabled,
      mode: change.mode ?? before.mode,
      default_channel_ids: change.default_channel_ids
        ? [...new Set(change.default_channel_ids)]
        : before.default_channel_ids,
      prompts: change.prompts ? promptsOf(ctx, change.prompts) : before.prompts,
    };
    if (after.enabled && !(await meetsRequirements(tx, view, after)))
      throw ApiError.of(before.enabled ? 'ONBOARDING_BELOW_REQUIREMENTS' : 'ONBOARDING_REQUIREMENTS_NOT_MET');
    await storeGuildSettings(tx, emit, view.guild, view.roles, { ...settings, onboarding: after }, ctx.clock.now());
    const entry = (
      action_type: number,
      target_id: string | null,
      changes: { key: string; old_value?: unknown; new_value?: unknown }[],
    ) =>
      appendAuditLogEntry(ctx, tx, { guild_id: guildId, action_type, user_id: principal.user.id, target_id, changes });
    const changes = (['enabled', 'mode', 'default_channel_ids'] as const)
      .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      .map((key) => ({ key, old_value: before[key], new_value: after[key] }));
    if (changes.length > 0) await entry(AUDIT_LOG_EVENTS.ONBOARDING_UPDATE, guildId, changes);
    const old = new Map(before.prompts.map((p) => [p.id, p]));
    for (const prompt of after.prompts) {
      const was = old.get(prompt.id);
      if (!was)
        await entry(AUDIT_LOG_EVENTS.ONBOARDING_PROMPT_CREATE, prompt.id, [{ key: 'title', new_value: prompt.title }]);
      else if (JSON.stringify(was) !== JSON.stringify(prompt))
        await entry(AUDIT_LOG_EVENTS.ONBOARDING_PROMPT_UPDATE, prompt.id, [
          { key: 'title', old_value: was.title, new_value: prompt.title },
        ]);
      old.delete(prompt.id);
    }
    for (const gone of old.values())
      await entry(AUDIT_LOG_EVENTS.ONBOARDING_PROMPT_DELETE, gone.id, [{ key: 'title', old_value: gone.title }]);
    return serializeOnboarding(guildId, after);
  });
}
