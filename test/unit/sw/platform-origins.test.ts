// @vitest-environment node
/**
 * CONTRACT §6: inside the activity page the platform answers its API at the page's origin and
 * at the real platform's public API origin (with or without a version), and its CDN images;
 * an unversioned `/api/...` path it has no route for is the activity's own (its `/api/token`),
 * while an unknown path under `/api/v<N>/` stays the platform's JSON 404.
 */
import { describe, expect, it } from 'vitest';
import { platformHasRoute } from '../../../sw/app';
import { onOrigin, platformOriginOf } from '../../../sw/origins';
import { ownsPath } from '../../../sw/paths';
import { createTestClient, createWorld } from '../app-harness';

const owns = (path: string) => ownsPath(new URL(path, 'http://localhost:5173'), platformHasRoute);

describe('which paths of the page’s origin are the platform’s (CONTRACT §6)', () => {
  it("an unversioned /api path with no platform route is the activity's own: /api/token, /.proxy/api/token", () => {
    for (const path of ['/api/token', '/.proxy/api/token', '/api/session/refresh', '/api/scores/top']) {
      expect(owns(path), path).toBe(false);
    }
  });

  it('an unversioned /api path the platform has a route for is the platform’s: /api/users/@me, /api/oauth2/token', () => {
    for (const path of ['/api/users/@me', '/api/users/@me/guilds', '/api/oauth2/token', '/.proxy/api/lobbies/1']) {
      expect(owns(path), path).toBe(true);
    }
  });

  it('everything under /api/v<N>/ is the platform’s, known or not, whatever the version', () => {
    for (const path of ['/api/v10/users/@me', '/api/v10/token', '/api/v9/anything', '/.proxy/api/v10/nope', '/api']) {
      expect(owns(path), path).toBe(true);
    }
  });

  it("the sandbox, OAuth2 and attachments stay the platform's; the activity's pages and assets do not", () => {
    expect(owns('/sandbox/clock')).toBe(true);
    expect(owns('/oauth2/authorize')).toBe(true);
    for (const path of ['/', '/src/main.ts', '/@vite/client', '/assets/index.js', '/apis/x', '/.proxy/']) {
      expect(owns(path), path).toBe(false);
    }
  });
});

describe('the real platform’s origins (CONTRACT §6)', () => {
  it('https://discord.com/api/... (and the other release channels) is the API; other paths of the site are not', () => {
    expect(platformOriginOf(new URL('https://discord.com/api/users/@me/guilds'))).toBe('api');
    expect(platformOriginOf(new URL('https://discord.com/api/v10/users/@me'))).toBe('api');
    expect(platformOriginOf(new URL('https://canary.discord.com/api/v10/gateway'))).toBe('api');
    expect(platformOriginOf(new URL('https://discordapp.com/api/oauth2/token'))).toBe('api');
    expect(platformOriginOf(new URL('https://discord.com/oauth2/authorize'))).toBeNull();
    expect(platformOriginOf(new URL('https://discord.com/apix'))).toBeNull();
    expect(platformOriginOf(new URL('http://discord.com/api/users/@me'))).toBeNull();
  });

  it('the CDN origins are the CDN; any other origin is nobody’s', () => {
    expect(platformOriginOf(new URL('https://cdn.discordapp.com/embed/avatars/0.png'))).toBe('cdn');
    expect(platformOriginOf(new URL('https://media.discordapp.net/attachments/1/2/a.png'))).toBe('cdn');
    expect(platformOriginOf(new URL('https://example.com/api/users/@me'))).toBeNull();
  });

  it('a request to the API origin answers as the same path of the page’s origin: same status and body, with and without a version', async () => {
    const client = await createTestClient();
    const world = await createWorld(client);
    for (const path of ['/api/users/@me', '/api/v10/users/@me']) {
      const outside = new Request(`https://discord.com${path}`, { headers: { Authorization: world.aliceAuth } });
      const local = await onOrigin(outside, 'http://localhost:5173');
      expect(local.url).toBe(`http://localhost:5173${path}`);
      const response = await client.app.fetch(local);
      expect(response.status).toBe(200);
      expect((await response.json()).id).toBe(world.alice.id);
    }
    const missing = await client.app.fetch(await onOrigin(new Request('https://discord.com/api/v10/nope'), 'http://x'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: '404: Not Found', code: 0 });
  });

  it('a POST keeps its body and headers on the way: the OAuth2 token endpoint answers a form', async () => {
    const outside = new Request('https://discord.com/api/oauth2/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=nope&client_id=1',
    });
    const local = await onOrigin(outside, 'http://x');
    expect(local.method).toBe('POST');
    expect(local.headers.get('Content-Type')).toBe('application/x-www-form-urlencoded');
    expect(await local.text()).toBe('grant_type=authorization_code&code=nope&client_id=1');
  });
});
