/**
 * Editing an invite's target users in place: `PUT` / `DELETE /invites/{code}/target-users/{user.id}`
 * and `POST .../target-users/bulk-add` / `bulk-delete` (`user_ids`, 1 to 1000). The caller is the
 * inviter or has MANAGE_GUILD (public docs). Adding to an invite anyone may accept starts its
 * list; removing the last user leaves an empty list (nobody but the listed may accept). Unknown
 * users are refused with 400 (50035) naming each; the job status reports the change as a
 * completed job.
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PERMISSIONS } from '../core/permissions';
import { guildPermissions, loadGuildView, requireMember, requirePermissions, txReader } from '../guilds/access';
import { findLiveInvite, INVITE_STORES } from './invites-store';

/**
 * Adds (`add`) or removes the users `userIds` from invite `code`'s target users.
 * @example await editTargetUsers(ctx, bot, 'aB3dE5gH7j', [userId], true);
 */
export async function editTargetUsers(
  ctx: PlatformContext,
  principal: BotPrincipal,
  code: string,
  userIds: readonly string[],
  add: boolean,
  field = 'user_ids',
): Promise<void> {
  await write(ctx, INVITE_STORES, async (tx) => {
    const now = ctx.clock.now();
    const invite = await findLiveInvite(tx, code, now);
    if (invite.inviter_id !== principal.user.id) {
      const view = await loadGuildView(txReader(tx), invite.guild_id, principal.user.id);
      requireMember(view);
      requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
    }
    const ids = [...new Set(userIds)];
    if (add) {
      const users = await Promise.all(ids.map((id) => tx.store('users').getKey(id)));
      const bad: Record<string, string> = {};
      ids.forEach((id, i) => {
        if (users[i] === undefined)
          bad[field === 'user_id' ? field : `${field}.${userIds.indexOf(id)}`] = 'Unknown user.';
      });
      if (Object.keys(bad).length > 0) {
        if (field === 'user_id') throw ApiError.of('UNKNOWN_USER');
        throw ApiError.invalidForm(bad);
      }
    }
    const current = invite.target_user_ids ?? [];
    const next = add ? [...new Set([...current, ...ids])] : current.filter((id) => !ids.includes(id));
    // Removing from an invite anyone may accept changes nothing.
    if (!add && invite.target_user_ids === null) return;
    await tx.store('invites').put({ ...invite, target_user_ids: next, target_users_updated_at: now });
  });
}
