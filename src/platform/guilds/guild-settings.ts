/**
 * A guild's stored settings (widget, welcome screen, onboarding, incident actions): read with
 * their defaults, changed inside a write with GUILD_UPDATE (GUILDS intent) when the guild object
 * shows the change, and the guild object's fields that come from them.
 */
import type { PlatformStorage } from '../../store/schema';
import type { Emit, WriteTx } from '../../store/write';
import type { GuildRecord, RoleRecord } from '../../store/records/core';
import type { GuildSettingsRecord } from '../../store/records/guild-settings';
import { serializeEmoji } from '../accounts/application-emoji';
import { INTENTS } from '../core/intents';
import { serializeGuild } from './wire';

/** The stores a guild settings change writes in. */
export const GUILD_SETTINGS_STORES = [
  'guilds',
  'roles',
  'members',
  'channels',
  'emojis',
  'guild_settings',
  'audit_log_entries',
] as const;

/** The settings of a guild that never changed any: what the platform answers for a new guild. */
export function defaultGuildSettings(guildId: string): GuildSettingsRecord {
  return {
    guild_id: guildId,
    widget: { enabled: false, channel_id: null },
    welcome_screen: { enabled: false, description: null, welcome_channels: [] },
    onboarding: { enabled: false, mode: 0, default_channel_ids: [], prompts: [] },
    incidents: { invites_disabled_until: null, dms_disabled_until: null },
  };
}

/** A guild's settings from the database (defaults when none are stored). */
export async function readGuildSettings(db: PlatformStorage, guildId: string): Promise<GuildSettingsRecord> {
  return (await db.get('guild_settings', guildId)) ?? defaultGuildSettings(guildId);
}

/** A guild's settings inside a write that includes `guild_settings`. */
export async function txGuildSettings(tx: WriteTx, guildId: string): Promise<GuildSettingsRecord> {
  return (await tx.store('guild_settings').get(guildId)) ?? defaultGuildSettings(guildId);
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** `incidents_data` as the guild object and Modify Guild Incident Actions answer it. */
export function serializeIncidents(settings: GuildSettingsRecord, now: number) {
  // A pause that has ended reads as none, as the platform clears it.
  const live = (until: number | null) => (until !== null && until > now ? until : null);
  return {
    invites_disabled_until: iso(live(settings.incidents.invites_disabled_until)),
    dms_disabled_until: iso(live(settings.incidents.dms_disabled_until)),
  };
}

/**
 * The guild object's fields that follow the stored settings: the widget's, `incidents_data`
 * (null when nothing is paused), and the features the settings turn on (WELCOME_SCREEN_ENABLED,
 * INVITES_DISABLED while invites are paused). GUILD_ONBOARDING is not among them: the official
 * API description does not list that feature.
 */
export function guildSettingsFields(guild: GuildRecord, settings: GuildSettingsRecord, now: number) {
  const incidents = serializeIncidents(settings, now);
  const derived = new Set(['WELCOME_SCREEN_ENABLED', 'INVITES_DISABLED']);
  const features = guild.features.filter((f) => !derived.has(f));
  if (settings.welcome_screen.enabled) features.push('WELCOME_SCREEN_ENABLED');
  if (incidents.invites_disabled_until !== null) features.push('INVITES_DISABLED');
  return {
    widget_enabled: settings.widget.enabled,
    widget_channel_id: settings.widget.channel_id,
    incidents_data: incidents.invites_disabled_until || incidents.dms_disabled_until ? incidents : null,
    features,
  };
}

/** True while the guild's invites are paused (incident actions). */
export function invitesPaused(settings: GuildSettingsRecord | undefined, now: number): boolean {
  const until = settings?.incidents.invites_disabled_until ?? null;
  return until !== null && until > now;
}

/**
 * Stores `settings` and emits GUILD_UPDATE with the guild object as it now is (GUILDS intent).
 * The write must include `guilds`, `roles`, `emojis` and `guild_settings`.
 */
export async function storeGuildSettings(
  tx: WriteTx,
  emit: Emit,
  guild: GuildRecord,
  roles: RoleRecord[],
  settings: GuildSettingsRecord,
  now: number,
): Promise<void> {
  await tx.store('guild_settings').put(settings);
  const emojis = await tx.store('emojis').index('by_guild').getAll(guild.id);
  const sorted = [...roles].sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  emit({
    type: 'GUILD_UPDATE',
    data: {
      ...serializeGuild(guild, sorted),
      ...guildSettingsFields(guild, settings, now),
      emojis: emojis.sort((a, b) => a.created_at - b.created_at).map((e) => serializeEmoji(e)),
      stickers: [],
    },
    audience: { guild_id: guild.id, intent: INTENTS.GUILDS },
  });
}
