/**
 * `GET/PUT /sandbox/applications/{id}/url-mappings`: an application's URL mappings for the
 * activity proxy, as its developer sets them in the developer portal. `PUT` replaces the whole
 * set; a bad mapping is a 400 / 50035 naming `url_mappings.<i>.prefix` or `.target`, and
 * nothing is stored.
 *
 * `POST /sandbox/url-mappings/resolve {url, referrer?}`: where the activity proxy sends a request
 * to `url` made by the page `referrer` (`{target: {url, prefix}}`, or `{target: null}` when no
 * mapping applies), refused as the proxy refuses it. A page on a platform server asks it, and
 * forwards the request itself, so that the server's mappings apply and a mapping to
 * `http://localhost:<port>` still reaches the developer's machine.
 */
import { Hono } from 'hono';
import { resolveUrlMapping } from './url-mapping-proxy';
import { getUrlMappings, setUrlMappings } from '../../src/platform/activities/url-mappings';
import { readJson, validate, type AppEnv } from '../http';
import {
  ApplicationPathSchema,
  UrlMappingResolveSchema,
  UrlMappingsSchema,
} from '../../src/platform/activities/schemas';

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
  r.post('/url-mappings/resolve', async (c) => {
    const body = await readJson(c, UrlMappingResolveSchema);
    const resolved = await resolveUrlMapping(c.get('ctx'), new URL(body.url), body.referrer ?? '');
    if (resolved && 'refused' in resolved) return resolved.refused;
    return c.json({ target: resolved ? { url: resolved.target.url.href, prefix: resolved.target.prefix } : null });
  });
  return r;
}
