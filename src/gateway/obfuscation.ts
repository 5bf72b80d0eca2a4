/**
 * Channel obfuscation for bots that opted in (Identify `capabilities` bit 1 << 15, or the
 * application's `channel_obfuscation` setting): a channel the bot cannot view arrives with
 * its name replaced by `___hidden___`, the CHANNEL_OBFUSCATED flag, and exactly one permission
 * overwrite that denies VIEW_CHANNEL to @everyone (spec, Channel record). Everything else that
 * would tell what the channel is about (topic, last message, rate limit, voice settings...) is
 * left out; what places it in the guild's list (id, type, guild, parent, position) stays.
 */
import { PERMISSIONS, serializePermissions } from '../platform/core/permissions';
import {
  CHANNEL_OBFUSCATED,
  OBFUSCATED_CHANNEL_NAME,
  type Channel,
  type ChannelRecord,
  type OverwriteRecord,
} from '../store/records/core';

/** The one overwrite an obfuscated channel carries: @everyone (id = guild id) denied VIEW_CHANNEL. */
export function hiddenOverwrite(guildId: string): OverwriteRecord {
  return { id: guildId, type: 0, allow: '0', deny: serializePermissions(PERMISSIONS.VIEW_CHANNEL) };
}

/**
 * The obfuscated form of a guild channel.
 * @example obfuscateChannel(channel).name // '___hidden___'
 */
export function obfuscateChannel(channel: Channel | ChannelRecord): Channel {
  const guildId = channel.guild_id ?? '0';
  return {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guild_id,
    name: OBFUSCATED_CHANNEL_NAME,
    parent_id: channel.parent_id,
    position: channel.position,
    flags: channel.flags | CHANNEL_OBFUSCATED,
    permission_overwrites: [hiddenOverwrite(guildId)],
    topic: null,
  };
}
