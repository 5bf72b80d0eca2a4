// @vitest-environment node
/**
 * CONTRACT §6: the sandbox application takes VITE_CLIENT_ID and CLIENT_SECRET from the
 * project's Vite env, so an activity's existing configuration works unchanged; the plugin's
 * options override them; the activity embedded is the project's own `/` (its base).
 */
import { describe, expect, it } from 'vitest';
import {
  clientSecretOf,
  controlSecretOf,
  DEFAULT_APPLICATION_NAME,
  platformServerOption,
  SANDBOX_USERS,
  sandboxPageConfig,
} from '../../../src/vite/options';

const ID = '1234567890123456789';

describe('the sandbox application from the project’s env and the plugin’s options (CONTRACT §6)', () => {
  it('VITE_CLIENT_ID and CLIENT_SECRET of the env make the application; the users are alice, bob and chen', () => {
    const config = sandboxPageConfig({}, { VITE_CLIENT_ID: ID, CLIENT_SECRET: 'from-the-env-123' }, '/');
    expect(config).toEqual({
      application: { id: ID, secret: 'from-the-env-123', name: DEFAULT_APPLICATION_NAME },
      activity: '/',
      users: ['alice', 'bob', 'chen'],
      problem: null,
      server: null,
      serverPath: null,
      serverError: null,
      secretHeldByPlugin: false,
    });
    expect(SANDBOX_USERS).toEqual(['alice', 'bob', 'chen']);
  });

  it('the getting-started activity’s names work too (VITE_DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET)', () => {
    const config = sandboxPageConfig(
      {},
      { VITE_DISCORD_CLIENT_ID: ID, DISCORD_CLIENT_SECRET: 'discord-secret-1' },
      '/',
    );
    expect(config.application).toMatchObject({ id: ID, secret: 'discord-secret-1' });
  });

  it('platformpp({ application: { id, secret, name }, activity }) overrides the env', () => {
    const config = sandboxPageConfig(
      { application: { id: '42', secret: 'option-secret', name: 'Chess' }, activity: '/game/' },
      { VITE_CLIENT_ID: ID, CLIENT_SECRET: 'from-the-env-123' },
      '/',
    );
    expect(config.application).toEqual({ id: '42', secret: 'option-secret', name: 'Chess' });
    expect(config.activity).toBe('/game/');
  });

  it('the activity defaults to the project’s base', () => {
    expect(sandboxPageConfig({}, { VITE_CLIENT_ID: ID }, '/app/').activity).toBe('/app/');
  });

  it('no id: the page and the terminal say to set VITE_CLIENT_ID; the secret may be absent', () => {
    const config = sandboxPageConfig({}, {}, '/');
    expect(config.application).toEqual({ id: null, secret: null, name: DEFAULT_APPLICATION_NAME });
    expect(config.problem).toMatch(/set VITE_CLIENT_ID/);
  });

  it('an id that is no snowflake, or a secret with spaces, is an error naming where it came from', () => {
    expect(() => sandboxPageConfig({}, { VITE_CLIENT_ID: 'my-app' }, '/')).toThrow(/VITE_CLIENT_ID .* "my-app"/);
    expect(() => sandboxPageConfig({ application: { id: 'x' } }, {}, '/')).toThrow(/application: \{ id \}/);
    expect(() => sandboxPageConfig({}, { VITE_CLIENT_ID: ID, CLIENT_SECRET: 'has a space' }, '/')).toThrow(
      /client secret/,
    );
  });

  it('platformpp({ server }): true starts one, a URL uses it (the page joins it), none or false is the browser’s sandbox', () => {
    expect(platformServerOption({ server: true })).toEqual({ start: true });
    expect(platformServerOption({ server: 'http://127.0.0.1:8787/' })).toEqual({ use: 'http://127.0.0.1:8787' });
    expect([platformServerOption({}), platformServerOption({ server: false })]).toEqual([null, null]);
    expect(sandboxPageConfig({ server: 'http://127.0.0.1:8787/s/team' }, { VITE_CLIENT_ID: ID }, '/').server).toBe(
      'http://127.0.0.1:8787/s/team',
    );
    // Started later: the plugin fills in its URL once it runs.
    expect(sandboxPageConfig({ server: true }, { VITE_CLIENT_ID: ID }, '/').server).toBeNull();
  });

  it('platformpp({ server }) that is no http(s) URL, nor a boolean, is an error naming the option', () => {
    expect(() => platformServerOption({ server: 'ws://127.0.0.1:8787' })).toThrow(/platformpp\(\{ server \}\).*http/);
    expect(() => platformServerOption({ server: '127.0.0.1:8787' })).toThrow(/platformpp\(\{ server \}\)/);
    expect(() => platformServerOption({ server: 8787 as never })).toThrow(/true .* or the URL/);
  });

  it("a deployed server's control secret (option or PLATFORMPP_CONTROL_SECRET) stays out of the page: the page reaches the server through the plugin's relay", () => {
    const server = 'https://sandbox.example.com';
    const env = { VITE_CLIENT_ID: ID, PLATFORMPP_CONTROL_SECRET: 'from-the-env' };
    expect(controlSecretOf({ server }, env)).toBe('from-the-env');
    expect(controlSecretOf({ server, controlSecret: 'from-the-option' }, env)).toBe('from-the-option');
    const page = sandboxPageConfig({ server }, env, '/');
    expect(page).toMatchObject({ server, serverPath: '/__platformpp/server' });
    expect(JSON.stringify(page)).not.toContain('from-the-env');
    // No secret, or a server started here (which has none): the page reaches the server itself.
    expect(sandboxPageConfig({ server }, { VITE_CLIENT_ID: ID }, '/').serverPath).toBeNull();
    expect(controlSecretOf({ server: true }, env)).toBeNull();
    expect(controlSecretOf({}, env)).toBeNull();
    expect(() => controlSecretOf({ server, controlSecret: 'has a space' }, env)).toThrow(/PLATFORMPP_CONTROL_SECRET/);
  });

  it('on a platform server (started or given) the client secret stays with the plugin, never in the page, which other devices may open', () => {
    const env = { VITE_CLIENT_ID: ID, CLIENT_SECRET: 'from-the-env-123' };
    for (const server of [true, 'http://127.0.0.1:8787'] as const) {
      const page = sandboxPageConfig({ server }, env, '/');
      expect(page).toMatchObject({ application: { secret: null }, secretHeldByPlugin: true });
      expect(JSON.stringify(page)).not.toContain('from-the-env-123');
    }
    expect(clientSecretOf({ server: true }, env)).toBe('from-the-env-123');
    expect(sandboxPageConfig({ server: true }, { VITE_CLIENT_ID: ID }, '/').secretHeldByPlugin).toBe(false);
  });
});
