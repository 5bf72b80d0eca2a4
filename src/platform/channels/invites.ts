/**
 * Channel invites: create (CREATE_INSTANT_INVITE; optionally limited to target users and
 * granting roles on accept), read by code, delete, and the channel's list (MANAGE_CHANNELS).
 * An invite expires `max_age` seconds after it was made and is used up after `max_uses`
 * accepts, both by the platform clock. Creating and deleting emit INVITE_CREATE / INVITE_DELETE
 * (GUILD_INVITES intent) and an audit log entry, in the same transaction.
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import type { BotPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  canViewChannel,
  channelPermissions,
  guildPermissions,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
} from '../guilds/access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from '../guilds/audit-log';
import type { InviteRecord } from '../../store/records/guilds';
import {
  INVITE_STORES,
  findLiveInvite,
  generateInviteCode,
  inviteAudience,
  inviteReader,
  isInviteLive,
  isInviteTarget,
  requireGrantableRoles,
  serializeInvite,
} from './invites-store';
import { requireKnownTargetUsers, type TargetUserEntry } from './invites-target-users';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { shownStatus } from '../presence/shown';
import { CHANNEL_TYPES } from '../../store/records/core';
import { keyRange } from '../../store/port';

/** What a create request asks for, validated. */
export interface CreateInviteInput {
  max_age: number;
  max_uses: number;
  temporary: boolean;
  unique: boolean;
  role_ids: string[];
  /** The target users file's entries, or null for an invite anyone may accept. */
  target_users: TargetUserEntry[] | null;
}

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/**
 * `POST /channels/{channel.id}/invites`. Without `unique`, an existing live invite of the same
 * inviter and channel with the same settings (and no target users) is answered again instead
 * of making a new one, as on the platform.
 * @example await createChannelInvite(ctx, bot, channelId, { max_age: 3600, max_uses: 1, temporary: false, unique: true, role_ids: [], target_users: null });
 */
export async function createChannelInvite(
  ctx: PlatformContext,
  principal: BotPrincipal,
  channelId: string,
  input: CreateInviteInput,
) {
  return write(ctx, INVITE_STORES, async (tx, emit) => {
    const now = ctx.clock.now();
    const channel = await tx.store('channels').get(channelId);
    if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
    const view = await loadGuildView(txReader(tx), channel.guild_id, principal.user.id);
    requireMember(view);
    if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
    if (channel.type === CHANNEL_TYPES.GUILD_CATEGORY) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    requirePermissions(channelPermissions(view, channel), PERMISSIONS.CREATE_INSTANT_INVITE);
    requireGrantableRoles(view, input.role_ids);
    if (input.target_users) await requireKnownTargetUsers(tx, input.target_users);
    if (!input.unique && !input.target_users) {
      const similar = (await tx.store('invites').index('by_channel').getAll(channelId)).find(
        (i) =>
          isInviteLive(i, now) &&
          i.inviter_id === principal.user.id &&
          i.lobby_id === null &&
          i.target_user_ids === null &&
          i.max_age === input.max_age &&
          i.max_uses === input.max_uses &&
          i.temporary === input.temporary &&
          sameRoles(i.role_ids, input.role_ids),
      );
      if (similar) return serializeInvite(tx, similar, true);
    }
    const invite: InviteRecord = {
      code: generateInviteCode(),
      guild_id: channel.guild_id,
      channel_id: channel.id,
      inviter_id: principal.user.id,
      max_age: input.max_age,
      max_uses: input.max_uses,
      uses: 0,
      temporary: input.temporary,
      expires_at: input.max_age === 0 ? null : now + input.max_age * 1000,
      target_user_ids: input.target_users ? input.target_users.map((e) => e.id) : null,
      target_users_updated_at: input.target_users ? now : null,
      role_ids: [...new Set(input.role_ids)],
      lobby_id: null,
      created_at: now,
    };
    return storeNewInvite(ctx, tx, emit, invite);
  });
}

/**
 * Stores a new invite (inside the caller's write), emits INVITE_CREATE and records it in the
 * audit log; resolves to the invite object with its metadata. Lobby channel invites use it too.
 */
export async function storeNewInvite(ctx: PlatformContext, tx: WriteTx, emit: Emit, invite: InviteRecord) {
  await tx.store('invites').add(invite);
  const wire = await serializeInvite(tx, invite, true);
  emit({
    type: 'INVITE_CREATE',
    data: {
      channel_id: invite.channel_id,
      guild_id: invite.guild_id,
      code: invite.code,
      created_at: new Date(invite.created_at).toISOString(),
      expires_at: wire.expires_at,
      inviter: wire.inviter,
      max_age: invite.max_age,
      max_uses: invite.max_uses,
      temporary: invite.temporary,
      uses: 0,
    },
    audience: inviteAudience(invite),
  });
  await appendAuditLogEntry(ctx, tx, {
    guild_id: invite.guild_id,
    action_type: AUDIT_LOG_EVENTS.INVITE_CREATE,
    user_id: invite.inviter_id,
    target_id: null,
    changes: [
      { key: 'code', new_value: invite.code },
      { key: 'channel_id', new_value: invite.channel_id },
      { key: 'inviter_id', new_value: invite.inviter_id },
      { key: 'uses', new_value: 0 },
      { key: 'max_uses', new_value: invite.max_uses },
      { key: 'max_age', new_value: invite.max_age },
      { key: 'temporary', new_value: invite.temporary },
    ],
  });
  return wire;
}

