/**
 * A guild's welcome screen: `GET /guilds/{guild.id}/welcome-screen` (any member while it is
 * enabled, MANAGE_GUILD otherwise) and `PATCH` (MANAGE_GUILD): a description of up to 140
 * characters and up to 5 of the guild's channels, each with a description and an optional emoji.
 * A change emits GUILD_UPDATE (the guild's WELCOME_SCREEN_ENABLED feature follows `enabled`).
 */
import { write } from '../../store/write';
import type { WelcomeChannelRecord } from '../../store/records/guild-settings';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PERMISSIONS } from '../core/permissions';
import { dbReader, guildPermissions, loadGuildView, requireMember, requirePermissions, txReader } from './access';
import { GUILD_SETTINGS_STORES, readGuildSettings, storeGuildSettings, txGuildSettings } from './guild-settings';

/** The welcome screen on the wire. */
function serializeWelcomeScreen(screen: { description: string | null; welcome_channels: WelcomeChannelRecord[] }) {
  return {
    description: screen.description,
    welcome_channels: screen.welcome_channels.map((c) => ({ ...c })),
  };
}

/**
 * `GET /guilds/{guild.id}/welcome-screen`.
 * @example const screen = await getWelcomeScreen(ctx, bot, guildId);
 */
export async function getWelcomeScreen(ctx: PlatformContext, principal: BotPrincipal, guildId: string) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  const settings = await readGuildSettings(ctx.db, guildId);
  if (!settings.welcome_screen.enabled) requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
  return serializeWelcomeScreen(settings.welcome_screen);
}

/** What `PATCH /guilds/{guild.id}/welcome-screen` may change (absent or null: unchanged). */
export interface WelcomeScreenChange {
  enabled?: boolean | null;
  description?: string | null;
  welcome_channels?:
    | { channel_id: string; description: string; emoji_id?: string | null; emoji_name?: string | null }[]
    | null;
}

/**
 * `PATCH /guilds/{guild.id}/welcome-screen`: each welcome channel must be a channel of the
 * guild (400 50035 naming it otherwise), and a custom emoji one of the guild's.
 */
export async function modifyWelcomeScreen(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  change: WelcomeScreenChange,
) {
  return write(ctx, [...GUILD_SETTINGS_STORES], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
    const settings = await txGuildSettings(tx, guildId);
    const screen = { ...settings.welcome_screen };
    if (change.enabled != null) screen.enabled = change.enabled;
    if (change.description !== undefined) screen.description = change.description;
    if (change.welcome_channels != null) {
      const bad: Record<string, string> = {};
      const channels = await Promise.all(change.welcome_channels.map((c) => tx.store('channels').get(c.channel_id)));
      const emojis = await Promise.all(
        change.welcome_channels.map((c) => (c.emoji_id ? tx.store('emojis').get(c.emoji_id) : undefined)),
      );
      change.welcome_channels.forEach((c, i) => {
        if (channels[i]?.guild_id !== guildId) bad[`welcome_channels.${i}.channel_id`] = 'Unknown channel.';
        if (c.emoji_id && emojis[i]?.guild_id !== guildId) bad[`welcome_channels.${i}.emoji_id`] = 'Unknown emoji.';
      });
      if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
      screen.welcome_channels = change.welcome_channels.map((c) => ({
        channel_id: c.channel_id,
        description: c.description,
        emoji_id: c.emoji_id ?? null,
        emoji_name: c.emoji_name ?? null,
      }));
    }
    await storeGuildSettings(
      tx,
      emit,
      view.guild,
      view.roles,
      { ...settings, welcome_screen: screen },
      ctx.clock.now(),
    );
    return serializeWelcomeScreen(screen);
  });
}
