// @vitest-environment node
/**
 * The fields the official API description requires, with real values: user flags from the
 * stored user, the current user's own settings and (with the `email` scope) its email, an
 * application's real `verify_key`, and the ID token of a provisional account.
 */
import { describe, expect, it } from 'vitest';
import { createTestClient, createWorld } from '../app-harness';

describe('wire fields the official description requires, with the stored values', () => {
  it('public_flags and flags are the stored user flags (0 for a user stored without them)', async () => {
    const client = await createTestClient();
    const w = await createWorld(client, 'identify');
    expect((await client.get('/api/v10/users/@me', w.aliceAuth)).body).toMatchObject({ public_flags: 0, flags: 0 });
    const stored = await client.db.get('users', w.alice.id);
    await client.db.put('users', { ...stored!, flags: 1 << 6 });
    expect((await client.get('/api/v10/users/@me', w.aliceAuth)).body).toMatchObject({
      public_flags: 1 << 6,
      flags: 1 << 6,
    });
  });

  it('/users/@me answers mfa_enabled and locale; email and verified only with the email scope', async () => {
    const client = await createTestClient();
    const w = await createWorld(client, 'identify');
    const plain = (await client.get('/api/v10/users/@me', w.aliceAuth)).body;
    expect(plain).toMatchObject({ mfa_enabled: false, locale: 'en-US' });
    expect(plain).not.toHaveProperty('email');
    const stored = await client.db.get('users', w.alice.id);
    await client.db.put('users', { ...stored!, email: 'alice@example.com', locale: 'fr' });
    const token = (
      await client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.alice.id,
        scopes: 'identify email',
      })
    ).body;
    const withEmail = (await client.get('/api/v10/users/@me', `Bearer ${token.access_token}`)).body;
    expect(withEmail).toMatchObject({ email: 'alice@example.com', verified: true, locale: 'fr' });
    expect((await client.get('/api/v10/users/@me', w.aliceAuth)).body).not.toHaveProperty('email');
  });

  it("/oauth2/@me's application carries type, flags and the application's own verify_key", async () => {
    const client = await createTestClient();
    const w = await createWorld(client, 'identify');
    const { application } = (await client.get('/api/v10/oauth2/@me', w.aliceAuth)).body;
    const settings = (await client.get(`/sandbox/applications/${w.application.id}/event-webhooks`)).body;
    expect(application).toMatchObject({ id: w.application.id, type: null, flags: 0, flags_new: '0' });
    expect(application.verify_key).toMatch(/^[0-9a-f]{64}$/);
    expect(application.verify_key).toBe(settings.verify_key);
    expect(w.application.verify_key).toBe(settings.verify_key);
  });

  it('a provisional token comes with an ID token naming the provisional account', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const reply = await client.post('/api/v10/partner-sdk/token/bot', { external_user_id: 'player-1' }, w.botAuth);
    expect(reply.status).toBe(200);
    const [, payload] = (reply.body.id_token as string).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const me = (await client.get('/api/v10/users/@me', `Bearer ${reply.body.access_token}`)).body;
    expect(claims).toMatchObject({ sub: me.id, aud: w.application.id });
  });
});
