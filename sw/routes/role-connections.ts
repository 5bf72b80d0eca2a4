/**
 * Role connections: `GET` / `PUT /applications/{id}/role-connections/metadata` (the bot) and
 * `GET` / `PUT` / `DELETE /users/@me/applications/{id}/role-connection` (a user's Bearer token
 * with `role_connections.write`). Mounted at the API root.
 */
import { Hono } from 'hono';
import {
  deleteRoleConnection,
  getRoleConnection,
  getRoleConnectionMetadata,
  putRoleConnection,
  putRoleConnectionMetadata,
} from '../../src/platform/accounts/role-connections';
import {
  RoleConnectionMetadataSchema,
  RoleConnectionSchema,
} from '../../src/platform/accounts/role-connection-schemas';
import { bearerOf, botOf, noContent, readJson, snowflakeParam, type AppEnv } from '../http';

/** The role connection routes. */
export function roleConnectionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const metadata = '/applications/:application_id/role-connections/metadata';
  const connection = '/users/@me/applications/:application_id/role-connection';
  r.get(metadata, async (c) =>
    c.json(await getRoleConnectionMetadata(c.get('ctx'), botOf(c), snowflakeParam(c, 'application_id'))),
  );
  r.put(metadata, async (c) => {
    const principal = botOf(c);
    const id = snowflakeParam(c, 'application_id');
    return c.json(
      await putRoleConnectionMetadata(c.get('ctx'), principal, id, await readJson(c, RoleConnectionMetadataSchema)),
    );
  });
  r.get(connection, async (c) =>
    c.json(await getRoleConnection(c.get('ctx'), bearerOf(c), snowflakeParam(c, 'application_id'))),
  );
  r.put(connection, async (c) => {
    const principal = bearerOf(c);
    const id = snowflakeParam(c, 'application_id');
    return c.json(await putRoleConnection(c.get('ctx'), principal, id, await readJson(c, RoleConnectionSchema)));
  });
  r.delete(connection, async (c) => {
    await deleteRoleConnection(c.get('ctx'), bearerOf(c), snowflakeParam(c, 'application_id'));
    return noContent();
  });
  return r;
}
