/**
 * Where an interaction happens and what follows from it: the interaction context (GUILD,
 * BOT_DM, PRIVATE_CHANNEL), the channel, the installations that authorize it
 * (`authorizing_integration_owners`), the app's permissions there (`app_permissions`), the
 * invoking user's upload limit (`attachment_size_limit`) and entitlements.
 *
 * Installations in the sandbox: an app is installed to a guild when its bot is a member (the
 * sandbox's guild install), and to a user when the user granted it `applications.commands`.
 * In a guild without the app's bot (a user-installed app), `app_permissions` are what
 * @everyone may do in that channel; in DMs they are the DM permissions (view, send, read
 * history) plus ATTACH_FILES, EMBED_LINKS and MENTION_EVERYONE, and USE_EXTERNAL_EMOJIS too in
 * the DM with the app's bot (spec: Interaction.app_permissions).
 */
import { uploadLimitFor } from '../messages/attachments';
import { INTEGRATION_TYPES, INTERACTION_CONTEXTS } from '../../store/records/commands';
import type { PlatformContext } from '../core/context';
import { dmPair } from '../messages/direct-messages';
import type { DmChannelRecord } from '../../store/records/direct-messages';
import { ApiError } from '../core/errors';
import {
  channelPermissions,
  dbReader,
  loadGuildView,
  permissionContext,
  toPermissionOverwrites,
  type GuildView,
} from '../guilds/access';
import { serializeMember } from '../guilds/wire';
import { serializeEntitlement } from '../../store/records/monetization';
import { ALL_PERMISSIONS, PERMISSIONS, computeChannelPermissions } from '../core/permissions';
import type { ApplicationRecord, ChannelRecord, UserRecord } from '../../store/records/core';
import { effectiveScopes } from '../oauth2/scopes';
import { snowflakeKey } from '../core/snowflake';
import { keyRange } from '../../store/port';

/** Permissions in any DM: view, send, read history. */
const DM_BASE =
  PERMISSIONS.VIEW_CHANNEL | PERMISSIONS.SEND_MESSAGES | PERMISSIONS.READ_MESSAGE_HISTORY | PERMISSIONS.ADD_REACTIONS;
/** `app_permissions` in a DM with other users (spec: it includes ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE). */
export const PRIVATE_CHANNEL_APP_PERMISSIONS =
  DM_BASE | PERMISSIONS.ATTACH_FILES | PERMISSIONS.EMBED_LINKS | PERMISSIONS.MENTION_EVERYONE;
/** `app_permissions` in the DM with the app's bot: also USE_EXTERNAL_EMOJIS. */
export const BOT_DM_APP_PERMISSIONS = PRIVATE_CHANNEL_APP_PERMISSIONS | PERMISSIONS.USE_EXTERNAL_EMOJIS;

/** Where an interaction happens, as resolved once when it is created. */
export interface InteractionPlace {
  context: number;
  application: ApplicationRecord;
  bot: UserRecord;
  user: UserRecord;
  /** Guild context only. */
  guild: GuildView | null;
  /** The guild channel, or null in a DM context. */
  channel: ChannelRecord | null;
  /** The DM channel in a DM context (a new one for a first DM with the bot: stored with the interaction). */
  dm: DmChannelRecord | null;
  dmIsNew: boolean;
  channelId: string;
  /** The invoking user's permissions in the channel (guild context). */
  userPermissions: bigint;
  /** The app's bot is a member of the guild (the guild install). */
  botInGuild: boolean;
  /** The user granted the app `applications.commands` (the user install). */
  userInstalled: boolean;
  appPermissions: bigint;
}

/** True when the user installed the app: a grant of `applications.commands` that has not expired. */
async function isUserInstalled(ctx: PlatformContext, applicationId: string, userId: string): Promise<boolean> {
  const tokens = await ctx.db.getAllFromIndex('tokens', 'by_application_user', [applicationId, userId]);
  const now = ctx.clock.now();
  return tokens.some(
    (t) =>
      (t.expires_at === null || t.expires_at > now || t.kind === 'refresh') &&
      ['applications.commands', 'application.commands'].some((s) => effectiveScopes(t.scopes).has(s)),
  );
}

