/**
 * An invite's target users: the users allowed to see and accept it, given as a CSV file with
 * a single column of user ids (`target_users_file`). Reading it answers CSV with the header
 * `user_id` and one id per line; replacing it takes a new file. Files are processed at once, so
 * the job the job-status route reports on is always completed.
 */
import type { WriteTx } from '../../store/write';
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { dbReader, guildPermissions, loadGuildView, requireMember } from '../guilds/access';
import type { InviteRecord } from '../../store/records/guilds';
import { findLiveInvite, INVITE_STORES } from './invites-store';
import { PERMISSIONS, hasPermission } from '../core/permissions';
import { isSnowflake } from '../core/snowflake';

/** The one header of a target users CSV. */
export const TARGET_USERS_HEADER = 'user_id';
/** Bad lines named in one error answer (the rest are counted). */
const ERRORS_SHOWN = 10;

/** One user id of a target users file and the line it was on (1-based). */
export interface TargetUserEntry {
  id: string;
  line: number;
}

/** A 400 (50035) on `target_users_file` with one error per bad line, as the platform describes them. */
function fileErrors(messages: string[]): ApiError {
  const shown = messages.slice(0, ERRORS_SHOWN);
  if (messages.length > ERRORS_SHOWN) shown.push(`...and ${messages.length - ERRORS_SHOWN} more invalid lines`);
  const e = ApiError.invalidForm({ target_users_file: shown[0] });
  e.errors!.target_users_file = { _errors: shown.map((message) => ({ code: 'TARGET_USERS_FILE_INVALID', message })) };
  return e;
}

/**
 * Parses a target users file: one user id per line, an optional first line `user_id` (the
 * header the platform answers with), blank lines and surrounding spaces ignored, duplicates
 * kept once. A line that is not a snowflake fails the whole file (400, every bad line named);
 * so does a file with no id.
 * @example parseTargetUsersCsv('user_id\n80351110224678912\n') // [{ id: '80351110224678912', line: 2 }]
 */
export function parseTargetUsersCsv(text: string): TargetUserEntry[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const entries = new Map<string, TargetUserEntry>();
  const errors: string[] = [];
  lines.forEach((raw, i) => {
    // A one-column CSV may still quote its cells.
    const cell = raw
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    if (cell === '' || (i === 0 && cell.toLowerCase() === TARGET_USERS_HEADER)) return;
    if (!/^\d+$/.test(cell)) errors.push(`Line ${i + 1}: invalid user ID format`);
    else if (!isSnowflake(cell)) errors.push(`Line ${i + 1}: invalid user ID - must be a valid snowflake`);
    else if (!entries.has(cell)) entries.set(cell, { id: cell, line: i + 1 });
  });
  if (errors.length > 0) throw fileErrors(errors);
  if (entries.size === 0) throw fileErrors(['The file must list at least one user ID.']);
  return [...entries.values()];
}

/** The target users CSV the platform answers: the header `user_id`, then one id per line. */
export function targetUsersCsv(ids: readonly string[]): string {
  return [TARGET_USERS_HEADER, ...ids].join('\n') + '\n';
}

/** Inside a write: throws 400 naming each line whose user does not exist. */
export async function requireKnownTargetUsers(tx: WriteTx, entries: readonly TargetUserEntry[]): Promise<void> {
  const keys = await Promise.all(entries.map((e) => tx.store('users').getKey(e.id)));
  const errors = entries.flatMap((e, i) => (keys[i] === undefined ? [`Line ${e.line}: unknown user ${e.id}`] : []));
  if (errors.length > 0) throw fileErrors(errors);
}

/**
 * Who may read an invite's target users and job status: its inviter, or a member with
 * MANAGE_GUILD or VIEW_AUDIT_LOG; changing them: the inviter or MANAGE_GUILD (public docs).
 */
async function requireTargetUsersAccess(
  ctx: PlatformContext,
  principal: BotPrincipal,
  invite: InviteRecord,
  change: boolean,
): Promise<void> {
  if (invite.inviter_id === principal.user.id) return;
  const view = await loadGuildView(dbReader(ctx.db), invite.guild_id, principal.user.id);
  requireMember(view);
  const bits = guildPermissions(view);
  const allowed =
    hasPermission(bits, PERMISSIONS.MANAGE_GUILD) || (!change && hasPermission(bits, PERMISSIONS.VIEW_AUDIT_LOG));
  if (!allowed) throw ApiError.of('MISSING_PERMISSIONS');
}

/** The live invite `code` read on its own. */
async function readInvite(ctx: PlatformContext, code: string): Promise<InviteRecord> {
  return findLiveInvite(ctx.db.read(INVITE_STORES), code, ctx.clock.now());
}

/**
 * `GET /invites/{code}/target-users`: the CSV; an invite without target users is 404 (10129).
 * @example const csv = await getTargetUsersCsv(ctx, bot, 'aB3dE5gH7j');
 */
export async function getTargetUsersCsv(ctx: PlatformContext, principal: BotPrincipal, code: string): Promise<string> {
  const invite = await readInvite(ctx, code);
  await requireTargetUsersAccess(ctx, principal, invite, false);
  if (invite.target_user_ids === null) throw ApiError.of('UNKNOWN_INVITE_TARGET_USERS');
  return targetUsersCsv(invite.target_user_ids);
}

/** `PUT /invites/{code}/target-users`: replaces the target users with the file's. */
export async function putTargetUsers(
  ctx: PlatformContext,
  principal: BotPrincipal,
  code: string,
  entries: readonly TargetUserEntry[],
): Promise<void> {
  await requireTargetUsersAccess(ctx, principal, await readInvite(ctx, code), true);
  await write(ctx, INVITE_STORES, async (tx) => {
    const invite = await findLiveInvite(tx, code, ctx.clock.now());
    await requireKnownTargetUsers(tx, entries);
    await tx
      .store('invites')
      .put({ ...invite, target_user_ids: entries.map((e) => e.id), target_users_updated_at: ctx.clock.now() });
  });
}

/**
 * `GET /invites/{code}/target-users/job-status`: the last target users file's processing job.
 * Processing is synchronous here, so it is COMPLETED (2) with every user processed; an invite
 * that never had target users has no job (404 10124).
 */
export async function getTargetUsersJobStatus(ctx: PlatformContext, principal: BotPrincipal, code: string) {
  const invite = await readInvite(ctx, code);
  await requireTargetUsersAccess(ctx, principal, invite, false);
  if (invite.target_user_ids === null || invite.target_users_updated_at === null)
    throw ApiError.of('UNKNOWN_INVITE_TARGET_USERS_JOB');
  const at = new Date(invite.target_users_updated_at).toISOString();
  const total = invite.target_user_ids.length;
  return {
    status: 2,
    total_users: total,
    processed_users: total,
    created_at: at,
    completed_at: at,
    error_message: null,
  };
}
