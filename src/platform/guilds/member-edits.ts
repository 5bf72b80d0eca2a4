/**
 * Changing guild members: `PATCH /guilds/{guild.id}/members/{user.id}` (nick, roles, server
 * mute and deafen, moving or disconnecting from voice, timeout, flags), each field with the
 * permission the platform documents for it, and `PATCH /guilds/{guild.id}/members/@me`, where a
 * bot sets its own nick, avatar, banner and bio. A change emits GUILD_MEMBER_UPDATE (and
 * VOICE_STATE_UPDATE when the voice state changed) and its audit log entries in one write.
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  bypassesHierarchy,
  channelPermissions,
  guildPermissions,
  highestRolePosition,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
} from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { serializeMember } from './wire';
import { parseImageData, type ImageData } from '../core/image-data';
import { INTENTS } from '../core/intents';
import { COMMUNICATION_DISABLED_MAX_MS } from '../core/limits';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import type { MemberRecord } from '../../store/records/core';
import { applyVoiceChanges, type VoiceChanges } from './member-voice';

/** Guild member flags a modify request may change (the public docs: only BYPASSES_VERIFICATION). */
export const EDITABLE_MEMBER_FLAGS = 1 << 2;

/** The fields of a modify guild member request; null clears where the platform allows it. */
export interface ModifyMemberInput extends VoiceChanges {
  nick?: string | null;
  roles?: string[] | null;
  /** Epoch ms, or null to end a timeout. */
  communication_disabled_until?: number | null;
  flags?: number | null;
}

const MEMBER_STORES = ['guilds', 'roles', 'members', 'users', 'channels', 'voice_states', 'audit_log_entries'] as const;

/**
 * Applies `input` to a member. Permissions per field (public docs): nick MANAGE_NICKNAMES,
 * roles MANAGE_ROLES, mute MUTE_MEMBERS, deaf DEAFEN_MEMBERS, channel_id MOVE_MEMBERS,
 * communication_disabled_until MODERATE_MEMBERS, and flags MANAGE_GUILD or MANAGE_ROLES or
 * (MODERATE_MEMBERS and KICK_MEMBERS and BAN_MEMBERS). Nick, roles and timeout also need the
 * member below the bot's highest role (unless the bot owns the guild or is an administrator).
 * @example await modifyGuildMember(ctx, bot, guildId, userId, { nick: 'Captain', flags: EDITABLE_MEMBER_FLAGS });
 */
