/**
 * Group DMs on the wire and the reads every group DM operation starts with: the channel as one
 * of its members sees it (`recipients` are the other members), and the channel a caller is a
 * member of.
 */
import type { GroupDmChannel, GroupDmChannelRecord } from '../../store/records/group-dms';
import type { UserRecord } from '../../store/records/core';
import type { ReadTx } from '../../store/schema';
import { ApiError } from '../core/errors';
import { serializeUser } from '../accounts/users';

/** The group DM as `viewerId` sees it; `users` holds the members' records (missing ones are left out). */
export function serializeGroupDm(
  channel: GroupDmChannelRecord,
  users: ReadonlyMap<string, UserRecord>,
  viewerId: string,
): GroupDmChannel {
  const recipients = channel.member_ids
    .filter((id) => id !== viewerId)
    .flatMap((id) => {
      const user = users.get(id);
      return user ? [serializeUser(user)] : [];
    });
  return {
    id: channel.id,
    type: 3,
    last_message_id: channel.last_message_id,
    flags: 0,
    recipients,
    name: channel.name,
    icon: channel.icon,
    owner_id: channel.owner_id,
    application_id: channel.application_id,
    managed: true,
  };
}

/** The records of the channel's members, by id. */
export async function loadMembers(
  tx: ReadTx,
  channel: Pick<GroupDmChannelRecord, 'member_ids'>,
): Promise<Map<string, UserRecord>> {
  const users = await Promise.all(channel.member_ids.map((id) => tx.store('users').get(id)));
  return new Map(users.flatMap((u) => (u ? [[u.id, u] as const] : [])));
}

/**
 * The group DM `channelId` when `userId` is one of its members; 404 10003 otherwise (a group
 * DM is not shown to anyone outside it).
 */
export async function memberChannel(tx: ReadTx, channelId: string, userId: string): Promise<GroupDmChannelRecord> {
  const channel = await tx.store('group_dm_channels').get(channelId);
  if (!channel || !channel.member_ids.includes(userId)) throw ApiError.of('UNKNOWN_CHANNEL');
  return channel;
}
