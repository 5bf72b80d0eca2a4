/**
 * Quest enrollments. The platform's quests themselves are not modelled; what an application
 * sees of them is the QUEST_USER_ENROLLMENT webhook event (spec: Webhook events), which the
 * sandbox records when a user enrolls.
 */
import { write } from '../../store/write';
import type { QuestEnrollmentRecord } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { serializeUser } from '../accounts/users';

/** The QUEST_USER_ENROLLMENT payload (its shape is not shown by the spec: ours). */
export function serializeQuestEnrollment(record: QuestEnrollmentRecord) {
  return {
    quest_id: record.quest_id,
    quest_name: record.quest_name,
    application_id: record.application_id,
    user_id: record.user_id,
    enrolled_at: new Date(record.enrolled_at).toISOString(),
  };
}

/**
 * Enrolls a user in a quest of an application and records QUEST_USER_ENROLLMENT for the
 * application's webhooks. Enrolling again in the same quest changes nothing and records no
 * event. Resolves to the enrollment and whether it is new.
 * @example await enrollInQuest(ctx, { application_id, user_id, quest_id: '1', quest_name: 'Win a match' });
 */
export async function enrollInQuest(
  ctx: PlatformContext,
  input: { application_id: string; user_id: string; quest_id: string; quest_name: string },
): Promise<{ enrollment: QuestEnrollmentRecord; created: boolean }> {
  return write(ctx, ['users', 'applications', 'quest_enrollments'], async (tx, emit) => {
    const user = await tx.store('users').get(input.user_id);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    if (!(await tx.store('applications').get(input.application_id))) throw ApiError.of('UNKNOWN_APPLICATION');
    const existing = await tx.store('quest_enrollments').get([input.quest_id, input.user_id]);
    if (existing) {
      if (existing.application_id !== input.application_id)
        throw ApiError.invalidForm({ quest_id: 'This quest belongs to another application.' });
      return { enrollment: existing, created: false };
    }
    const enrollment: QuestEnrollmentRecord = { ...input, enrolled_at: ctx.clock.now() };
    await tx.store('quest_enrollments').add(enrollment);
    emit({
      type: 'QUEST_USER_ENROLLMENT',
      data: { ...serializeQuestEnrollment(enrollment), user: serializeUser(user) },
      audience: { application_id: input.application_id },
      channels: ['webhook'],
    });
    return { enrollment, created: true };
  });
}
