/**
 * Invite routes: `POST` / `GET /channels/{channel.id}/invites`, `GET` / `DELETE /invites/{code}`,
 * and an invite's target users (`GET` / `PUT /invites/{code}/target-users`, `.../job-status`).
 * Creating takes JSON, or `multipart/form-data` with the `target_users_file` CSV beside the
 * other fields (as form fields or in `payload_json`). Changes are for bots.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { API_ERRORS, ApiError } from '../../src/platform/core/errors';
import { createChannelInvite, deleteInvite, getInvite, listChannelInvites } from '../../src/platform/channels/invites';
import {
  getTargetUsersCsv,
  getTargetUsersJobStatus,
  parseTargetUsersCsv,
  putTargetUsers,
} from '../../src/platform/channels/invites-target-users';
import { INVITE_MAX_AGE_DEFAULT_S, INVITE_TARGET_USERS_FILE_MAX_BYTES } from '../../src/platform/core/limits';
import { botOf, noContent, parseJsonBody, readJson, readQuery, validate, type AppContext, type AppEnv } from '../http';
import {
  CreateInviteSchema,
  InviteChannelPathSchema,
  InviteCodePathSchema,
  InviteQuerySchema,
} from '../../src/platform/channels/schemas';

/** A multipart body; malformed multipart is the client's mistake (400), too large is 413. */
async function readForm(c: AppContext): Promise<FormData> {
  const length = Number(c.req.header('Content-Length') ?? 0);
  // The file plus the other fields: twice the file limit leaves room for any sane form.
  if (length > 2 * INVITE_TARGET_USERS_FILE_MAX_BYTES) throw ApiError.of('REQUEST_TOO_LARGE');
  try {
    return await c.req.formData();
  } catch {
    throw ApiError.invalidForm({ _root: 'The body is not valid multipart/form-data.' });
  }
}

/** The text of the `target_users_file` part, or undefined when there is none. */
async function readTargetUsersFile(form: FormData): Promise<string | undefined> {
  const file = form.get('target_users_file');
  if (file === null) return undefined;
  if (typeof file === 'string') return file;
  if (file.size > INVITE_TARGET_USERS_FILE_MAX_BYTES) throw ApiError.of('REQUEST_TOO_LARGE');
  return file.text();
}

/** A form field as the JSON value it stands for ("3" is 3, "true" is true). */
function coerceField(value: string): unknown {
  if (/^-?\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

/** The create fields of a multipart body: `payload_json`, then plain form fields it lacks. */
function formFields(form: FormData): Record<string, unknown> {
  let fields: Record<string, unknown> = {};
  const payload = form.get('payload_json');
  if (typeof payload === 'string') {
    let json: unknown;
    try {
      json = parseJsonBody(payload);
    } catch (error) {
      if (error instanceof ApiError && error.code === API_ERRORS.INVALID_JSON.code)
        throw ApiError.invalidForm({ payload_json: 'Must be valid JSON.' });
      throw error;
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw ApiError.invalidForm({ payload_json: 'Must be a JSON object.' });
    fields = json as Record<string, unknown>;
  }
  for (const key of ['max_age', 'max_uses', 'temporary', 'unique'] as const) {
    const value = form.get(key);
    if (!(key in fields) && typeof value === 'string') fields[key] = coerceField(value);
  }
  const roles = form.getAll('role_ids').filter((r): r is string => typeof r === 'string');
  if (!('role_ids' in fields) && roles.length > 0) {
    try {
      fields.role_ids = roles.length === 1 && roles[0].trim().startsWith('[') ? JSON.parse(roles[0]) : roles;
    } catch {
      throw ApiError.invalidForm({ role_ids: 'Must be a JSON array of role ids, or one role id per field.' });
    }
  }
  return fields;
}

/** The invite routes, mounted at the API root. */
export function inviteRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/channels/:channel_id/invites', async (c) => {
    const principal = botOf(c);
    const { channel_id } = validate(InviteChannelPathSchema, c.req.param());
    let body: v.InferOutput<typeof CreateInviteSchema>;
    let file: string | undefined;
    if ((c.req.header('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      const form = await readForm(c);
      file = await readTargetUsersFile(form);
      body = validate(CreateInviteSchema, formFields(form));
    } else {
      body = await readJson(c, CreateInviteSchema);
    }
    const invite = await createChannelInvite(c.get('ctx'), principal, channel_id, {
      max_age: body.max_age ?? INVITE_MAX_AGE_DEFAULT_S,
      max_uses: body.max_uses ?? 0,
      temporary: body.temporary ?? false,
      unique: body.unique ?? false,
      role_ids: body.role_ids ?? [],
      target_users: file === undefined ? null : parseTargetUsersCsv(file),
    });
    return c.json(invite);
  });

  r.get('/channels/:channel_id/invites', async (c) => {
    const principal = botOf(c);
    return c.json(
      await listChannelInvites(c.get('ctx'), principal, validate(InviteChannelPathSchema, c.req.param()).channel_id),
    );
  });

  r.get('/invites/:code', async (c) => {
    const { code } = validate(InviteCodePathSchema, c.req.param());
    return c.json(await getInvite(c.get('ctx'), c.get('principal'), code, readQuery(c, InviteQuerySchema).with_counts));
  });

  r.delete('/invites/:code', async (c) => {
    const principal = botOf(c);
    return c.json(await deleteInvite(c.get('ctx'), principal, validate(InviteCodePathSchema, c.req.param()).code));
  });

  r.get('/invites/:code/target-users', async (c) => {
    const principal = botOf(c);
    const csv = await getTargetUsersCsv(c.get('ctx'), principal, validate(InviteCodePathSchema, c.req.param()).code);
    return c.body(csv, 200, { 'Content-Type': 'text/csv; charset=utf-8' });
  });

  r.put('/invites/:code/target-users', async (c) => {
    const principal = botOf(c);
    const { code } = validate(InviteCodePathSchema, c.req.param());
    if (!(c.req.header('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      throw ApiError.invalidForm({ target_users_file: 'Send the file as multipart/form-data.' });
    }
    const file = await readTargetUsersFile(await readForm(c));
    if (file === undefined) throw ApiError.invalidForm({ target_users_file: 'This field is required' });
    await putTargetUsers(c.get('ctx'), principal, code, parseTargetUsersCsv(file));
    return noContent();
  });

  r.get('/invites/:code/target-users/job-status', async (c) => {
    const principal = botOf(c);
    return c.json(
      await getTargetUsersJobStatus(c.get('ctx'), principal, validate(InviteCodePathSchema, c.req.param()).code),
    );
  });

  return r;
}
