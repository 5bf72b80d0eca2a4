// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../src/platform/core/intents';
import { createTestClient } from '../app-harness';
import { PERMISSIONS, countOf, eventsOf, guildWorld, otherBot, setRolePermissions } from './guild-admin-fixtures';

const MANAGE_GUILD = PERMISSIONS.MANAGE_GUILD;

async function world(bits: bigint = MANAGE_GUILD) {
  const client = await createTestClient();
  const w = await guildWorld(client, bits);
  return { client, w, base: `/api/v10/guilds/${w.guild.id}` };
}

describe('integrations (MANAGE_GUILD): the bot applications in the guild', () => {
  it('GET lists one discord integration per bot, its id the application id', async () => {
    const { client, w, base } = await world();
    const other = await otherBot(client, w.guild.id, 0n);
    const res = await client.get(`${base}/integrations`, w.botAuth);
    expect(res.status).toBe(200);
    expect(res.body.map((i: any) => [i.type, i.account.id, i.scopes])).toEqual([
      ['discord', w.bot.id, ['bot', 'applications.commands']],
      ['discord', other.bot.id, ['bot', 'applications.commands']],
    ]);
    expect(res.body[0]).toMatchObject({
      id: w.application.id,
      application: { id: w.application.id, bot: { id: w.bot.id } },
    });
  });

  it('DELETE removes the bot: GUILD_MEMBER_REMOVE, GUILD_DELETE to it, GUILD_INTEGRATIONS_UPDATE and INTEGRATION_DELETE (GUILD_INTEGRATIONS), an INTEGRATION_DELETE audit entry', async () => {
    const { client, w, base } = await world();
    const other = await otherBot(client, w.guild.id, 0n);
    const appId = (await client.get(`${base}/integrations`, w.botAuth)).body[1].id;
    const res = await client.delete(`${base}/integrations/${appId}`, w.botAuth);
    expect(res.status).toBe(204);
    expect(await client.db.get('members', [w.guild.id, other.bot.id])).toBeUndefined();
    expect((await eventsOf(client, 'GUILD_DELETE')).at(-1)!.audience).toEqual({ user_ids: [other.bot.id] });
    expect((await eventsOf(client, 'GUILD_MEMBER_REMOVE')).at(-1)!.data).toMatchObject({ user: { id: other.bot.id } });
    const audience = { guild_id: w.guild.id, intent: INTENTS.GUILD_INTEGRATIONS };
    expect((await eventsOf(client, 'GUILD_INTEGRATIONS_UPDATE')).at(-1)).toMatchObject({
      data: { guild_id: w.guild.id },
      audience,
    });
    expect((await eventsOf(client, 'INTEGRATION_DELETE')).at(-1)).toMatchObject({
      data: { id: appId, guild_id: w.guild.id, application_id: appId },
      audience,
    });
    expect((await client.db.getAll('audit_log_entries')).at(-1)).toMatchObject({ action_type: 82, target_id: appId });
    // The removed bot is no longer in the guild.
    expect((await client.get(`${base}/integrations`, other.auth)).body.code).toBe(50001);
  });

  it('an unknown integration is 404 (10005); without MANAGE_GUILD 403 (50013); nothing removed', async () => {
    const { client, w, base } = await world();
    expect((await client.delete(`${base}/integrations/1`, w.botAuth)).body.code).toBe(10005);
    await setRolePermissions(client, w.botRole.id, 0n);
    const members = await countOf(client, 'members');
    expect((await client.get(`${base}/integrations`, w.botAuth)).body.code).toBe(50013);
    expect((await client.delete(`${base}/integrations/${w.application.id}`, w.botAuth)).body.code).toBe(50013);
    expect(await countOf(client, 'members')).toBe(members);
  });
});