/**
 * `GET /invites/{code}` (`with_counts` adds the guild's approximate member and presence
 * counts). An invite limited to target users is unknown (10006) to a user who is not one of them.
 */
export async function getInvite(ctx: PlatformContext, principal: Principal, code: string, withCounts: boolean) {
  const tx = ctx.db.read(INVITE_STORES.concat('presences'));
  const invite = await findLiveInvite(tx, code, ctx.clock.now());
  if (principal.kind === 'bearer' && !isInviteTarget(invite, principal.user.id)) throw ApiError.of('UNKNOWN_INVITE');
  const wire = await serializeInvite(tx, invite, false);
  if (!withCounts) return wire;
  const members = await tx.store('members').getAll(keyRange.bound([invite.guild_id], [invite.guild_id, []]));
  const presences = await Promise.all(members.map((m) => tx.store('presences').get(m.user_id)));
  const online = presences.filter((p) => shownStatus(p?.sessions) !== 'offline').length;
  return { ...wire, approximate_member_count: members.length, approximate_presence_count: online };
}

/**
 * `DELETE /invites/{code}`: MANAGE_CHANNELS in the invite's channel, or MANAGE_GUILD. Answers
 * the deleted invite; emits INVITE_DELETE.
 */
export async function deleteInvite(ctx: PlatformContext, principal: BotPrincipal, code: string) {
  return write(ctx, INVITE_STORES, async (tx, emit) => {
    const invite = await findLiveInvite(tx, code, ctx.clock.now());
    const view = await loadGuildView(txReader(tx), invite.guild_id, principal.user.id);
    requireMember(view);
    const channel = await tx.store('channels').get(invite.channel_id);
    const inChannel = channel ? channelPermissions(view, channel) : 0n;
    if (
      !hasPermission(inChannel, PERMISSIONS.MANAGE_CHANNELS) &&
      !hasPermission(guildPermissions(view), PERMISSIONS.MANAGE_GUILD)
    ) {
      throw ApiError.of('MISSING_PERMISSIONS');
    }
    const wire = await serializeInvite(tx, invite, false);
    await tx.store('invites').delete(code);
    emit({
      type: 'INVITE_DELETE',
      data: { channel_id: invite.channel_id, guild_id: invite.guild_id, code },
      audience: inviteAudience(invite),
    });
    await appendAuditLogEntry(ctx, tx, {
      guild_id: invite.guild_id,
      action_type: AUDIT_LOG_EVENTS.INVITE_DELETE,
      user_id: principal.user.id,
      target_id: null,
      changes: [
        { key: 'code', old_value: code },
        { key: 'channel_id', old_value: invite.channel_id },
        { key: 'uses', old_value: invite.uses },
      ],
    });
    return wire;
  });
}

/** `GET /channels/{channel.id}/invites`: MANAGE_CHANNELS; the live invites with their metadata. */
export async function listChannelInvites(ctx: PlatformContext, principal: BotPrincipal, channelId: string) {
  const tx = ctx.db.read(INVITE_STORES);
  const channel = await tx.store('channels').get(channelId);
  if (!channel || !channel.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
  const view = await loadGuildView(inviteReader(tx), channel.guild_id, principal.user.id);
  requireMember(view);
  if (!canViewChannel(view, channel)) throw ApiError.of('MISSING_ACCESS');
  requirePermissions(channelPermissions(view, channel), PERMISSIONS.MANAGE_CHANNELS);
  const now = ctx.clock.now();
  const invites = (await tx.store('invites').index('by_channel').getAll(channelId)).filter((i) => isInviteLive(i, now));
  return Promise.all(invites.sort((a, b) => a.created_at - b.created_at).map((i) => serializeInvite(tx, i, true)));
}

/**
 * `GET /guilds/{guild.id}/invites`: the guild's live invites with their metadata, oldest first;
 * needs MANAGE_GUILD (public docs).
 * @example const invites = await listGuildInvites(ctx, bot, guildId);
 */
export async function listGuildInvites(ctx: PlatformContext, principal: BotPrincipal, guildId: string) {
  const tx = ctx.db.read(INVITE_STORES);
  const view = await loadGuildView(inviteReader(tx), guildId, principal.user.id);
  requireMember(view);
  requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
  const now = ctx.clock.now();
  const invites = (await tx.store('invites').index('by_guild').getAll(guildId)).filter((i) => isInviteLive(i, now));
  return Promise.all(invites.sort((a, b) => a.created_at - b.created_at).map((i) => serializeInvite(tx, i, true)));
}
