/**
 * The sandbox control API (CONTRACT §3): fixtures and the clock, no auth header. A thin adapter:
 * each fixture is an operation of its area (users and applications in `accounts/`, guilds,
 * members, roles and channels in `guilds/`, tokens in `oauth2/`, the reset and the clock in
 * `core/`), validated with that area's schema.
 */
import { Hono } from 'hono';
import { createApplication, createUser, getSandboxUser } from '../../src/platform/accounts/fixtures';
import { SandboxApplicationSchema, SandboxUserSchema } from '../../src/platform/accounts/schemas';
import { serializeApplication } from '../../src/platform/accounts/applications';
import { serializeUser } from '../../src/platform/accounts/users';
import { ensureEventWebhooks } from '../../src/platform/webhooks/config';
import { resetPlatform } from '../../src/platform/core/fixtures';
import { SandboxClockSchema, setSandboxClock } from '../../src/platform/core/sandbox-clock';
import { createChannel, createGuild, createRole, putGuildMember } from '../../src/platform/guilds/fixtures';
import {
  GuildMemberPathSchema,
  SandboxChannelSchema,
  SandboxGuildSchema,
  SandboxMemberSchema,
  SandboxRoleSchema,
} from '../../src/platform/guilds/schemas';
import { serializeChannel, serializeGuild, serializeMember, serializeRole } from '../../src/platform/guilds/wire';
import { issueSandboxTokens } from '../../src/platform/oauth2/sandbox-tokens';
import { SandboxTokenSchema } from '../../src/platform/oauth2/schemas';
import { noContent, readJson, snowflakeParam, validate, type AppEnv } from '../http';

/** The `/sandbox` routes. */
export function sandboxRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/reset', async (c) => {
    await resetPlatform(c.get('ctx'));
    return noContent();
  });

  r.post('/users', async (c) => {
    const body = await readJson(c, SandboxUserSchema);
    return c.json({ user: serializeUser(await createUser(c.get('ctx'), body)) }, 201);
  });

  // The simulated client knows its users: <pp-activity-frame> shows who runs an activity before
  // any token exists.
  r.get('/users/:user_id', async (c) => {
    return c.json({ user: serializeUser(await getSandboxUser(c.get('ctx'), snowflakeParam(c, 'user_id'))) });
  });

  r.post('/applications', async (c) => {
    const body = await readJson(c, SandboxApplicationSchema);
    const created = await createApplication(c.get('ctx'), body);
    const { verify_key } = await ensureEventWebhooks(c.get('ctx'), created.application.id);
    return c.json(
      {
        application: serializeApplication(created.application, verify_key, created.bot),
        bot: serializeUser(created.bot),
        bot_token: created.bot_token,
        client_secret: created.client_secret,
      },
      201,
    );
  });

  r.post('/tokens', async (c) => {
    return c.json(await issueSandboxTokens(c.get('ctx'), await readJson(c, SandboxTokenSchema)), 201);
  });

  r.post('/guilds', async (c) => {
    const created = await createGuild(c.get('ctx'), await readJson(c, SandboxGuildSchema));
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
    const { guild_id, user_id } = validate(GuildMemberPathSchema, c.req.param());
    const body = await readJson(c, SandboxMemberSchema);
    const { member, user } = await putGuildMember(c.get('ctx'), guild_id, user_id!, body);
    return c.json({ member: serializeMember(member, user) }, 200);
  });

  r.post('/guilds/:guild_id/roles', async (c) => {
    const { guild_id } = validate(GuildMemberPathSchema, c.req.param());
    const role = await createRole(c.get('ctx'), guild_id, await readJson(c, SandboxRoleSchema));
    return c.json({ role: serializeRole(role) }, 201);
  });

  r.post('/guilds/:guild_id/channels', async (c) => {
    const { guild_id } = validate(GuildMemberPathSchema, c.req.param());
    const channel = await createChannel(c.get('ctx'), guild_id, await readJson(c, SandboxChannelSchema));
    return c.json({ channel: serializeChannel(channel) }, 201);
  });

  r.get('/clock', (c) => {
    const clock = c.get('ctx').clock;
    return c.json({ now: clock.isoNow(), frozen: clock.frozen });
  });

  r.put('/clock', async (c) => {
    const ctx = c.get('ctx');
    const { now: frozenAt } = await readJson(c, SandboxClockSchema);
    await setSandboxClock(ctx, frozenAt);
    return c.json({ now: ctx.clock.isoNow(), frozen: true });
  });

  r.delete('/clock', async (c) => {
    const ctx = c.get('ctx');
    await setSandboxClock(ctx, null);
    return c.json({ now: ctx.clock.isoNow(), frozen: false });
  });

  return r;
}
