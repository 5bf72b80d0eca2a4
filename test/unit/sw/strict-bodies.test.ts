// @vitest-environment node
/**
 * Strict bodies on every route: each JSON body and nested field is the type its route expects
 * (object, array, integer in range, an existing date); anything else is refused with a 4xx in
 * the CONTRACT §2 shape (400 / 50035 naming the field, 400 / 50109 for text that is not JSON, 413
 * past the size limit), never a 5xx, and leaves every store as it was.
 *
 * Property-based with fast-check over every route's schema (`route-bodies.ts`): from a valid body,
 * one field at a time is made wrong by what the schema declares (`wrong-values.ts`). The seed is
 * fixed and each route gets RUNS_PER_ROUTE bodies, so a run is repeatable and fits CI; the routes'
 * answers by status are printed as a `reliability:` line and kept in test-results.
 */
import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JSON_BODY_MAX_BYTES, JSON_BODY_MAX_DEPTH } from '../../../src/platform/core/limits';
import { accessOf } from '../../../src/platform/oauth2/route-access-table';
import { routeKeyOf, type RouteKey } from '../../../src/platform/oauth2/route-access';
import { buildApp } from '../../../sw/app';
import { recordReliability } from '../../reliability-figures';
import type { JsonReply } from '../app-harness';
import { ROUTE_BODIES, ROUTES_WITHOUT_JSON_BODY, type RouteBody } from './route-bodies';
import { dumpStores, pathOf, routeWorld, WORLD_NOW, type RouteWorld } from './route-world';
import { type WrongBody, wrongBodies, wrongBodyKinds } from './wrong-values';

/** The fixed seed of every property run: the same bodies on every run. */
const SEED = 20_260_310;
/** Wrong bodies per route from the schema (the fixed cases come on top). */
const RUNS_PER_ROUTE = 40;

/** Answers by status over the whole file, for the reliability figures. */
const byStatus: Record<string, number> = {};
let storesChanged = 0;
/** Wrong bodies of the sweep (one of every kind on every field). */
let sweptBodies = 0;

let w: RouteWorld;
let baseline: string;

/** Writes committed so far (a refused request must commit none). */
let commits = 0;

beforeAll(async () => {
  w = await routeWorld();
  w.client.app.ctx.db.onCommit(() => {
    commits++;
  });
});

// Each route is held to the store as it was when its own test began, so a route that stored
// something is the only one to fail for it.
beforeEach(async () => {
  baseline = await dumpStores(w.client);
});

afterAll(async () => {
  const requests = Object.values(byStatus).reduce((n, k) => n + k, 0);
  const serverErrors = Object.entries(byStatus)
    .filter(([status]) => Number(status) >= 500)
    .reduce((n, [, k]) => n + k, 0);
  await recordReliability('fuzzed_bodies', {
    routes: Object.keys(ROUTE_BODIES).length,
    seed: SEED,
    swept_bodies: sweptBodies,
    runs_per_route: RUNS_PER_ROUTE,
    requests,
    by_status: byStatus,
    server_errors: serverErrors,
    stores_changed: storesChanged,
  });
});

/** The token a route is called with in the world: its bot, a user's token with every scope, or none. */
function tokenFor(key: RouteKey): string | undefined {
  const access = accessOf(key)!;
  if (access.open) return undefined;
  return access.bot ? w.auth.bot : w.auth.aliceAll;
}

/** Sends `text` as the JSON body of the route `key`, counting the answer. */
async function send(key: RouteKey, entry: RouteBody, text: string): Promise<JsonReply> {
  const method = key.slice(0, key.indexOf(' '));
  const reply = await w.client.request(method, pathOf(w, key) + (entry.query?.(w) ?? ''), {
    raw: text,
    token: tokenFor(key),
    headers: { 'Content-Type': 'application/json' },
  });
  byStatus[reply.status] = (byStatus[reply.status] ?? 0) + 1;
  return reply;
}

/**
 * A refusal in the CONTRACT §2 shape that committed no write (the storage's commit listener
 * hears every transaction that commits).
 */
function expectRefused(reply: JsonReply, statuses: number[], what: string, commitsBefore: number): void {
  const detail = `${what} → ${reply.status} ${JSON.stringify(reply.body).slice(0, 400)}`;
  expect(statuses, detail).toContain(reply.status);
  expect(typeof reply.body?.code, detail).toBe('number');
  expect(typeof reply.body?.message, detail).toBe('string');
  if (reply.body.code === 50035) expect(typeof reply.body.errors, detail).toBe('object');
  expect(commits - commitsBefore, `${what}: a refused request committed a write`).toBe(0);
}