export async function modifyGuildMember(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  userId: string,
  input: ModifyMemberInput,
) {
  return write(ctx, [...MEMBER_STORES], async (tx, emit) => {
    const now = ctx.clock.now();
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const [member, user] = await Promise.all([
      tx.store('members').get([guildId, userId]),
      tx.store('users').get(userId),
    ]);
    if (!member || !user) throw ApiError.of('UNKNOWN_MEMBER');
    const bits = guildPermissions(view);
    const self = userId === principal.user.id;
    const requireAbove = () => {
      if (self || bypassesHierarchy(view)) return;
      if (
        userId === view.guild.owner_id ||
        highestRolePosition(view, view.member!.roles) <= highestRolePosition(view, member.roles)
      )
        throw ApiError.of('MISSING_PERMISSIONS');
    };
    const next: MemberRecord = { ...member };
    const changes: { key: string; old_value?: unknown; new_value?: unknown }[] = [];

    if (input.nick !== undefined) {
      requirePermissions(bits, PERMISSIONS.MANAGE_NICKNAMES);
      requireAbove();
      next.nick = input.nick === '' ? null : input.nick;
    }
    let added: string[] = [];
    let removed: string[] = [];
    if (input.roles !== undefined) {
      requirePermissions(bits, PERMISSIONS.MANAGE_ROLES);
      requireAbove();
      const wanted = [...new Set(input.roles ?? [])];
      const bad: Record<string, string> = {};
      wanted.forEach((id, i) => {
        const role = view.roles.find((r) => r.id === id);
        if (!role || role.id === guildId || role.managed)
          bad[`roles.${i}`] = 'Unknown role, or a role that cannot be assigned.';
      });
      if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
      added = wanted.filter((id) => !member.roles.includes(id));
      removed = member.roles.filter((id) => !wanted.includes(id));
      const top = highestRolePosition(view, view.member!.roles);
      const touched = view.roles.filter((r) => added.includes(r.id) || removed.includes(r.id));
      if (!bypassesHierarchy(view) && touched.some((r) => r.position >= top)) throw ApiError.of('MISSING_PERMISSIONS');
      next.roles = wanted;
    }
    if (input.communication_disabled_until !== undefined) {
      requirePermissions(bits, PERMISSIONS.MODERATE_MEMBERS);
      requireAbove();
      // The platform refuses to time out the owner or an administrator (403).
      const targetBits = guildPermissions({ ...view, userId, member });
      if (userId === view.guild.owner_id || hasPermission(targetBits, PERMISSIONS.ADMINISTRATOR))
        throw ApiError.of('MISSING_PERMISSIONS');
      const until = input.communication_disabled_until;
      if (until !== null && until > now + COMMUNICATION_DISABLED_MAX_MS) {
        throw ApiError.invalidForm({ communication_disabled_until: 'A timeout can last at most 28 days.' });
      }
      next.communication_disabled_until = until === null || until <= now ? null : until;
    }
    if (input.flags !== undefined) {
      const allowed =
        hasPermission(bits, PERMISSIONS.MANAGE_GUILD) ||
        hasPermission(bits, PERMISSIONS.MANAGE_ROLES) ||
        hasPermission(bits, PERMISSIONS.MODERATE_MEMBERS | PERMISSIONS.KICK_MEMBERS | PERMISSIONS.BAN_MEMBERS);
      if (!allowed) throw ApiError.of('MISSING_PERMISSIONS');
      // Only the editable bits change; the others are the platform's to set.
      next.flags = (member.flags & ~EDITABLE_MEMBER_FLAGS) | ((input.flags ?? 0) & EDITABLE_MEMBER_FLAGS);
    }
    const voice = await applyVoiceChanges(
      ctx,
      tx,
      emit,
      { view, bits, member, next, user, channelPermissions: (c) => channelPermissions(view, c) },
      input,
    );

    for (const key of ['nick', 'communication_disabled_until', 'flags', 'mute', 'deaf'] as const) {
      if ((member[key] ?? null) !== (next[key] ?? null))
        changes.push({ key, old_value: member[key] ?? null, new_value: next[key] ?? null });
    }
    const rolesChanged = added.length > 0 || removed.length > 0;
    if (changes.length === 0 && !rolesChanged) return serializeMember(member, user);
    await tx.store('members').put(next);
    emit({
      type: 'GUILD_MEMBER_UPDATE',
      data: { ...serializeMember(next, user), guild_id: guildId },
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
    });
    voice.emitIfConnected(next);
    if (changes.length > 0) {
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.MEMBER_UPDATE,
        user_id: principal.user.id,
        target_id: userId,
        changes,
      });
    }
    if (rolesChanged) {
      const partial = (ids: string[]) => ids.map((id) => ({ id, name: view.roles.find((r) => r.id === id)!.name }));
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.MEMBER_ROLE_UPDATE,
        user_id: principal.user.id,
        target_id: userId,
        changes: [
          ...(added.length ? [{ key: '$add', new_value: partial(added) }] : []),
          ...(removed.length ? [{ key: '$remove', new_value: partial(removed) }] : []),
        ],
      });
    }
    return serializeMember(next, user);
  });
}

/** The fields of a modify current member request: images as data URIs; null clears. */
export interface ModifyCurrentMemberInput {
  nick?: string | null;
  avatar?: string | null;
  banner?: string | null;
  bio?: string | null;
}

/**
 * `PATCH /guilds/{guild.id}/members/@me`: the bot's own nick (CHANGE_NICKNAME), avatar, banner
 * and bio in this guild. Images are stored; the member object carries their hashes, so the
 * member banner reads back on every member object (GET member, GUILD_MEMBER_UPDATE).
 */
export async function modifyCurrentMember(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  input: ModifyCurrentMemberInput,
) {
  // Decoding and hashing are async: done before the write opens its transaction.
  const image = async (value: string | null | undefined, field: string): Promise<ImageData | null | undefined> =>
    value === undefined || value === null ? value : parseImageData(value, field);
  const [avatar, banner] = await Promise.all([image(input.avatar, 'avatar'), image(input.banner, 'banner')]);
  return write(ctx, ['guilds', 'roles', 'members', 'users'], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    const member = requireMember(view);
    const next: MemberRecord = { ...member };
    if (input.nick !== undefined) {
      requirePermissions(guildPermissions(view), PERMISSIONS.CHANGE_NICKNAME);
      next.nick = input.nick === '' ? null : input.nick;
    }
    if (avatar !== undefined)
      Object.assign(next, { avatar: avatar?.hash ?? null, avatar_data: avatar?.dataUri ?? null });
    if (banner !== undefined)
      Object.assign(next, { banner: banner?.hash ?? null, banner_data: banner?.dataUri ?? null });
    if (input.bio !== undefined) next.bio = input.bio === '' ? null : input.bio;
    const wire = serializeMember(next, principal.user);
    const unchanged = (['nick', 'avatar', 'banner', 'bio'] as const).every(
      (key) => (member[key] ?? null) === (next[key] ?? null),
    );
    if (unchanged) return wire;
    await tx.store('members').put(next);
    emit({
      type: 'GUILD_MEMBER_UPDATE',
      data: { ...wire, guild_id: guildId },
      audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
    });
    return wire;
  });
}