describe('onboarding (GET: members; PUT: MANAGE_GUILD and MANAGE_ROLES)', () => {
  const prompt = (w: any) => ({
    id: '1200000000000000001',
    title: 'What do you play?',
    options: [{ title: 'Raids', role_ids: [w.memberRole.id], channel_ids: [w.text.id], emoji_name: '⚔️' }],
  });

  it('PUT stores prompts and default channels, answers them with option ids and emoji, and writes audit entries', async () => {
    const { client, w, base } = await world(MANAGE_GUILD | PERMISSIONS.MANAGE_ROLES);
    const res = await client.put(
      `${base}/onboarding`,
      { prompts: [prompt(w)], default_channel_ids: [w.text.id], mode: 0 },
      w.botAuth,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      guild_id: w.guild.id,
      enabled: false,
      mode: 0,
      default_channel_ids: [w.text.id],
      prompts: [
        {
          id: '1200000000000000001',
          type: 0,
          options: [{ title: 'Raids', emoji: { id: null, name: '⚔️', animated: false }, role_ids: [w.memberRole.id] }],
        },
      ],
    });
    expect(res.body.prompts[0].options[0].id).toMatch(/^\d+$/);
    expect((await client.get(`${base}/onboarding`, w.botAuth)).body).toEqual(res.body);
    const actions = (await client.db.getAll('audit_log_entries')).map((e) => e.action_type).sort();
    expect(actions).toEqual([163, 167]);
    // Removing the prompt writes ONBOARDING_PROMPT_DELETE.
    await client.put(`${base}/onboarding`, { prompts: [] }, w.botAuth);
    expect((await client.db.getAll('audit_log_entries')).map((e) => e.action_type)).toContain(165);
  });

  it('enabling below 7 default channels (5 where @everyone may send) is 400 (350000); without MANAGE_ROLES 403 (50013)', async () => {
    const { client, w, base } = await world(MANAGE_GUILD | PERMISSIONS.MANAGE_ROLES);
    const res = await client.put(`${base}/onboarding`, { enabled: true, default_channel_ids: [w.text.id] }, w.botAuth);
    expect([res.status, res.body.code]).toEqual([400, 350000]);
    const ids: string[] = [w.text.id];
    for (let i = 0; i < 6; i++)
      ids.push(
        (await client.post(`/sandbox/guilds/${w.guild.id}/channels`, { name: `c${i}`, type: 0 })).body.channel.id,
      );
    const ok = await client.put(`${base}/onboarding`, { enabled: true, default_channel_ids: ids }, w.botAuth);
    expect([ok.status, ok.body.enabled]).toEqual([200, true]);
    expect((await client.get(`${base}/onboarding`, w.botAuth)).body.enabled).toBe(true);
    // Already enabled: dropping below the requirements is 350001.
    const below = await client.put(`${base}/onboarding`, { default_channel_ids: ids.slice(0, 3) }, w.botAuth);
    expect(below.body.code).toBe(350001);
    await setRolePermissions(client, w.botRole.id, MANAGE_GUILD);
    expect((await client.put(`${base}/onboarding`, { mode: 1 }, w.botAuth)).body.code).toBe(50013);
  });

  it('an unknown role, channel or emoji is 400 (50035) naming it; more than 15 prompts is 400 (50035)', async () => {
    const { client, w, base } = await world(MANAGE_GUILD | PERMISSIONS.MANAGE_ROLES);
    const bad = { ...prompt(w), options: [{ title: 'x', role_ids: [w.guild.id], channel_ids: ['1'], emoji_id: '2' }] };
    const res = await client.put(`${base}/onboarding`, { prompts: [bad] }, w.botAuth);
    expect(res.body.code).toBe(50035);
    expect(Object.keys(res.body.errors.prompts['0'].options['0']).sort()).toEqual([
      'channel_ids',
      'emoji_id',
      'role_ids',
    ]);
    const many = Array.from({ length: 16 }, (_, i) => ({ ...prompt(w), id: String(1200000000000000001n + BigInt(i)) }));
    expect((await client.put(`${base}/onboarding`, { prompts: many }, w.botAuth)).body.code).toBe(50035);
    expect(await client.db.count('guild_settings')).toBe(0);
  });
});

describe('preview and vanity URL', () => {
  it('GET /preview answers a member the guild with counts and emoji; a guild the bot is not in is 404 (10004)', async () => {
    const { client, w, base } = await world(0n);
    const res = await client.get(`${base}/preview`, w.botAuth);
    expect(res.body).toMatchObject({
      id: w.guild.id,
      name: 'Guild',
      approximate_member_count: 3,
      emojis: [],
      stickers: [],
    });
    const other = (await client.post('/sandbox/guilds', { name: 'Other', owner_id: w.alice.id })).body.guild;
    expect((await client.get(`/api/v10/guilds/${other.id}/preview`, w.botAuth)).body.code).toBe(10004);
  });

  it('GET /vanity-url needs MANAGE_GUILD and answers code null, uses 0', async () => {
    const { client, w, base } = await world();
    expect((await client.get(`${base}/vanity-url`, w.botAuth)).body).toEqual({ code: null, uses: 0 });
    await setRolePermissions(client, w.botRole.id, 0n);
    expect((await client.get(`${base}/vanity-url`, w.botAuth)).body.code).toBe(50013);
  });
});

