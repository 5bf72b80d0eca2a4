/**
 * A channel's permission overwrites in words ("@everyone: View Channel denied"), for the
 * channel view: what makes a channel private, said the way the platform computes it.
 */
import { PERMISSIONS, parsePermissions } from '../../src/platform/core/permissions';
import type { GuildState, WireChannel } from './client-state';

/** "VIEW_CHANNEL" → "View Channel". */
function permissionLabel(name: string): string {
  return name
    .toLowerCase()
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** The names of the bits set in a decimal bit set. */
export function permissionNames(bits: string): string[] {
  const value = parsePermissions(bits) ?? 0n;
  return Object.entries(PERMISSIONS)
    .filter(([, bit]) => (value & bit) !== 0n)
    .map(([name]) => permissionLabel(name));
}

/**
 * One line per permission overwrite of the channel, or one line saying there is none.
 * @example describeAccess(guild, staff) // ['@everyone: View Channel denied', 'Moderators: View Channel allowed']
 */
export function describeAccess(guild: GuildState, channel: WireChannel): string[] {
  if (channel.permission_overwrites.length === 0) return ['Every member of the guild: no permission overwrites.'];
  return channel.permission_overwrites.map((o) => {
    const who =
      o.type === 0
        ? o.id === guild.id
          ? '@everyone'
          : (guild.roles.get(o.id)?.name ?? `role ${o.id}`)
        : (guild.members.get(o.id)?.user.global_name ?? `member ${o.id}`);
    const parts = [
      ...permissionNames(o.allow).map((p) => `${p} allowed`),
      ...permissionNames(o.deny).map((p) => `${p} denied`),
    ];
    return `${who}: ${parts.join(', ') || 'nothing changed'}`;
  });
}