/** What @everyone may do in the channel: a user-installed app's permissions in a guild without its bot. */
function everyonePermissions(view: GuildView, channel: ChannelRecord): bigint {
  const everyone = { ...permissionContext(view, []), userId: '0' };
  return computeChannelPermissions(everyone, toPermissionOverwrites(channel.permission_overwrites));
}

/**
 * Resolves the place of an interaction. With `guildId`, `channelId` names a channel of that
 * guild the user can view (GUILD context). Without it, `channelId` names a DM channel of the
 * user (BOT_DM when its other recipient is the app's bot, else PRIVATE_CHANNEL); no channel at
 * all is the DM with the bot, made on first use.
 */
export async function resolvePlace(
  ctx: PlatformContext,
  input: { application: ApplicationRecord; user: UserRecord; guildId?: string; channelId?: string },
): Promise<InteractionPlace> {
  const { application, user } = input;
  const bot = await ctx.db.get('users', application.bot_user_id);
  if (!bot) throw ApiError.of('UNKNOWN_APPLICATION');
  const userInstalled = await isUserInstalled(ctx, application.id, user.id);
  const base = { application, bot, user, userInstalled, dmIsNew: false };
  if (input.guildId !== undefined) {
    const view = await loadGuildView(dbReader(ctx.db), input.guildId, user.id);
    if (!view.member) throw ApiError.invalidForm({ user_id: 'The user is not a member of this guild.' });
    const channels = await ctx.db.getAllFromIndex('channels', 'by_guild', input.guildId);
    const channel =
      input.channelId === undefined
        ? channels.find((c) => c.type === 0)
        : channels.find((c) => c.id === input.channelId);
    if (!channel) throw ApiError.invalidForm({ channel_id: 'Unknown channel of this guild.' });
    const userPermissions = channelPermissions(view, channel);
    if ((userPermissions & PERMISSIONS.VIEW_CHANNEL) === 0n) throw ApiError.of('MISSING_ACCESS');
    const botView = await loadGuildView(dbReader(ctx.db), input.guildId, bot.id);
    const botInGuild = botView.member !== null;
    const appPermissions = botInGuild ? channelPermissions(botView, channel) : everyonePermissions(view, channel);
    return {
      ...base,
      context: INTERACTION_CONTEXTS.GUILD,
      guild: view,
      channel,
      dm: null,
      channelId: channel.id,
      userPermissions,
      botInGuild,
      appPermissions,
    };
  }
  let dm = input.channelId === undefined ? undefined : await ctx.db.get('dm_channels', input.channelId);
  if (input.channelId !== undefined && (!dm || !dm.recipient_ids.includes(user.id)))
    throw ApiError.invalidForm({ channel_id: 'Unknown DM channel of this user.' });
  let dmIsNew = false;
  if (!dm) {
    const [low, high] = dmPair(user.id, bot.id);
    dm = (await ctx.db.getFromIndex('dm_channels', 'by_pair', [low, high])) ?? {
      id: ctx.ids.next(),
      user_low: low,
      user_high: high,
      recipient_ids: [low, high],
      last_message_id: null,
      created_at: ctx.clock.now(),
    };
    dmIsNew = !(await ctx.db.getKey('dm_channels', dm.id));
  }
  const withBot = dm.recipient_ids.includes(bot.id);
  return {
    ...base,
    dmIsNew,
    context: withBot ? INTERACTION_CONTEXTS.BOT_DM : INTERACTION_CONTEXTS.PRIVATE_CHANNEL,
    guild: null,
    channel: null,
    dm,
    channelId: dm.id,
    userPermissions: ALL_PERMISSIONS & PRIVATE_CHANNEL_APP_PERMISSIONS,
    botInGuild: false,
    appPermissions: withBot ? BOT_DM_APP_PERMISSIONS : PRIVATE_CHANNEL_APP_PERMISSIONS,
  };
}