describe('GET /oauth2/userinfo (OpenID Connect)', () => {
  it('a token with openid gets sub, preferred_username, picture and locale; with email the email claims', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const res = await client.get('/api/v10/oauth2/userinfo', w.aliceAuth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sub: w.alice.id, preferred_username: 'alice', locale: 'en-US' });
    expect(res.body.picture).toMatch(/^https:\/\/cdn\.discordapp\.com\/embed\/avatars\/\d\.png$/);
    expect(res.body.email).toBeUndefined();
    const token = (
      await client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.bob.id,
        scopes: 'openid email',
      })
    ).body.access_token;
    expect(Object.keys((await client.get('/oauth2/userinfo', `Bearer ${token}`)).body)).toContain('email_verified');
  });

  it('a token without openid is 403 (50001); a bot token 403 (20001)', async () => {
    const client = await createTestClient();
    const w = await guildWorld(client);
    const token = (
      await client.post('/sandbox/tokens', { application_id: w.application.id, user_id: w.bob.id, scopes: 'identify' })
    ).body.access_token;
    expect((await client.get('/api/v10/oauth2/userinfo', `Bearer ${token}`)).body.code).toBe(50001);
    expect((await client.get('/api/v10/oauth2/userinfo', w.botAuth)).body.code).toBe(20001);
  });
});

describe('invite target users edited in place (inviter or MANAGE_GUILD; bulk 1 to 1000)', () => {
  async function inviteWorld(bits = PERMISSIONS.CREATE_INSTANT_INVITE) {
    const { client, w } = await world(bits);
    const invite = (await client.post(`/api/v10/channels/${w.text.id}/invites`, {}, w.botAuth)).body;
    const csv = (code: string) => client.get(`/api/v10/invites/${code}/target-users`, w.botAuth);
    return { client, w, invite, base: `/api/v10/invites/${invite.code}/target-users`, csv };
  }

  it('PUT and DELETE .../target-users/{user.id} add and remove one user (204); the CSV follows', async () => {
    const { client, w, invite, base, csv } = await inviteWorld();
    expect((await client.put(`${base}/${w.bob.id}`, undefined, w.botAuth)).status).toBe(204);
    expect((await client.put(`${base}/${w.carol.id}`, undefined, w.botAuth)).status).toBe(204);
    expect((await csv(invite.code)).body).toBe(`user_id\n${w.bob.id}\n${w.carol.id}\n`);
    expect((await client.delete(`${base}/${w.bob.id}`, w.botAuth)).status).toBe(204);
    expect((await csv(invite.code)).body).toBe(`user_id\n${w.carol.id}\n`);
    // bob is no longer a target: he cannot accept.
    expect((await client.post(`/sandbox/invites/${invite.code}/accept`, { user_id: w.bob.id })).status).toBe(404);
  });

  it('bulk-add and bulk-delete take user_ids; an unknown user is 400 (50035), more than 1000 ids too', async () => {
    const { client, w, invite, base, csv } = await inviteWorld();
    expect((await client.post(`${base}/bulk-add`, { user_ids: [w.bob.id, w.carol.id] }, w.botAuth)).status).toBe(204);
    expect((await client.post(`${base}/bulk-delete`, { user_ids: [w.carol.id] }, w.botAuth)).status).toBe(204);
    expect((await csv(invite.code)).body).toBe(`user_id\n${w.bob.id}\n`);
    const unknown = await client.post(`${base}/bulk-add`, { user_ids: ['1'] }, w.botAuth);
    expect([unknown.status, unknown.body.code]).toEqual([400, 50035]);
    const ids = Array.from({ length: 1001 }, (_, i) => String(1200000000000000000n + BigInt(i)));
    expect((await client.post(`${base}/bulk-add`, { user_ids: ids }, w.botAuth)).body.code).toBe(50035);
    expect((await csv(invite.code)).body).toBe(`user_id\n${w.bob.id}\n`);
  });

  it('another bot without MANAGE_GUILD is 403 (50013); an unknown invite 404 (10006), an unknown user 404 (10013)', async () => {
    const { client, w, base } = await inviteWorld();
    const other = await otherBot(client, w.guild.id, 0n);
    expect((await client.put(`${base}/${w.bob.id}`, undefined, other.auth)).body.code).toBe(50013);
    expect((await client.put(`${base}/1`, undefined, w.botAuth)).body.code).toBe(10013);
    expect((await client.put(`/api/v10/invites/nope/target-users/${w.bob.id}`, undefined, w.botAuth)).body.code).toBe(
      10006,
    );
  });
});