/** Every store as it was when the route's test began: a dump of each, compared whole. */
async function expectStoresUnchanged(what: string): Promise<void> {
  const after = await dumpStores(w.client);
  const unchanged = after === baseline;
  if (!unchanged) {
    storesChanged++;
    baseline = after;
  }
  expect(unchanged, `${what}: the stores changed`).toBe(true);
}

/** The first field a wrong body changed, as the errors tree names it (`_root` for the body itself). */
function namedField(reply: JsonReply, path: (string | number)[]): boolean {
  const errors = reply.body?.errors ?? {};
  if (path.length === 0) return '_root' in errors || '_errors' in errors || Object.keys(errors).length > 0;
  return String(path[0]) in errors || '_root' in errors;
}

const entries = Object.entries(ROUTE_BODIES) as [RouteKey, RouteBody][];

describe('every route with a JSON body is covered', () => {
  it('each POST, PUT and PATCH route of the app has its body schema here, or says why it has none', () => {
    const app = buildApp(w.client.app.ctx, undefined, { gatewayUrl: () => 'ws://platform.test/gateway' });
    const changing = [
      ...new Set(
        app.routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method)).map((r) => routeKeyOf(r.method, r.path)),
      ),
    ];
    const missing = changing.filter((key) => !(key in ROUTE_BODIES) && !(key in ROUTES_WITHOUT_JSON_BODY));
    expect(missing).toEqual([]);
    const unknown = [...Object.keys(ROUTE_BODIES), ...Object.keys(ROUTES_WITHOUT_JSON_BODY)].filter(
      (key) => !changing.includes(key as RouteKey),
    );
    expect(unknown).toEqual([]);
  });

  it.each(entries)('the valid body of %s passes its schema (the fuzzing starts from it)', (_key, entry) => {
    const result = v.safeParse(entry.schema, entry.valid(w));
    expect(result.issues?.map((i) => `${v.getDotPath(i)}: ${i.message}`) ?? []).toEqual([]);
  });
});

/** Runs `body` with the platform clock the route needs, and the store baseline taken under it. */
async function underItsClock(entry: RouteBody, body: () => Promise<void>): Promise<void> {
  if (!entry.clock) return body();
  await w.client.put('/sandbox/clock', { now: entry.clock });
  baseline = await dumpStores(w.client);
  try {
    await body();
  } finally {
    await w.client.put('/sandbox/clock', { now: WORLD_NOW });
    baseline = await dumpStores(w.client);
  }
}

/** Sends a wrong body and expects it refused naming its field, nothing written. */
async function expectWrongBodyRefused(key: RouteKey, entry: RouteBody, { path, body }: WrongBody): Promise<void> {
  const before = commits;
  const reply = await send(key, entry, JSON.stringify(body));
  const what = `${key} with ${path.join('.') || 'the body'} = ${JSON.stringify(body).slice(0, 200)}`;
  expectRefused(reply, [400], what, before);
  expect(namedField(reply, path), `${what}: the error names the field: ${JSON.stringify(reply.body)}`).toBe(true);
}

describe('wrong bodies are refused naming the field, and change nothing (fast-check, fixed seed)', () => {
  it.each(entries)('%s: every kind of wrong value on every field, once each', async (key, entry) => {
    const kinds = wrongBodyKinds(entry.schema, entry.valid(w));
    await underItsClock(entry, async () => {
      for (const kind of kinds) {
        const [wrong] = fc.sample(kind, { seed: SEED, numRuns: 1 });
        await expectWrongBodyRefused(key, entry, wrong);
        sweptBodies++;
      }
      await expectStoresUnchanged(key);
    });
  });

  it.each(entries)('%s: wrong bodies drawn at random', async (key, entry) => {
    await underItsClock(entry, () =>
      fc.assert(
        fc.asyncProperty(wrongBodies(entry.schema, entry.valid(w)), (wrong) =>
          expectWrongBodyRefused(key, entry, wrong),
        ),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      ),
    );
  });
});