/** True when the app's bot shares a guild with the user (what makes a guild install reach the DM with the bot). */
async function sharesGuildWithBot(ctx: PlatformContext, place: InteractionPlace): Promise<boolean> {
  const botGuilds = new Set((await ctx.db.getAllFromIndex('members', 'by_user', place.bot.id)).map((m) => m.guild_id));
  return (await ctx.db.getAllFromIndex('members', 'by_user', place.user.id)).some((m) => botGuilds.has(m.guild_id));
}

/**
 * `authorizing_integration_owners`: for each installation context (`"0"` guild, `"1"` user)
 * that authorizes the interaction here, restricted to `integrationTypes` (a command's). The
 * guild install's value is the guild id in a guild and "0" in the DM with the bot; the user
 * install's is the user's id. Values are strings, "0" included.
 */
export async function authorizingOwners(
  ctx: PlatformContext,
  place: InteractionPlace,
  integrationTypes: readonly number[] = [0, 1],
): Promise<Record<string, string>> {
  const owners: Record<string, string> = {};
  if (integrationTypes.includes(INTEGRATION_TYPES.GUILD_INSTALL)) {
    if (place.context === INTERACTION_CONTEXTS.GUILD && place.botInGuild)
      owners[String(INTEGRATION_TYPES.GUILD_INSTALL)] = place.guild!.guild.id;
    if (place.context === INTERACTION_CONTEXTS.BOT_DM && (await sharesGuildWithBot(ctx, place)))
      owners[String(INTEGRATION_TYPES.GUILD_INSTALL)] = '0';
  }
  if (integrationTypes.includes(INTEGRATION_TYPES.USER_INSTALL) && place.userInstalled)
    owners[String(INTEGRATION_TYPES.USER_INSTALL)] = place.user.id;
  return owners;
}

/**
 * `attachment_size_limit`: the invoking user's limit for interaction responses, raised by their
 * premium tier or the guild's boosts (`uploadLimitFor`, dated 10 MiB default).
 */
export function attachmentSizeLimit(ctx: PlatformContext, place: InteractionPlace): number {
  return uploadLimitFor({
    context: 'interaction',
    now: ctx.clock.now(),
    premiumType: place.user.premium_type,
    boostTier: place.guild?.guild.premium_tier,
  });
}

/** The user's upload limit in the channel (what a File Upload component allows per file). */
export function userUploadLimit(ctx: PlatformContext, place: InteractionPlace): number {
  return uploadLimitFor({
    context: 'message',
    now: ctx.clock.now(),
    premiumType: place.user.premium_type,
    boostTier: place.guild?.guild.premium_tier,
  });
}

/** The invoking user's active entitlements of the app (and the guild's, in a guild). */
export async function activeEntitlements(ctx: PlatformContext, place: InteractionPlace) {
  const now = ctx.clock.now();
  const range = (owner: string) =>
    keyRange.bound([place.application.id, owner, ''], [place.application.id, owner, '\uffff']);
  const mine = await ctx.db.getAllFromIndex('entitlements', 'by_user', range(place.user.id));
  const guild = place.guild
    ? await ctx.db.getAllFromIndex('entitlements', 'by_guild', range(place.guild.guild.id))
    : [];
  const seen = new Set<string>();
  return [...mine, ...guild]
    .filter(
      (e) =>
        !seen.has(e.id) &&
        seen.add(e.id) &&
        !e.deleted &&
        !e.consumed &&
        (e.starts_at === null || e.starts_at <= now) &&
        (e.ends_at === null || e.ends_at > now),
    )
    .sort((a, b) => (snowflakeKey(a.id) < snowflakeKey(b.id) ? -1 : 1))
    .map(serializeEntitlement);
}

/** The invoking member as the interaction carries it: the member object with the user's `permissions` in the channel. */
export function invokingMember(place: InteractionPlace) {
  return place.guild?.member
    ? { ...serializeMember(place.guild.member, place.user), permissions: place.userPermissions.toString() }
    : null;
}
