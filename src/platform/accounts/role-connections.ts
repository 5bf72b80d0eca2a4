/**
 * Role connections: an application's metadata records (`GET` / `PUT /applications/{id}/
 * role-connections/metadata`, its bot, at most 5 records with unique keys) and a user's
 * connection to it (`GET` / `PUT` / `DELETE /users/@me/applications/{id}/role-connection`, the
 * user's Bearer token with `role_connections.write` for that application). A connection's
 * metadata values are strings checked against the record of their key, as the platform's docs
 * type them: an integer for types 1-4, an ISO-8601 date and time for 5-6, "1" or "0" for 7-8.
 */
import { write } from '../../store/write';
import type { BearerPrincipal, BotPrincipal, Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import type { RoleConnectionMetadataRecord, RoleConnectionRecord } from '../../store/records/core';
import { ROLE_CONNECTION_METADATA_MAX } from '../core/limits';
import { parseIsoInstant } from '../core/clock';

/** The caller's own application, or 403 (50001) / 404 (10002). */
async function ownApplication(ctx: PlatformContext, principal: Principal, applicationId: string) {
  if (principal.application.id !== applicationId) {
    if (!(await ctx.db.getKey('applications', applicationId))) throw ApiError.of('UNKNOWN_APPLICATION');
    throw ApiError.of('MISSING_ACCESS');
  }
  const app = await ctx.db.get('applications', applicationId);
  if (!app) throw ApiError.of('UNKNOWN_APPLICATION');
  return app;
}

/** `GET /applications/{id}/role-connections/metadata`. */
export async function getRoleConnectionMetadata(ctx: PlatformContext, principal: BotPrincipal, applicationId: string) {
  return (await ownApplication(ctx, principal, applicationId)).role_connections_metadata ?? [];
}

/** `PUT /applications/{id}/role-connections/metadata`: replaces the records (at most 5, unique keys). */
export async function putRoleConnectionMetadata(
  ctx: PlatformContext,
  principal: BotPrincipal,
  applicationId: string,
  records: RoleConnectionMetadataRecord[],
) {
  await ownApplication(ctx, principal, applicationId);
  if (records.length > ROLE_CONNECTION_METADATA_MAX)
    throw ApiError.invalidForm({ _: `Must be ${ROLE_CONNECTION_METADATA_MAX} or fewer in length.` });
  const seen = new Set<string>();
  for (const [i, record] of records.entries()) {
    if (seen.has(record.key)) throw ApiError.invalidForm({ [`${i}.key`]: 'Keys must be unique.' });
    seen.add(record.key);
  }
  return write(ctx, ['applications'], async (tx) => {
    const app = await tx.store('applications').get(applicationId);
    if (!app) throw ApiError.of('UNKNOWN_APPLICATION');
    await tx.store('applications').put({ ...app, role_connections_metadata: records });
    return records;
  });
}

function serializeConnection(record: RoleConnectionRecord | undefined) {
  return {
    ...(record?.platform_name ? { platform_name: record.platform_name } : {}),
    platform_username: record?.platform_username ?? null,
    metadata: record?.metadata ?? {},
  };
}

/** `GET /users/@me/applications/{id}/role-connection`: the user's connection (empty when none). */
export async function getRoleConnection(ctx: PlatformContext, principal: BearerPrincipal, applicationId: string) {
  await ownApplication(ctx, principal, applicationId);
  return serializeConnection(await ctx.db.get('role_connections', [applicationId, principal.user.id]));
}

/** Why `value` is not a value of `record`'s type, or null. */
function valueProblem(record: RoleConnectionMetadataRecord, value: string): string | null {
  if (record.type <= 4) return /^-?\d{1,19}$/.test(value) ? null : 'Must be an integer.';
  if (record.type <= 6) return parseIsoInstant(value) !== null ? null : 'Must be an ISO-8601 date and time.';
  return value === '1' || value === '0' ? null : 'Must be "1" or "0".';
}

/** The fields of a role connection update. */
export interface RoleConnectionInput {
  platform_name?: string | null;
  platform_username?: string | null;
  metadata?: Record<string, string> | null;
}

/**
 * `PUT /users/@me/applications/{id}/role-connection`: replaces the user's connection; each
 * metadata key must be one of the application's records, its value of the record's type.
 * @example await putRoleConnection(ctx, bearer, appId, { platform_name: 'Game', metadata: { level: '12' } });
 */
export async function putRoleConnection(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  applicationId: string,
  input: RoleConnectionInput,
) {
  const app = await ownApplication(ctx, principal, applicationId);
  const records = new Map((app.role_connections_metadata ?? []).map((r) => [r.key, r]));
  const metadata = input.metadata ?? {};
  for (const [key, value] of Object.entries(metadata)) {
    const record = records.get(key);
    if (!record) throw ApiError.invalidForm({ [`metadata.${key}`]: 'Not a metadata key of the application.' });
    const problem = valueProblem(record, value);
    if (problem) throw ApiError.invalidForm({ [`metadata.${key}`]: problem });
  }
  const record: RoleConnectionRecord = {
    application_id: applicationId,
    user_id: principal.user.id,
    platform_name: input.platform_name ?? null,
    platform_username: input.platform_username ?? null,
    metadata,
  };
  await write(ctx, ['role_connections'], async (tx) => {
    await tx.store('role_connections').put(record);
  });
  return serializeConnection(record);
}

/** `DELETE /users/@me/applications/{id}/role-connection`: removes the user's connection. */
export async function deleteRoleConnection(ctx: PlatformContext, principal: BearerPrincipal, applicationId: string) {
  await ownApplication(ctx, principal, applicationId);
  await write(ctx, ['role_connections'], async (tx) => {
    await tx.store('role_connections').delete([applicationId, principal.user.id]);
  });
}
