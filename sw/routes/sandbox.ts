/**
 * The sandbox control API (CONTRACT §3): fixtures and the clock, no auth header.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import {
  createApplication,
  createChannel,
  createGuild,
  createRole,
  createUser,
  putGuildMember,
  resetPlatform,
} from '../../src/platform/core/fixtures';
import { serializeChannel, serializeMember, serializeRole, serializeGuild } from '../../src/platform/guilds/wire';
import { serializeUser } from '../../src/platform/accounts/users';
import { saveClockState } from '../../src/store/meta';
import { parseIsoInstant, REAL_TIME } from '../../src/platform/core/clock';
import { prepareTokenPair, storeTokenPair } from '../../src/platform/oauth2/tokens';
import { parseScopes } from '../../src/platform/oauth2/scopes';
import { write } from '../../src/store/write';
import { banHolds } from '../../src/platform/accounts/ban-checks';
import { ApiError } from '../../src/platform/core/errors';
import { noContent, readJson, schemas, validate, type AppEnv } from '../http';
import { applicationFlagsSchema, bitSetSchema } from '../../src/platform/core/schema-parts';
import { serializeApplication } from '../../src/platform/accounts/applications';
import { SANDBOX_CLOCK_MAX_MS, SANDBOX_CLOCK_MIN_MS, SLOWMODE_MAX_S } from '../../src/platform/core/limits';

const bitSet = bitSetSchema;

const UserBody = v.object({
  username: v.pipe(
    v.string(),
    v.minLength(2, 'Must be between 2 and 32 in length.'),
    v.maxLength(32, 'Must be between 2 and 32 in length.'),
  ),
  global_name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(32)))),
  premium_type: v.optional(v.picklist([0, 1, 2, 3])),
});
const ApplicationBody = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  owner_id: v.optional(schemas.snowflake),
  flags: v.optional(applicationFlagsSchema),
  bot_public: v.optional(v.boolean()),
});
const TokenBody = v.object({
  application_id: schemas.snowflake,
  user_id: schemas.snowflake,
  scopes: v.pipe(v.string(), v.minLength(1)),
});
const GuildBody = v.object({
  name: v.pipe(
    v.string(),
    v.minLength(2, 'Must be between 2 and 100 in length.'),
    v.maxLength(100, 'Must be between 2 and 100 in length.'),
  ),
  owner_id: schemas.snowflake,
  features: v.optional(v.array(v.string())),
});
const MemberBody = v.object({
  roles: v.optional(v.array(schemas.snowflake)),
  nick: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(32)))),
});
const RoleBody = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  permissions: bitSet,
  // Deprecated but honored, as on the role routes.
  color: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff)))),
  colors: v.optional(
    v.object({
      primary_color: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff)),
      secondary_color: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff)))),
      tertiary_color: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffff)))),
    }),
  ),
});
const ChannelBody = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  type: v.picklist([0, 2, 4, 5, 13, 15], 'Value is not a guild channel type.'),
  parent_id: v.optional(v.nullable(schemas.snowflake)),
  permission_overwrites: v.optional(
    v.array(v.object({ id: schemas.snowflake, type: v.picklist([0, 1]), allow: bitSet, deny: bitSet })),
  ),
  rate_limit_per_user: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(SLOWMODE_MAX_S))),
});
const CLOCK_RANGE = `Must be from ${new Date(SANDBOX_CLOCK_MIN_MS).toISOString()} to ${new Date(SANDBOX_CLOCK_MAX_MS).toISOString()}.`;
/** An instant that exists (no February 30th) within the range the clock accepts, as epoch ms. */
const ClockBody = v.object({
  now: v.pipe(
    v.string('Must be an ISO-8601 timestamp.'),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const ms = parseIsoInstant(dataset.value);
      if (ms === null)
        addIssue({ message: 'Must be a real ISO-8601 date and time with its offset, e.g. 2026-02-23T12:00:00Z.' });
      else if (ms < SANDBOX_CLOCK_MIN_MS || ms > SANDBOX_CLOCK_MAX_MS) addIssue({ message: CLOCK_RANGE });
      else return ms;
      return NEVER;
    }),
  ),
});
const IdParams = v.object({ guild_id: schemas.snowflake, user_id: v.optional(schemas.snowflake) });

