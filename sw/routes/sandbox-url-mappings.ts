/**
 * `GET/PUT /sandbox/applications/{id}/url-mappings`: an application's URL mappings for the
 * activity proxy, as its developer sets them in the developer portal. `PUT` replaces the whole
 * set; a bad mapping is a 400 / 50035 naming `url_mappings.<i>.prefix` or `.target`, and
 * nothing is stored.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { ApiError } from '../../src/platform/core/errors';
import { setUrlMappings, urlMappingsOf } from '../../src/platform/activities/url-mappings';
import { readJson, schemas, validate, type AppEnv } from '../http';

const AppParams = v.object({ application_id: schemas.snowflake });
const MappingsBody = v.object({
  url_mappings: v.array(
    v.object({
      prefix: v.pipe(v.string('Must be a string.'), v.maxLength(256, 'Must be 256 or fewer in length.')),
      target: v.pipe(v.string('Must be a string.'), v.maxLength(256, 'Must be 256 or fewer in length.')),
    }),
  ),
});

/** The sandbox's URL mapping routes, mounted at `/sandbox`. */
export function sandboxUrlMappingRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/applications/:application_id/url-mappings', async (c) => {
    const { application_id } = validate(AppParams, c.req.param());
    const application = await c.get('ctx').db.get('applications', application_id);
    if (!application) throw ApiError.of('UNKNOWN_APPLICATION');
    return c.json({ url_mappings: urlMappingsOf(application) });
  });
  r.put('/applications/:application_id/url-mappings', async (c) => {
    const { application_id } = validate(AppParams, c.req.param());
    const body = await readJson(c, MappingsBody);
    return c.json({ url_mappings: await setUrlMappings(c.get('ctx'), application_id, body.url_mappings) });
  });
  return r;
}
