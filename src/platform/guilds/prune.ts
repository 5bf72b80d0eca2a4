/**
 * Guild prune: `GET /guilds/{guild.id}/prune` counts and `POST /guilds/{guild.id}/prune` removes
 * the members who have been inactive for `days` and have no roles (or only roles among
 * `include_roles`). Both need MANAGE_GUILD in addition to KICK_MEMBERS (spec).
 *
 * Inactivity: the sandbox sees no member activity, so a member counts as inactive `days` after
 * joining (`joined_at`, by the platform clock). The owner and the caller are never pruned, nor
 * members whose highest role is not below the caller's (the platform's kick hierarchy).
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import {
  bypassesHierarchy,
  dbReader,
  guildPermissions,
  highestRolePosition,
  loadGuildView,
  requireMember,
  requirePermissions,
  txReader,
  type GuildView,
} from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { serializeMember } from './wire';
import { INTENTS } from '../core/intents';
import { PERMISSIONS } from '../core/permissions';
import type { MemberRecord } from '../../store/records/core';
import { keyRange } from '../../store/port';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A prune's parameters, validated. */
export interface PruneOptions {
  days: number;
  include_roles: string[];
}

/** Throws unless the caller may prune: MANAGE_GUILD and KICK_MEMBERS; `include_roles` must be roles of the guild. */
function requirePrune(view: GuildView, options: PruneOptions): void {
  requireMember(view);
  requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD | PERMISSIONS.KICK_MEMBERS);
  const bad: Record<string, string> = {};
  options.include_roles.forEach((id, i) => {
    if (!view.roles.some((r) => r.id === id) || id === view.guild.id) bad[`include_roles.${i}`] = 'Unknown role.';
  });
  if (Object.keys(bad).length > 0) throw ApiError.invalidForm(bad);
}

/** The members a prune removes now. */
function prunable(
  view: GuildView,
  members: readonly MemberRecord[],
  options: PruneOptions,
  now: number,
): MemberRecord[] {
  const cutoff = now - options.days * DAY_MS;
  const included = new Set(options.include_roles);
  const top = highestRolePosition(view, view.member!.roles);
  return members.filter(
    (m) =>
      m.user_id !== view.guild.owner_id &&
      m.user_id !== view.userId &&
      m.joined_at <= cutoff &&
      m.roles.every((r) => included.has(r)) &&
      (bypassesHierarchy(view) || highestRolePosition(view, m.roles) < top),
  );
}

const guildMembers = (guildId: string) => keyRange.bound([guildId], [guildId, []]);

/**
 * `GET /guilds/{guild.id}/prune`: `{pruned}`, how many members a prune would remove now.
 * @example await pruneCount(ctx, bot, guildId, { days: 7, include_roles: [] }) // { pruned: 2 }
 */
export async function pruneCount(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  options: PruneOptions,
): Promise<{ pruned: number }> {
  const view = await loadGuildView(dbReader(ctx.db), guildId, principal.user.id);
  requirePrune(view, options);
  const members = await ctx.db.getAll('members', guildMembers(guildId));
  return { pruned: prunable(view, members, options, ctx.clock.now()).length };
}

/**
 * `POST /guilds/{guild.id}/prune`: removes them, each with GUILD_MEMBER_REMOVE (and GUILD_DELETE
 * to the member), their voice state, and one MEMBER_PRUNE audit entry. `{pruned}` is the
 * number removed, or null when `compute_prune_count` is false.
 */
export async function beginPrune(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  options: PruneOptions & { compute_prune_count: boolean },
) {
  return write(ctx, ['guilds', 'roles', 'members', 'users', 'voice_states', 'audit_log_entries'], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requirePrune(view, options);
    const removed = prunable(view, await tx.store('members').getAll(guildMembers(guildId)), options, ctx.clock.now());
    for (const member of removed) {
      const user = await tx.store('users').get(member.user_id);
      await tx.store('members').delete([guildId, member.user_id]);
      await tx.store('voice_states').delete([guildId, member.user_id]);
      if (user)
        emit({
          type: 'GUILD_MEMBER_REMOVE',
          data: { guild_id: guildId, user: serializeMember(member, user).user },
          audience: { guild_id: guildId, intent: INTENTS.GUILD_MEMBERS },
        });
      emit({ type: 'GUILD_DELETE', data: { id: guildId }, audience: { user_ids: [member.user_id] } });
    }
    await appendAuditLogEntry(ctx, tx, {
      guild_id: guildId,
      action_type: AUDIT_LOG_EVENTS.MEMBER_PRUNE,
      user_id: principal.user.id,
      target_id: null,
      options: { delete_member_days: String(options.days), members_removed: String(removed.length) },
    });
    return { pruned: options.compute_prune_count ? removed.length : null };
  });
}