/** The `/sandbox` routes. */
export function sandboxRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/reset', async (c) => {
    await resetPlatform(c.get('ctx'));
    return noContent();
  });

  r.post('/users', async (c) => {
    const body = await readJson(c, UserBody);
    return c.json({ user: serializeUser(await createUser(c.get('ctx'), body)) }, 201);
  });

  // The simulated client knows its users: <pp-activity-frame> shows who runs an activity before
  // any token exists.
  r.get('/users/:user_id', async (c) => {
    const { user_id } = validate(v.object({ user_id: schemas.snowflake }), c.req.param());
    const user = await c.get('ctx').db.get('users', user_id);
    if (!user) throw ApiError.of('UNKNOWN_USER');
    return c.json({ user: serializeUser(user) });
  });

  r.post('/applications', async (c) => {
    const body = await readJson(c, ApplicationBody);
    const created = await createApplication(c.get('ctx'), body);
    return c.json(
      {
        application: serializeApplication(created.application, created.bot),
        bot: serializeUser(created.bot),
        bot_token: created.bot_token,
        client_secret: created.client_secret,
      },
      201,
    );
  });

  r.post('/tokens', async (c) => {
    const ctx = c.get('ctx');
    const body = await readJson(c, TokenBody);
    const { scopes, unknown } = parseScopes(body.scopes);
    if (unknown.length > 0 || scopes.length === 0)
      throw ApiError.invalidForm({
        scopes: unknown.length
          ? `${unknown.length} unknown scope(s); known scopes are listed in the README.`
          : 'At least one scope is required.',
      });
    // Unknown names are not echoed: a pasted token must never come back in an error body.
    const pair = await prepareTokenPair(ctx, { application_id: body.application_id, user_id: body.user_id, scopes });
    await write(ctx, ['applications', 'users', 'tokens', 'bans'], async (tx) => {
      if (!(await tx.objectStore('applications').get(body.application_id)))
        throw ApiError.invalidForm({ application_id: 'Unknown application.' });
      const user = await tx.objectStore('users').get(body.user_id);
      if (!user || user.bot)
        throw ApiError.invalidForm({ user_id: user ? 'Bots cannot hold OAuth2 tokens.' : 'Unknown user.' });
      // The fixture skips consent, not the ban: a banned user gets no token from here either.
      if (await banHolds(tx.objectStore('bans'), user.id))
        throw ApiError.invalidForm({ user_id: 'This user is banned.' });
      await storeTokenPair(tx, pair);
    });
    return c.json(pair.response, 201);
  });

  r.post('/guilds', async (c) => {
    const created = await createGuild(c.get('ctx'), await readJson(c, GuildBody));
    return c.json(
      {
        guild: serializeGuild(created.guild, created.roles),
        roles: created.roles.map(serializeRole),
        channels: created.channels.map(serializeChannel),
      },
      201,
    );
  });

  r.put('/guilds/:guild_id/members/:user_id', async (c) => {
    const ctx = c.get('ctx');
    const params = validate(IdParams, c.req.param());
    const member = await putGuildMember(ctx, params.guild_id, params.user_id!, await readJson(c, MemberBody));
    const user = await ctx.db.get('users', member.user_id);
    return c.json({ member: serializeMember(member, user!) }, 200);
  });

  r.post('/guilds/:guild_id/roles', async (c) => {
    const params = validate(IdParams, c.req.param());
    return c.json(
      { role: serializeRole(await createRole(c.get('ctx'), params.guild_id, await readJson(c, RoleBody))) },
      201,
    );
  });

  r.post('/guilds/:guild_id/channels', async (c) => {
    const params = validate(IdParams, c.req.param());
    return c.json(
      { channel: serializeChannel(await createChannel(c.get('ctx'), params.guild_id, await readJson(c, ChannelBody))) },
      201,
    );
  });

  r.get('/clock', (c) => {
    const clock = c.get('ctx').clock;
    return c.json({ now: clock.isoNow(), frozen: clock.frozen });
  });

  r.put('/clock', async (c) => {
    const ctx = c.get('ctx');
    const { now: frozenAt } = await readJson(c, ClockBody);
    await saveClockState(ctx.db, { frozenAt }, frozenAt);
    ctx.clock.set({ frozenAt });
    ctx.announce({ type: 'clock', frozenAt });
    return c.json({ now: ctx.clock.isoNow(), frozen: true });
  });

  r.delete('/clock', async (c) => {
    const ctx = c.get('ctx');
    await saveClockState(ctx.db, REAL_TIME, ctx.clock.readingUnder(REAL_TIME));
    ctx.clock.set({ frozenAt: null });
    ctx.announce({ type: 'clock', frozenAt: null });
    return c.json({ now: ctx.clock.isoNow(), frozen: false });
  });

  return r;
}
