/**
 * `/sandbox/fixture-sets/{name}`: named records of what a tool seeded, kept in the sandbox
 * (`src/platform/core/fixture-sets.ts`). `PUT` stores one (`If-None-Match: *` creates it only
 * when there is none, else 412), `GET` reads it, `DELETE` forgets it. JSON in and out.
 */
import { Hono } from 'hono';
import {
  deleteFixtureSet,
  FixtureSetBodySchema,
  FixtureSetPathSchema,
  getFixtureSet,
  putFixtureSet,
  serializeFixtureSet,
} from '../../src/platform/core/fixture-sets';
import { noContent, readJson, validate, type AppEnv } from '../http';

/** The fixture set routes, mounted at `/sandbox`. */
export function sandboxFixtureSetRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/fixture-sets/:name', async (c) => {
    const { name } = validate(FixtureSetPathSchema, c.req.param());
    return c.json({ fixture_set: serializeFixtureSet(await getFixtureSet(c.get('ctx'), name)) });
  });
  r.put('/fixture-sets/:name', async (c) => {
    const { name } = validate(FixtureSetPathSchema, c.req.param());
    const { value } = await readJson(c, FixtureSetBodySchema);
    const createOnly = c.req.header('If-None-Match')?.trim() === '*';
    const { record, created } = await putFixtureSet(c.get('ctx'), name, value, { createOnly });
    return c.json({ fixture_set: serializeFixtureSet(record) }, created ? 201 : 200);
  });
  r.delete('/fixture-sets/:name', async (c) => {
    const { name } = validate(FixtureSetPathSchema, c.req.param());
    await deleteFixtureSet(c.get('ctx'), name);
    return noContent();
  });
  return r;
}
