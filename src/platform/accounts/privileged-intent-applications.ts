/**
 * Applying for privileged intents (spec, Limits: access by toggle below 10,000 accessible
 * users; an application is required from 10,000; reapplication once per year). The sandbox
 * plays the reviewer: it submits the application together with the decision.
 */
import { write } from '../../store/write';
import type { PrivilegedIntentApplicationRecord } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { PRIVILEGED_INTENTS_REAPPLICATIONS_PER_YEAR } from '../core/limits';

/** A year, as the reapplication window. */
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Submits an application for privileged intents with the reviewer's decision. An approval
 * (`approvals.privileged_intents_approved`) lets the toggled intents count from 10,000 users.
 * After a denial the application may apply again once per year, judged by the platform clock:
 * an earlier one is refused with the instant it may apply again, and nothing changes.
 * @example await applyForPrivilegedIntents(ctx, app.id, 'approved');
 */
export async function applyForPrivilegedIntents(
  ctx: PlatformContext,
  applicationId: string,
  decision: PrivilegedIntentApplicationRecord['decision'],
): Promise<PrivilegedIntentApplicationRecord> {
  return write(ctx, ['applications', 'privileged_intent_applications'], async (tx) => {
    const application = await tx.store('applications').get(applicationId);
    if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
    const now = ctx.clock.now();
    const previous = await tx.store('privileged_intent_applications').get(applicationId);
    if (previous?.decision === 'approved' && application.approvals.privileged_intents_approved) {
      throw ApiError.invalidForm({ application_id: 'This application is already approved for privileged intents.' });
    }
    const nextAllowed = previous ? previous.applied_at + YEAR_MS / PRIVILEGED_INTENTS_REAPPLICATIONS_PER_YEAR : now;
    if (now < nextAllowed) {
      throw ApiError.invalidForm({
        application_id: `An application may reapply for privileged intents once per year: next on ${new Date(nextAllowed).toISOString()}.`,
      });
    }
    const record: PrivilegedIntentApplicationRecord = { application_id: applicationId, applied_at: now, decision };
    await tx.store('privileged_intent_applications').put(record);
    await tx.store('applications').put({
      ...application,
      approvals: { ...application.approvals, privileged_intents_approved: decision === 'approved' },
    });
    return record;
  });
}
