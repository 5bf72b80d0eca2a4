/**
 * `GET /guilds/{guild.id}/preview` and `GET /guilds/{guild.id}/vanity-url`. No guild here is
 * discoverable, so a preview is answered only to a member (a guild the caller is not in is
 * 404 10004, as the platform answers for a guild that is not discoverable): name, icon,
 * features, emoji and approximate counts. The vanity URL needs MANAGE_GUILD; no guild here can
 * set one, so `code` is null and `uses` 0.
 */
import { keyRange } from '../../store/port';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PERMISSIONS } from '../core/permissions';
import { countOnlineMembers } from '../presence/presence';
import { dbReader, guildPermissions, loadGuildView, requireMember, requirePermissions } from './access';
import { listGuildEmojis } from './emoji';
import { guildSettingsFields, readGuildSettings } from './guild-settings';

/**
 * `GET /guilds/{guild.id}/preview`.
 * @example const { approximate_member_count } = await getGuildPreview(ctx, bot, guildId);
 */
export async function getGuildPreview(ctx: PlatformContext, principal: Principal, guildId: string) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  if (!view.member) throw ApiError.of('UNKNOWN_GUILD');
  const { features } = guildSettingsFields(view.guild, await readGuildSettings(ctx.db, guildId), ctx.clock.now());
  return {
    id: view.guild.id,
    name: view.guild.name,
    icon: view.guild.icon,
    description: null,
    home_header: null,
    splash: null,
    discovery_splash: null,
    features,
    approximate_member_count: await ctx.db.count('members', keyRange.bound([guildId], [guildId, []])),
    approximate_presence_count: await countOnlineMembers(ctx, guildId),
    emojis: await listGuildEmojis(ctx, principal, guildId),
    stickers: [],
  };
}

/** `GET /guilds/{guild.id}/vanity-url`: `{code: null, uses: 0}`. */
export async function getVanityUrl(ctx: PlatformContext, principal: Principal, guildId: string) {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requireMember(view);
  requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
  return { code: null, uses: 0 };
}
