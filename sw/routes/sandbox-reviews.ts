/**
 * Sandbox routes where the sandbox plays the platform's staff and players: quest enrollments
 * (QUEST_USER_ENROLLMENT for webhooks) and decisions on privileged intents applications.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { applyForPrivilegedIntents } from '../../src/platform/accounts/privileged-intent-applications';
import { enrollInQuest, serializeQuestEnrollment } from '../../src/platform/activities/quests';
import { readJson, schemas, validate, type AppEnv } from '../http';

const EnrollmentBody = v.object({
  application_id: schemas.snowflake,
  user_id: schemas.snowflake,
  quest_name: v.optional(v.pipe(v.string('Must be a string.'), v.minLength(1), v.maxLength(100)), 'Quest'),
});
const ApplicationBody = v.object({ decision: v.picklist(['approved', 'denied'], 'Must be "approved" or "denied".') });

/** `/sandbox/quests/...` and `/sandbox/applications/{id}/privileged-intents-applications`. */
export function sandboxReviewRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/quests/:quest_id/enrollments', async (c) => {
    const { quest_id } = validate(v.object({ quest_id: schemas.snowflake }), c.req.param());
    const body = await readJson(c, EnrollmentBody);
    const { enrollment, created } = await enrollInQuest(c.get('ctx'), { ...body, quest_id });
    return c.json({ enrollment: serializeQuestEnrollment(enrollment) }, created ? 201 : 200);
  });

  r.post('/applications/:application_id/privileged-intents-applications', async (c) => {
    const { application_id } = validate(v.object({ application_id: schemas.snowflake }), c.req.param());
    const { decision } = await readJson(c, ApplicationBody);
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
