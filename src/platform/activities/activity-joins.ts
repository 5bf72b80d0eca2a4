/**
 * Activity joins (ACTIVITY_JOIN): a user joins someone's activity through its Join button (the
 * other user's rich presence shows an activity of the application with a join secret) or by
 * accepting an activity invite. The client launches the activity, which hears of the join once
 * it subscribes to ACTIVITY_JOIN: so the join is stored, the latest per user and application,
 * and the user's client is told at once (an activity already subscribed claims it then). A join
 * older than {@link ACTIVITY_JOIN_PENDING_MS} is stale and never delivered.
 */
import { write, type Emit, type WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { ACTIVITY_JOIN_PENDING_MS } from '../core/limits';
import { shownPresence } from '../presence/shown';
import { clientAudience } from './client-events';
import type { ActivityJoinRecord } from '../../store/records/activities';

/** The stores a join is written with (the event log is added by `write`). */
export const ACTIVITY_JOIN_STORES = ['users', 'applications', 'presences', 'activity_joins'] as const;

/** A join as the sandbox control API answers it. */
export function serializeActivityJoin(join: ActivityJoinRecord) {
  return {
    user_id: join.user_id,
    application_id: join.application_id,
    secret: join.secret,
    from_user_id: join.from_user_id,
    invite_code: join.invite_code,
    created_at: new Date(join.created_at).toISOString(),
  };
}

/**
 * Stores `join` in the caller's transaction (replacing the user's earlier one for the
 * application) and tells the user's client sessions of the application.
 */
export async function recordActivityJoin(
  tx: WriteTx,
  emit: Emit,
  join: ActivityJoinRecord,
): Promise<ActivityJoinRecord> {
  await tx.store('activity_joins').put(join);
  emit({
    type: 'ACTIVITY_JOIN',
    data: { user_id: join.user_id, application_id: join.application_id },
    audience: clientAudience(join.user_id, join.application_id),
  });
  return join;
}

/**
 * The user presses Join on `from_user_id`'s activity of the application (the platform client's
 * button; `POST /sandbox/users/{id}/activity-joins` stands in for it). That user must show an
 * activity of the application with a join secret (`secrets.join`, set with SET_ACTIVITY), else
 * 400 / 50035 naming `from_user_id`; unknown users and applications are 404.
 * @example await joinActivity(ctx, { user_id: bob.id, application_id, from_user_id: alice.id });
 */
export async function joinActivity(
  ctx: PlatformContext,
  input: { user_id: string; application_id: string; from_user_id: string },
): Promise<ActivityJoinRecord> {
  return write(ctx, [...ACTIVITY_JOIN_STORES], async (tx, emit) => {
    const [user, from] = await Promise.all([
      tx.store('users').get(input.user_id),
      tx.store('users').get(input.from_user_id),
    ]);
    if (!user || !from) throw ApiError.of('UNKNOWN_USER');
    if (!(await tx.store('applications').get(input.application_id))) throw ApiError.of('UNKNOWN_APPLICATION');
    if (from.id === user.id) throw ApiError.invalidForm({ from_user_id: 'A user cannot join their own activity.' });
    const shown = shownPresence(await tx.store('presences').get(from.id));
    const activity = shown.activities.find(
      (a) => 'application_id' in a && a.application_id === input.application_id && a.secrets?.join,
    );
    const secret = activity && 'secrets' in activity ? activity.secrets?.join : undefined;
    if (!secret)
      throw ApiError.invalidForm({
        from_user_id: 'This user shows no activity of this application that can be joined (no secrets.join).',
      });
    return recordActivityJoin(tx, emit, {
      user_id: user.id,
      application_id: input.application_id,
      secret,
      from_user_id: from.id,
      invite_code: null,
      created_at: ctx.clock.now(),
    });
  });
}

/**
 * Hands the user's pending join of the application to the activity that asks (once: the join
 * is deleted), or null when there is none or it is stale.
 * @example const join = await claimActivityJoin(ctx, userId, applicationId);
 */
export async function claimActivityJoin(
  ctx: PlatformContext,
  userId: string,
  applicationId: string,
): Promise<ActivityJoinRecord | null> {
  return write(ctx, ['activity_joins'], async (tx) => {
    const join = await tx.store('activity_joins').get([userId, applicationId]);
    if (!join) return null;
    await tx.store('activity_joins').delete([userId, applicationId]);
    return ctx.clock.now() - join.created_at <= ACTIVITY_JOIN_PENDING_MS ? join : null;
  });
}
