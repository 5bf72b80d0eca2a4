/**
 * `GET/PUT /sandbox/applications/{id}/url-mappings`: an application's URL mappings for the
 * activity proxy, as its developer sets them in the developer portal. `PUT` replaces the whole
 * set; a bad mapping is a 400 / 50035 naming `url_mappings.<i>.prefix` or `.target`, and
 * nothing is stored.
 */
import { Hono } from 'hono';
import { getUrlMappings, setUrlMappings } from '../../src/platform/activities/url-mappings';
import { readJson, validate, type AppEnv } from '../http';
import { ApplicationPathSchema, UrlMappingsSchema } from '../../src/platform/activities/schemas';

/** The sandbox's URL mapping routes, mounted at `/sandbox`. */
export function sandboxUrlMappingRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/applications/:application_id/url-mappings', async (c) => {
    const { application_id } = validate(ApplicationPathSchema, c.req.param());
    return c.json({ url_mappings: await getUrlMappings(c.get('ctx'), application_id) });
  });
  r.put('/applications/:application_id/url-mappings', async (c) => {
    const { application_id } = validate(ApplicationPathSchema, c.req.param());
    const body = await readJson(c, UrlMappingsSchema);
    return c.json({ url_mappings: await setUrlMappings(c.get('ctx'), application_id, body.url_mappings) });
  });
  return r;
}
