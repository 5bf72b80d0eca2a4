// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActivity, createRpcWorld, exchangeCode, participant } from './rpc-harness';

async function setup(consent = true) {
  const world = await createRpcWorld();
  const activity = createActivity(world.client, {
    applicationId: world.application.id,
    user: participant(world.alice),
    guildId: world.guild.id,
    channelId: world.text.id,
    ui: { requestConsent: async (o) => (consentAsked.push(o), consent) },
  });
  const consentAsked: unknown[] = [];
  activity.handshake();
  return { world, activity, consentAsked };
}

describe('AUTHORIZE (CONTRACT §5: consent dialog, code exchanged at /oauth2/token)', () => {
  it('shows the consent dialog with the application, the scopes and the user, and answers {code}', async () => {
    const { world, activity, consentAsked } = await setup();
    const reply = await activity.command('AUTHORIZE', {
      client_id: world.application.id,
      scope: ['identify', 'rpc.activities.write'],
      response_type: 'code',
      state: 's1',
    });
    expect(reply.evt).toBeNull();
    expect(reply.data).toEqual({ code: expect.any(String) });
    expect(consentAsked).toEqual([
      {
        application: expect.objectContaining({ id: world.application.id, name: 'Game' }),
        scopes: ['identify', 'rpc.activities.write'],
        user: { id: world.alice.id, username: 'alice' },
      },
    ]);
    const token = await exchangeCode(world.client, world.application.id, world.clientSecret, reply.data.code);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('identify rpc.activities.write');
  });

  it('the code is single use: a second exchange is invalid_grant', async () => {
    const { world, activity } = await setup();
    const { data } = await activity.command('AUTHORIZE', { client_id: world.application.id, scope: 'identify' });
    await exchangeCode(world.client, world.application.id, world.clientSecret, data.code);
    const again = await exchangeCode(world.client, world.application.id, world.clientSecret, data.code);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('"Cancel" is ERROR 5000 (access_denied) and stores no code', async () => {
    const { world, activity } = await setup(false);
    const reply = await activity.command('AUTHORIZE', { client_id: world.application.id, scope: ['identify'] });
    expect(reply).toMatchObject({
      cmd: 'AUTHORIZE',
      evt: 'ERROR',
      data: { code: 5000, message: expect.stringContaining('access_denied') },
    });
    expect(await world.client.app.ctx.db.count('auth_codes')).toBe(0);
  });

  it('a client_id other than the frame application is ERROR 4007, without a dialog', async () => {
    const { world, activity, consentAsked } = await setup();
    const other = (await world.client.post('/sandbox/applications', { name: 'Other' })).body.application;
    const reply = await activity.command('AUTHORIZE', { client_id: other.id, scope: ['identify'] });
    expect(reply.data.code).toBe(4007);
    expect(consentAsked).toEqual([]);
  });

  it('an unknown scope is ERROR 4000 naming scope, without a dialog', async () => {
    const { world, activity, consentAsked } = await setup();
    const reply = await activity.command('AUTHORIZE', {
      client_id: world.application.id,
      scope: ['identify', 'no.such.scope'],
    });
    expect(reply.data.code).toBe(4000);
    expect(reply.data.message).toContain('scope');
    expect(consentAsked).toEqual([]);
  });

  it('prompt: none skips the dialog when the user already granted every scope', async () => {
    const { world, activity, consentAsked } = await setup();
    const first = await activity.command('AUTHORIZE', { client_id: world.application.id, scope: ['identify'] });
    await exchangeCode(world.client, world.application.id, world.clientSecret, first.data.code);
    const second = await activity.command('AUTHORIZE', {
      client_id: world.application.id,
      scope: ['identify'],
      prompt: 'none',
    });
    expect(second.data.code).toEqual(expect.any(String));
    expect(consentAsked).toHaveLength(1);
  });
});

describe('AUTHENTICATE', () => {
  it('takes {access_token} and answers {access_token, user, scopes, expires, application}', async () => {
    const { world, activity } = await setup();
    const { data } = await activity.command('AUTHORIZE', {
      client_id: world.application.id,
      scope: ['identify', 'guilds'],
    });
    const token = (await exchangeCode(world.client, world.application.id, world.clientSecret, data.code)).body
      .access_token;
    const reply = await activity.command('AUTHENTICATE', { access_token: token });
    expect(reply.evt).toBeNull();
    expect(reply.data).toEqual({
      access_token: token,
      user: expect.objectContaining({ id: world.alice.id, username: 'alice', discriminator: '0', public_flags: 0 }),
      scopes: ['identify', 'guilds'],
      expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      application: { id: world.application.id, name: 'Game', description: '', icon: null },
    });
    expect(activity.host.session?.user.id).toBe(world.alice.id);
  });

  it('knows the user even when the token lacks identify (the client knows its user)', async () => {
    const { world, activity } = await setup();
    const token = (
      await world.client.post('/sandbox/tokens', {
        application_id: world.application.id,
        user_id: world.alice.id,
        scopes: 'rpc.activities.write',
      })
    ).body.access_token;
    const reply = await activity.command('AUTHENTICATE', { access_token: token });
    expect(reply.data.user.id).toBe(world.alice.id);
  });

  it('a token for another application is ERROR 4009, and opens no session', async () => {
    const { world, activity } = await setup();
    const other = (await world.client.post('/sandbox/applications', { name: 'Other' })).body.application;
    const token = (
      await world.client.post('/sandbox/tokens', {
        application_id: other.id,
        user_id: world.alice.id,
        scopes: 'identify',
      })
    ).body.access_token;
    const reply = await activity.command('AUTHENTICATE', { access_token: token });
    expect(reply.data).toEqual({
      code: 4009,
      message: 'Invalid token: the access token belongs to another application',
    });
    expect(activity.host.session).toBeNull();
  });

  it('an unknown token is ERROR 4009 and the error never quotes the token', async () => {
    const { activity } = await setup();
    const reply = await activity.command('AUTHENTICATE', { access_token: 'not-a-token-1234567890' });
    expect(reply.data.code).toBe(4009);
    expect(JSON.stringify(reply)).not.toContain('not-a-token-1234567890');
  });

  it('a token of another user than the one running the frame is ERROR 4010', async () => {
    const { world, activity } = await setup();
    const reply = await activity.command('AUTHENTICATE', { access_token: world.bobTokens.access_token });
    expect(reply.data.code).toBe(4010);
    expect(activity.host.session).toBeNull();
  });

  it('a missing access_token is ERROR 4000 naming args.access_token', async () => {
    const { activity } = await setup();
    const reply = await activity.command('AUTHENTICATE', {});
    expect(reply.data.code).toBe(4000);
    expect(reply.data.message).toContain('args.access_token');
  });
});
