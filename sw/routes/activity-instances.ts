/**
 * Activity instance routes: `GET /applications/{application_id}/activity-instances/{instance_id}`
 * for the application's bot (an activity's backend checking an instance id).
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { getActivityInstance } from '../../src/platform/activities/activity-instance-reads';
import { snowflakeSchema } from '../../src/platform/core/schema-parts';
import { botOf, validate, type AppEnv } from '../http';

const PathSchema = v.object({
  application_id: snowflakeSchema,
  instance_id: v.pipe(
    v.string(),
    v.minLength(1, 'Must be 1 or more in length.'),
    v.maxLength(200, 'Must be 200 or fewer in length.'),
  ),
});

/** The activity instance routes, mounted at the API root. */
export function activityInstanceRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/applications/:application_id/activity-instances/:instance_id', async (c) => {
    const principal = botOf(c);
    const { application_id, instance_id } = validate(PathSchema, c.req.param());
    return c.json(await getActivityInstance(c.get('ctx'), principal, application_id, instance_id));
  });
  return r;
}
