/**
 * A user's progress in an application's quests, as the platform's client answers an activity
 * (GET_QUEST, GET_QUEST_ENROLLMENT_STATUS, QUEST_START_TIMER). Answers are in the RPC's terms:
 * a quest the activity may not see is "Quest not found" (4002), as the client says it. A quest
 * is completed once its timer ran for the play it asks for, by the platform clock.
 */
import { write } from '../../store/write';
import type { QuestEnrollmentRecord } from '../../store/schema';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { QuestRecord } from '../../store/records/activities';

function invalidCommand(detail: string): ApiError {
  return ApiError.of('RPC_INVALID_COMMAND', `${ApiError.of('RPC_INVALID_COMMAND').message}: ${detail}`);
}

const iso = (ms: number | undefined | null) => (ms === undefined || ms === null ? null : new Date(ms).toISOString());

/** When the enrollment completed its quest (its timer ran for the quest's play), or undefined. */
export function questCompletedAt(quest: QuestRecord, enrollment: QuestEnrollmentRecord | undefined, now: number) {
  if (enrollment?.timer_started_at === undefined) return undefined;
  const done = enrollment.timer_started_at + quest.play_seconds * 1000;
  return done <= now ? done : undefined;
}

/** The quest `questId` of `applicationId`, or 4002 "Quest not found". */
async function questOf(ctx: PlatformContext, applicationId: string, questId: string): Promise<QuestRecord> {
  const quest = await ctx.db.get('quests', questId);
  if (!quest || quest.application_id !== applicationId) throw invalidCommand(`Quest not found: ${questId}`);
  return quest;
}

/**
 * GET_QUEST: the application's quest for the user among those still offered: the one the user
 * enrolled in first, else the oldest. None offered is 4002 "No eligible quests found".
 */
export async function rpcQuest(ctx: PlatformContext, userId: string, applicationId: string) {
  const now = ctx.clock.now();
  const quests = (await ctx.db.getAllFromIndex('quests', 'by_application', applicationId)).filter(
    (q) => q.expires_at === null || q.expires_at > now,
  );
  if (quests.length === 0) throw invalidCommand('No eligible quests found');
  const rows = await Promise.all(
    quests.map(async (quest) => ({ quest, enrollment: await ctx.db.get('quest_enrollments', [quest.id, userId]) })),
  );
  rows.sort(
    (a, b) =>
      (a.enrollment?.enrolled_at ?? Number.POSITIVE_INFINITY) -
        (b.enrollment?.enrolled_at ?? Number.POSITIVE_INFINITY) || a.quest.created_at - b.quest.created_at,
  );
  const { quest, enrollment } = rows[0];
  return {
    quest_id: quest.id,
    enrolled_at: iso(enrollment?.enrolled_at),
    completed_at: iso(questCompletedAt(quest, enrollment, now)),
    external_cta_url: quest.external_cta_url,
  };
}

/** GET_QUEST_ENROLLMENT_STATUS: whether and when the user enrolled in the application's quest. */
export async function rpcQuestEnrollmentStatus(
  ctx: PlatformContext,
  userId: string,
  applicationId: string,
  questId: string,
) {
  const quest = await questOf(ctx, applicationId, questId);
  const enrollment = await ctx.db.get('quest_enrollments', [quest.id, userId]);
  return { quest_id: quest.id, is_enrolled: enrollment !== undefined, enrolled_at: iso(enrollment?.enrolled_at) };
}

/**
 * QUEST_START_TIMER: starts counting the user's play toward the quest. Only an enrolled user's
 * timer starts (else 4002 "User is not enrolled in quest"); starting it again keeps the first start.
 */
export async function startQuestTimer(ctx: PlatformContext, userId: string, applicationId: string, questId: string) {
  await questOf(ctx, applicationId, questId);
  return write(ctx, ['quest_enrollments'], async (tx) => {
    const enrollment = await tx.store('quest_enrollments').get([questId, userId]);
    if (!enrollment) throw invalidCommand('User is not enrolled in quest');
    if (enrollment.timer_started_at === undefined)
      await tx.store('quest_enrollments').put({ ...enrollment, timer_started_at: ctx.clock.now() });
    return { success: true };
  });
}