/** Text `depth` arrays deep. */
const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** Text `depth` objects deep. */
const deepObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('bodies no schema could take: arrays for objects, deep nesting, oversized, not JSON', () => {
  it.each(entries)(
    '%s refuses each of them',
    async (key, entry) => {
      const valid = entry.valid(w) as Record<string, unknown>;
      const firstField = Array.isArray(valid) ? undefined : Object.keys(valid)[0];
      const maxBytes = entry.maxBytes ?? JSON_BODY_MAX_BYTES;
      const cases: [string, string, number[]][] = [
        ['[{}]', JSON.stringify([{}]), [400]],
        ['a string', '"text"', [400]],
        ['a number', '9007199254740992', [400]],
        ['null', 'null', [400]],
        ['100,000 nested arrays', deepArrays(100_000), [400]],
        ['100,000 nested objects', deepObjects(100_000), [400]],
        [`${JSON_BODY_MAX_DEPTH + 1} nested arrays`, deepArrays(JSON_BODY_MAX_DEPTH + 1), [400]],
        ['not JSON', '{"a": ', [400]],
        ['a body over the size limit', JSON.stringify({ x: 'x'.repeat(maxBytes) }), [413]],
      ];
      // A top-level array is this route's own shape (the bulk member update takes a bare array).
      if (!Array.isArray(valid) && key !== 'POST /lobbies/:lobby_id/members/bulk') cases.unshift(['[]', '[]', [400]]);
      if (firstField !== undefined) {
        cases.push([
          `${firstField} nested 100,000 deep`,
          `{${JSON.stringify(firstField)}: ${deepArrays(100_000)}}`,
          [400],
        ]);
        cases.push([
          `${firstField} as a string past the size limit`,
          JSON.stringify({ ...valid, [firstField]: 'x'.repeat(maxBytes) }),
          [413],
        ]);
      }
      await underItsClock(entry, async () => {
        for (const [what, text, statuses] of cases) {
          const before = commits;
          expectRefused(await send(key, entry, text), statuses, `${key}: ${what}`, before);
        }
        await expectStoresUnchanged(key);
      });
      // A route whose limit is hundreds of MiB (sandbox interactions carry attachments) is sent
      // bodies past it: building and reading them takes seconds, which says nothing about speed.
    },
    120_000,
  );
});

describe('bodies that were once accepted and stored are refused, naming the field', () => {
  const deep = JSON.parse(deepArrays(JSON_BODY_MAX_DEPTH));
  const cases: [RouteKey, string, unknown, string][] = [
    ['POST /lobbies', 'an array for the body', [], '_root'],
    ['POST /lobbies', 'an array of an object for the body', [{}], '_root'],
    ['PATCH /lobbies/:lobby_id', 'an array for the body', [], '_root'],
    ['PUT /lobbies/:lobby_id/members/:user_id', 'an array for the body', [{}], '_root'],
    ['PATCH /guilds/:guild_id/members/:user_id', 'an array for the body', [], '_root'],
    ['PUT /channels/:channel_id/voice-status', 'an array for the body', [], '_root'],
    ['PUT /sandbox/guilds/:guild_id/members/:user_id', 'an array for the body', [], '_root'],
    ['POST /lobbies', `an array ${JSON_BODY_MAX_DEPTH} deep for the body`, deep, '_root'],
    ['PUT /users/@me/activities', 'an array for the activity', { activity: [] }, 'activity'],
    ['POST /channels/:channel_id/messages', 'an array for an embed', { content: 'x', embeds: [[]] }, 'embeds'],
    ['POST /lobbies', 'lobby flags of 2^53', { flags: 9_007_199_254_740_992 }, 'flags'],
    ['POST /lobbies', 'lobby flags of 2^32 (0 under a 32-bit mask)', { flags: 2 ** 32 }, 'flags'],
    ['PUT /lobbies/:lobby_id/members/:user_id', 'member flags of 2^53', { flags: 9_007_199_254_740_992 }, 'flags'],
    ['PATCH /guilds/:guild_id/members/:user_id', 'guild member flags of 2^32', { flags: 2 ** 32 }, 'flags'],
    [
      'PATCH /guilds/:guild_id/members/:user_id',
      'a timeout until February 30th',
      { communication_disabled_until: '2026-02-30T00:00:00Z' },
      'communication_disabled_until',
    ],
  ];
  it.each(cases)('%s: %s', async (key, _what, body, field) => {
    const entry = ROUTE_BODIES[key]!;
    const before = commits;
    const reply = await send(key, entry, JSON.stringify(body));
    expectRefused(reply, [400], `${key} ${JSON.stringify(body).slice(0, 100)}`, before);
    expect(reply.body.code).toBe(50035);
    expect(Object.keys(reply.body.errors), JSON.stringify(reply.body)).toContain(field);
    await expectStoresUnchanged(key);
  });
});
