/**
 * Guilds, roles, channels and members on the wire.
 */
import type {
  Channel,
  ChannelRecord,
  GuildRecord,
  MemberRecord,
  Role,
  RoleRecord,
  UserRecord,
} from '../../store/records/core';
import type { Guild, GuildMember } from '../../store/records/dispatches';
import { serializeUser } from '../accounts/users';
import { voiceChannelSettings } from './voice-channel-settings';
import { isThreadType } from '../../store/records/threads';
import { serializeThread, type ThreadRecord } from '../threads/wire';

/** The guild object (roles included, as the gateway sends it). */
export function serializeGuild(guild: GuildRecord, roles: RoleRecord[]): Guild {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: guild.banner,
    owner_id: guild.owner_id,
    features: guild.features,
    roles: roles.map(serializeRole),
  };
}

/** The role object; `color` is deprecated but still returned (it mirrors `colors.primary_color`). */
export function serializeRole(role: RoleRecord): Role {
  const { guild_id: _guild, ...wire } = role;
  return { ...wire, flags: role.flags ?? 0 };
}

/**
 * The channel object. The ephemeral voice fields (`status`, `voice_start_time`) are never part
 * of it: they are answered by Request Channel Info only. Voice and stage channels always carry
 * their `bitrate`, `user_limit` and `rtc_region`.
 */
export function serializeChannel(channel: ChannelRecord): Channel {
  // A thread as stored (its auto-archive as the clock finds it is the threads area's, which knows the time).
  if (isThreadType(channel.type) && channel.thread_metadata) return serializeThread(channel as ThreadRecord);
  const {
    voice_status: _status,
    voice_start_time: _start,
    thread_metadata: _meta,
    thread_activity_at: _at,
    ...wire
  } = channel;
  return { ...wire, ...voiceChannelSettings(channel) };
}

/** The guild member object with its user (`avatar` / `banner` are image hashes; the images stay in the store). */
export function serializeMember(member: MemberRecord, user: UserRecord): GuildMember {
  return {
    user: serializeUser(user),
    nick: member.nick,
    roles: member.roles,
    joined_at: new Date(member.joined_at).toISOString(),
    avatar: member.avatar,
    banner: member.banner,
    bio: member.bio,
    flags: member.flags,
    deaf: member.deaf ?? false,
    mute: member.mute ?? false,
    communication_disabled_until:
      member.communication_disabled_until == null ? null : new Date(member.communication_disabled_until).toISOString(),
    pending: member.pending ?? false,
    premium_since: member.premium_since == null ? null : new Date(member.premium_since).toISOString(),
  };
}
