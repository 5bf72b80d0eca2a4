/**
 * The guild events that change what the client knows of a guild's structure: GUILD_CREATE (the
 * guild, its roles, channels and members), members joining, changing and leaving, channels and
 * roles made, changed and removed. Presences, voice states and messages are the client state's.
 */
import type { GuildState, WireChannel, WireMember, WireRole, WireUser } from './wire';

type Data = Record<string, any>;

/**
 * Applies one guild dispatch to `guilds`; `remember` hears of every user it carries. Returns
 * false when the event is not one of these.
 * @example if (applyGuildEvent(state.guilds, type, d, (u) => users.set(u.id, u))) changed();
 */
export function applyGuildEvent(
  guilds: Map<string, GuildState>,
  type: string,
  d: Data,
  remember: (user: WireUser) => void,
): boolean {
  const guild = guilds.get(d.guild_id);
  switch (type) {
    case 'GUILD_CREATE':
      guilds.set(d.id, {
        id: d.id,
        name: d.name,
        owner_id: d.owner_id,
        roles: new Map((d.roles ?? []).map((r: WireRole) => [r.id, r])),
        channels: new Map((d.channels ?? []).map((c: WireChannel) => [c.id, c])),
        members: new Map((d.members ?? []).map((m: WireMember) => [m.user.id, m])),
      });
      for (const m of d.members ?? []) remember(m.user);
      return true;
    case 'GUILD_MEMBERS_CHUNK':
      for (const m of d.members ?? []) setMember(guild, m, remember);
      return true;
    case 'GUILD_MEMBER_ADD':
    case 'GUILD_MEMBER_UPDATE':
      setMember(guild, d as WireMember, remember);
      return true;
    case 'GUILD_MEMBER_REMOVE':
      guild?.members.delete(d.user.id);
      return true;
    case 'CHANNEL_CREATE':
    case 'CHANNEL_UPDATE':
      guild?.channels.set(d.id, d as WireChannel);
      return true;
    case 'CHANNEL_DELETE':
      guild?.channels.delete(d.id);
      return true;
    case 'GUILD_ROLE_CREATE':
    case 'GUILD_ROLE_UPDATE':
      guild?.roles.set(d.role.id, d.role);
      return true;
    case 'GUILD_ROLE_DELETE':
      guild?.roles.delete(d.role_id);
      return true;
    default:
      return false;
  }
}

function setMember(guild: GuildState | undefined, member: WireMember, remember: (user: WireUser) => void): void {
  guild?.members.set(member.user.id, { user: member.user, nick: member.nick, roles: member.roles });
  remember(member.user);
}
