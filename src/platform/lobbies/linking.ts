/**
 * Linked channels: `PATCH /lobbies/{lobby.id}/channel-linking {channel_id?}` links a guild text
 * channel to a lobby (or, without `channel_id`, unlinks it). The caller is a user (Bearer) who is
 * a lobby member with the CanLinkLobby flag; the channel must be a text channel of a guild the
 * user is in, not linked to another lobby, where the user has VIEW_CHANNEL, SEND_MESSAGES and
 * MANAGE_CHANNELS (the public linked channels guide). A linked lobby is never removed for
 * idleness; unlinking an empty lobby starts its idle timeout. Emits LOBBY_UPDATE.
 */
import type { PlatformDB } from '../../store/schema';
import { write } from '../../store/write';
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  canViewChannel,
  channelPermissions,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
} from '../guilds/access';
import { serializeChannel } from '../guilds/wire';
import { LOBBY_MEMBER_FLAGS } from './schemas';
import {
  LOBBY_WRITE_STORES,
  findLobby,
  lobbyAudience,
  loadLobbyMembers,
  serializeLobby,
  settleIdleDeadline,
  sweepIdleLobbies,
} from './store';
import { PERMISSIONS } from '../core/permissions';
import {
  CHANNEL_TYPES,
  type ChannelRecord,
  type Lobby,
  type LobbyMemberRecord,
  type LobbyRecord,
} from '../../store/records/core';
import { type PlatformStoreName } from '../../store/schema';

/** The lobby stores and the guild stores a linking write reads. */
export const LINKING_STORES: PlatformStoreName[] = [...LOBBY_WRITE_STORES, 'channels', 'guilds', 'roles', 'members'];

/** The lobby object with `linked_channel` when a channel is linked. */
export function serializeLinkedLobby(
  lobby: LobbyRecord,
  members: Iterable<LobbyMemberRecord>,
  channel: ChannelRecord | null | undefined,
): Lobby {
  return { ...serializeLobby(lobby, members), ...(channel ? { linked_channel: serializeChannel(channel) } : {}) };
}

/**
 * Links `channelId` to the lobby, or unlinks it with null; answers the lobby.
 * @example await linkLobbyChannel(ctx, principal, lobbyId, channelId);
 */
export async function linkLobbyChannel(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  lobbyId: string,
  channelId: string | null,
) {
  return write(ctx, LINKING_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    await sweepIdleLobbies(tx, emit, now);
    const lobby = await findLobby(tx, principal, lobbyId, now);
    const members = await loadLobbyMembers(tx, lobby.id);
    const self = members.get(principal.user.id);
    if (!self) throw ApiError.of('MISSING_ACCESS');
    if ((self.flags & LOBBY_MEMBER_FLAGS.CAN_LINK_LOBBY) === 0)
      throw ApiError.of('MISSING_PERMISSIONS', 'Missing the CanLinkLobby lobby member flag.');
    let channel: ChannelRecord | null = null;
    if (channelId !== null) {
      channel = (await tx.store('channels').get(channelId)) ?? null;
      if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
      if (channel.type !== CHANNEL_TYPES.GUILD_TEXT) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
      const view = await loadGuildView(txReader(tx), channel.guild_id, principal.user.id);
      requireMember(view);
      if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
      requirePermissions(channelPermissions(view, channel), PERMISSIONS.SEND_MESSAGES | PERMISSIONS.MANAGE_CHANNELS);
      const holder = await tx.store('lobbies').index('by_linked_channel').getKey(channel.id);
      if (holder !== undefined && holder !== lobby.id)
        throw ApiError.invalidForm({ channel_id: 'This channel is already linked to another lobby.' });
    }
    if ((lobby.linked_channel_id ?? null) !== (channel?.id ?? null)) {
      const updated: LobbyRecord = { ...lobby, linked_channel_id: channel?.id ?? null };
      updated.idle_deadline = settleIdleDeadline({ ...updated, idle_deadline: null }, now);
      await tx.store('lobbies').put(updated);
      const wire = serializeLinkedLobby(updated, members.values(), channel);
      emit({ type: 'LOBBY_UPDATE', data: wire, audience: lobbyAudience(updated, members.keys()) });
      return wire;
    }
    return serializeLinkedLobby(lobby, members.values(), channel);
  });
}

/**
 * The lobby's linked channel, for reads that answer the lobby object (`GET /lobbies/{id}`):
 * null when none is linked or the channel is gone.
 */
export async function readLinkedChannel(
  ctx: PlatformContext,
  lobby: Pick<LobbyRecord, 'linked_channel_id'>,
): Promise<ChannelRecord | null> {
  return lobby.linked_channel_id ? ((await ctx.db.get('channels', lobby.linked_channel_id)) ?? null) : null;
}
