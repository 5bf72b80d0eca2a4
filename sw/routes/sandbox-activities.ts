/**
 * Sandbox controls for what activities see of the platform's client beyond the public API:
 * quests (`POST /sandbox/quests`, `GET /sandbox/quests/{id}`), a user's simulated device
 * (`GET` / `PUT /sandbox/users/{id}/device {thermal_state}`: THERMAL_STATE_UPDATE, since a
 * browser has no thermal sensor) and the Join button of someone's activity
 * (`POST /sandbox/users/{id}/activity-joins {application_id, from_user_id}`: ACTIVITY_JOIN).
 */
import { Hono } from 'hono';
import { ApiError } from '../../src/platform/core/errors';
import { joinActivity, serializeActivityJoin } from '../../src/platform/activities/activity-joins';
import {
  ClientDeviceSchema,
  clientDeviceOf,
  serializeClientDevice,
  setThermalState,
} from '../../src/platform/activities/client-devices';
import { QuestCreateSchema, createQuest, serializeQuest } from '../../src/platform/activities/quests';
import {
  ActivityJoinSchema,
  SandboxQuestPathSchema,
  SandboxUserPathSchema,
} from '../../src/platform/activities/schemas';
import { readJson, validate, type AppEnv } from '../http';

/** The `/sandbox` routes of activities' client-side world. */
export function sandboxActivityRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/quests', async (c) => {
    const input = await readJson(c, QuestCreateSchema);
    return c.json({ quest: serializeQuest(await createQuest(c.get('ctx'), input)) }, 201);
  });

  r.get('/quests/:quest_id', async (c) => {
    const { quest_id } = validate(SandboxQuestPathSchema, c.req.param());
    const quest = await c.get('ctx').db.get('quests', quest_id);
    if (!quest) throw ApiError.of('UNKNOWN_ROUTE', 'Unknown quest');
    return c.json({ quest: serializeQuest(quest) });
  });

  r.get('/users/:user_id/device', async (c) => {
    const { user_id } = validate(SandboxUserPathSchema, c.req.param());
    if (!(await c.get('ctx').db.get('users', user_id))) throw ApiError.of('UNKNOWN_USER');
    return c.json({ device: serializeClientDevice(await clientDeviceOf(c.get('ctx'), user_id)) });
  });

  r.put('/users/:user_id/device', async (c) => {
    const { user_id } = validate(SandboxUserPathSchema, c.req.param());
    const { thermal_state } = await readJson(c, ClientDeviceSchema);
    return c.json({ device: serializeClientDevice(await setThermalState(c.get('ctx'), user_id, thermal_state)) });
  });

  r.post('/users/:user_id/activity-joins', async (c) => {
    const { user_id } = validate(SandboxUserPathSchema, c.req.param());
    const body = await readJson(c, ActivityJoinSchema);
    const join = await joinActivity(c.get('ctx'), { user_id, ...body });
    return c.json({ activity_join: serializeActivityJoin(join) }, 201);
  });

  return r;
}
