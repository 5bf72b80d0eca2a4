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

/** What to do with the users a change names that do not exist. */
type UnknownUsers = (unknown: { id: string; index: number }[]) => ApiError;

/** Inside one write: checks the caller and the users, then adds or removes them. */
async function changeTargetUsers(
  ctx: PlatformContext,
  principal: BotPrincipal,
  code: string,
  userIds: readonly string[],
  add: boolean,
  unknownUsers: UnknownUsers,
): Promise<void> {
  await write(ctx, INVITE_STORES, async (tx) => {
    const now = ctx.clock.now();
    const invite = await findLiveInvite(tx, code, now);
    if (invite.inviter_id !== principal.user.id) {
      const view = await loadGuildView(txReader(tx), invite.guild_id, principal.user.id);
      requireMember(view);
      requirePermissions(guildPermissions(view), PERMISSIONS.MANAGE_GUILD);
    }
    if (add) {
      const keys = await Promise.all(userIds.map((id) => tx.store('users').getKey(id)));
      const unknown = userIds.flatMap((id, index) => (keys[index] === undefined ? [{ id, index }] : []));
      if (unknown.length > 0) throw unknownUsers(unknown);
    }
    // Removing from an invite anyone may accept changes nothing.
    if (!add && invite.target_user_ids === null) return;
    const current = invite.target_user_ids ?? [];
    const next = add ? [...new Set([...current, ...userIds])] : current.filter((id) => !userIds.includes(id));
    await tx.store('invites').put({ ...invite, target_user_ids: next, target_users_updated_at: now });
  });
}

/**
 * `PUT` (`add`) or `DELETE /invites/{code}/target-users/{user.id}`: an unknown user is 404 (10013).
 * @example await editTargetUser(ctx, bot, 'aB3dE5gH7j', userId, true);
 */
export async function editTargetUser(
  ctx: PlatformContext,
  principal: BotPrincipal,
  code: string,
  userId: string,
  add: boolean,
): Promise<void> {
  await changeTargetUsers(ctx, principal, code, [userId], add, () => ApiError.of('UNKNOWN_USER'));
}

/**
 * `POST /invites/{code}/target-users/bulk-add` (`add`) or `bulk-delete`: unknown users are
 * 400 (50035), each named by its index in `user_ids`.
 */
export async function editTargetUsers(
  ctx: PlatformContext,
  principal: BotPrincipal,
  code: string,
  userIds: readonly string[],
  add: boolean,
): Promise<void> {
  await changeTargetUsers(ctx, principal, code, userIds, add, (unknown) =>
    ApiError.invalidForm(Object.fromEntries(unknown.map((u) => [`user_ids.${u.index}`, 'Unknown user.']))),
  );
}
