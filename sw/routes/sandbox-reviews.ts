/**
 * Sandbox routes where the sandbox plays the platform's staff and players: quest enrollments
 * (QUEST_USER_ENROLLMENT for webhooks) and decisions on privileged intents applications.
 */
import { Hono } from 'hono';
import { applyForPrivilegedIntents } from '../../src/platform/accounts/privileged-intent-applications';
import { enrollInQuest, serializeQuestEnrollment } from '../../src/platform/activities/quests';
import { readJson, type AppEnv, snowflakeParam } from '../http';
import { PrivilegedIntentsDecisionSchema } from '../../src/platform/accounts/schemas';
import { QuestEnrollmentSchema } from '../../src/platform/activities/schemas';

/** `/sandbox/quests/...` and `/sandbox/applications/{id}/privileged-intents-applications`. */
export function sandboxReviewRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/quests/:quest_id/enrollments', async (c) => {
    const quest_id = snowflakeParam(c, 'quest_id');
    const body = await readJson(c, QuestEnrollmentSchema);
    const { enrollment, created } = await enrollInQuest(c.get('ctx'), { ...body, quest_id });
    return c.json({ enrollment: serializeQuestEnrollment(enrollment) }, created ? 201 : 200);
  });

  r.post('/applications/:application_id/privileged-intents-applications', async (c) => {
    const application_id = snowflakeParam(c, 'application_id');
    const { decision } = await readJson(c, PrivilegedIntentsDecisionSchema);
    const record = await applyForPrivilegedIntents(c.get('ctx'), application_id, decision);
    return c.json(
      {
        application: {
          application_id,
          decision: record.decision,
          applied_at: new Date(record.applied_at).toISOString(),
        },
      },
      201,
    );
  });

  return r;
}
