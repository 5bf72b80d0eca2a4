/**
 * Modify Guild (`PATCH /guilds/{guild.id}`, public docs) for the settings the sandbox's guild
 * object keeps: `name` (2-100 characters), `icon`, `banner` (a guild with the BANNER feature) as
 * data URIs or null, and `owner_id` (only the owner may hand the guild over, to a member). Needs
 * MANAGE_GUILD. A change emits GUILD_UPDATE (GUILDS intent) with the full guild and writes
 * GUILD_UPDATE to the audit log, in one write. The settings the sandbox cannot change yet are
 * refused by the schema (400 50035 naming them), never accepted and dropped.
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { guildPermissions, loadGuildView, requireMember, requirePermissions, txReader } from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { guildObject } from './guild-object';
import { txGuildSettings } from './guild-settings';
import { serializeEmoji } from '../accounts/application-emoji';
import { parseImageData, type ImageData } from '../core/image-data';
import { INTENTS } from '../core/intents';
import { PERMISSIONS } from '../core/permissions';
import type { GuildRecord } from '../../store/records/core';

/** The guild feature that lets a guild show a banner. */
export const BANNER_FEATURE = 'BANNER';

/** What a Modify Guild request may change; null clears an image. */
export interface ModifyGuildInput {
  name?: string;
  icon?: string | null;
  banner?: string | null;
  owner_id?: string;
}

/**
 * Applies `input` to the guild and answers the guild object.
 * @example await modifyGuild(ctx, bot, guildId, { name: 'Raid Night' });
 */
export async function modifyGuild(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  input: ModifyGuildInput,
  reason: string | null = null,
) {
  // Decoding and hashing are async: done before the write opens its transaction.
  const image = async (value: string | null | undefined, field: string): Promise<ImageData | null | undefined> =>
    value === undefined || value === null ? value : parseImageData(value, field);
  const [icon, banner] = await Promise.all([image(input.icon, 'icon'), image(input.banner, 'banner')]);
  return write(
    ctx,
    ['guilds', 'roles', 'members', 'users', 'emojis', 'guild_settings', 'audit_log_entries'],
    async (tx, emit) => {
      const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
      requireMember(view);
      requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
      const { guild } = view;
      const next: GuildRecord = { ...guild };
      if (input.name !== undefined) next.name = input.name;
      if (icon !== undefined) Object.assign(next, { icon: icon?.hash ?? null, icon_data: icon?.dataUri ?? null });
      if (banner !== undefined) {
        if (banner && !guild.features.includes(BANNER_FEATURE))
          throw ApiError.invalidForm({ banner: `The guild needs the ${BANNER_FEATURE} feature to show a banner.` });
        Object.assign(next, { banner: banner?.hash ?? null, banner_data: banner?.dataUri ?? null });
      }
      if (input.owner_id !== undefined && input.owner_id !== guild.owner_id) {
        if (principal.user.id !== guild.owner_id) throw ApiError.of('MISSING_PERMISSIONS');
        if (!(await tx.store('members').get([guildId, input.owner_id])))
          throw ApiError.invalidForm({ owner_id: 'The new owner must be a member of the guild.' });
        next.owner_id = input.owner_id;
      }
      const changes = (['name', 'icon', 'banner', 'owner_id'] as const)
        .filter((key) => guild[key] !== next[key])
        .map((key) => ({ key, old_value: guild[key], new_value: next[key] }));
      const emojis = (await tx.store('emojis').index('by_guild').getAll(guildId))
        .sort((a, b) => a.created_at - b.created_at)
        .map((e) => serializeEmoji(e));
      const wire = guildObject(next, view.roles, emojis, await txGuildSettings(tx, guildId), ctx.clock.now());
      if (changes.length === 0) return wire;
      await tx.store('guilds').put(next);
      emit({ type: 'GUILD_UPDATE', data: wire, audience: { guild_id: guildId, intent: INTENTS.GUILDS } });
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.GUILD_UPDATE,
        user_id: principal.user.id,
        target_id: guildId,
        changes,
        ...(reason ? { reason } : {}),
      });
      return wire;
    },
  );
}
