/**
 * Fixture sets (`/sandbox/fixture-sets/{name}`, a sandbox control route): a named JSON value a
 * tool keeps in the sandbox, such as the ids of the world it seeded. The platform's data is in
 * the sandbox; a record of where to find it belongs there too, so that every browser and
 * program that joins the sandbox (two machines on one server) finds the same world instead of
 * seeding another. A reset empties them with everything else.
 */
import * as v from 'valibot';
import type { FixtureSetRecord } from '../../store/schema';
import type { PlatformContext } from './context';
import { ApiError } from './errors';
import { FIXTURE_SET_NAME_MAX, FIXTURE_SET_VALUE_MAX_BYTES } from './limits';

/** `{name}` of the path: lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit. */
export const FixtureSetPathSchema = v.object({
  name: v.pipe(
    v.string(),
    v.regex(
      new RegExp(`^[a-z0-9][a-z0-9._-]{0,${FIXTURE_SET_NAME_MAX - 1}}$`),
      `Must be 1 to ${FIXTURE_SET_NAME_MAX} lower-case letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    ),
  ),
});

/** `PUT /sandbox/fixture-sets/{name}`: the value, a JSON object of at most 64 KiB. */
export const FixtureSetBodySchema = v.object({
  value: v.pipe(
    v.unknown(),
    v.check(
      (value): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value),
      'Must be a JSON object.',
    ),
    v.transform((value) => value as Record<string, unknown>),
    v.check(
      (value) => new TextEncoder().encode(JSON.stringify(value)).byteLength <= FIXTURE_SET_VALUE_MAX_BYTES,
      `Must be at most ${FIXTURE_SET_VALUE_MAX_BYTES} bytes of JSON.`,
    ),
  ),
});

/** A fixture set as the control API answers it. */
export function serializeFixtureSet(record: FixtureSetRecord) {
  return { name: record.name, value: record.value, updated_at: new Date(record.updated_at).toISOString() };
}

/**
 * The fixture set `name`; 404 when there is none.
 * @example const { value } = await getFixtureSet(ctx, 'demo-world');
 */
export async function getFixtureSet(ctx: PlatformContext, name: string): Promise<FixtureSetRecord> {
  const record = await ctx.db.get('fixture_sets', name);
  if (!record) throw ApiError.of('UNKNOWN_FIXTURE_SET');
  return record;
}

/**
 * Stores the fixture set `name`, replacing the one there, or, with `createOnly`, only when there
 * is none (412 otherwise): two machines that seeded at once keep the first one's.
 */
export function putFixtureSet(
  ctx: PlatformContext,
  name: string,
  value: Record<string, unknown>,
  options: { createOnly?: boolean } = {},
): Promise<{ record: FixtureSetRecord; created: boolean }> {
  return ctx.db.write(['fixture_sets'], async (tx) => {
    const store = tx.store('fixture_sets');
    const existing = await store.get(name);
    if (existing && options.createOnly) throw ApiError.of('FIXTURE_SET_EXISTS');
    const record: FixtureSetRecord = { name, value, updated_at: ctx.clock.now() };
    await store.put(record);
    return { record, created: !existing };
  });
}

/** Deletes the fixture set `name`; 404 when there is none. */
export function deleteFixtureSet(ctx: PlatformContext, name: string): Promise<void> {
  return ctx.db.write(['fixture_sets'], async (tx) => {
    const store = tx.store('fixture_sets');
    if (!(await store.get(name))) throw ApiError.of('UNKNOWN_FIXTURE_SET');
    await store.delete(name);
  });
}
