/**
 * Rules a guild channel's settings follow, shared by creating and modifying one: permission
 * overwrites need MANAGE_ROLES, and a bot that is neither owner nor administrator may only allow
 * or deny bits it has itself (50013); an overwrite names a role (type 0) or member (type 1) of the
 * guild; a topic, slowmode and age restriction belong to channels that hold messages; bitrate and
 * user limit to voice and stage channels (voice-channel-settings.ts).
 */
import type { WriteTx } from '../../store/write';
import { ApiError } from '../core/errors';
import { PERMISSIONS, hasPermission, serializePermissions } from '../core/permissions';
import { bypassesHierarchy, requirePermissions, type GuildView } from '../guilds/access';
import { CHANNEL_TYPES, type OverwriteRecord } from '../../store/records/core';

/** An overwrite as a body gives it. */
export interface OverwriteInput {
  id: string;
  type: 0 | 1;
  allow: bigint | null;
  deny: bigint | null;
}

/**
 * The overwrites as stored, checked for the bot whose permissions (in the channel, or in the
 * guild for a new channel) are `bits`.
 */
export async function checkedOverwrites(
  tx: WriteTx,
  view: GuildView,
  bits: bigint,
  overwrites: readonly OverwriteInput[],
): Promise<OverwriteRecord[]> {
  requirePermissions(bits, PERMISSIONS.MANAGE_ROLES);
  const bad: Record<string, string> = {};
  const out: OverwriteRecord[] = [];
  for (const [i, o] of overwrites.entries()) {
    const allow = o.allow ?? 0n;
    const deny = o.deny ?? 0n;
    if (!bypassesHierarchy(view) && !hasPermission(bits, allow | deny)) throw ApiError.of('MISSING_PERMISSIONS');
    const known =
      o.type === 0
        ? view.roles.some((r) => r.id === o.id)
        : (await tx.store('members').get([view.guild.id, o.id])) !== undefined;
    if (!known) bad[`permission_overwrites.${i}.id`] = o.type === 0 ? 'Unknown role.' : 'Unknown member.';
    out.push({ id: o.id, type: o.type, allow: serializePermissions(allow), deny: serializePermissions(deny) });
  }
  if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
  return out;
}

/** Channel types that hold messages and so take a topic, slowmode and `nsfw`. */
const MESSAGE_SETTING_TYPES: readonly number[] = [
  CHANNEL_TYPES.GUILD_TEXT,
  CHANNEL_TYPES.GUILD_VOICE,
  CHANNEL_TYPES.GUILD_ANNOUNCEMENT,
  CHANNEL_TYPES.GUILD_STAGE_VOICE,
  CHANNEL_TYPES.GUILD_FORUM,
];

/** 400 50035 naming the first setting the channel type does not have. */
export function requireSettingsOfType(
  type: number,
  input: { topic?: string | null; rate_limit_per_user?: number | null; nsfw?: boolean | null },
): void {
  if (MESSAGE_SETTING_TYPES.includes(type)) {
    // Voice channels hold messages but have no topic.
    if (type === CHANNEL_TYPES.GUILD_VOICE && input.topic != null)
      throw ApiError.invalidForm({ topic: 'Voice channels have no topic.' });
    return;
  }
  for (const field of ['topic', 'rate_limit_per_user', 'nsfw'] as const)
    if (input[field] != null) throw ApiError.invalidForm({ [field]: 'This channel type has no such setting.' });
}
