/**
 * CONTRACT §6 in real Chromium: the service worker answers the real platform's API origin
 * (`https://discord.com/api/...`, with or without a version) and its CDN images for the page,
 * while the page's own unversioned `/api/...` paths the platform has no route for reach the
 * page's server unchanged. Nothing here reaches the internet: only the worker can answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { registerPlatformWorker, resetSandbox, servedByWorker } from './harness';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });
  return response.json() as Promise<T>;
}

describe('the real platform’s origins, answered by the service worker (CONTRACT §6)', () => {
  let auth: string;
  let userId: string;

  beforeAll(async () => {
    await registerPlatformWorker();
    await resetSandbox();
    const { user } = await post<{ user: { id: string } }>('/sandbox/users', { username: 'alice' });
    const { application } = await post<{ application: { id: string } }>('/sandbox/applications', { name: 'Origins' });
    const token = await post<{ access_token: string }>('/sandbox/tokens', {
      application_id: application.id,
      user_id: user.id,
      scopes: 'identify guilds',
    });
    auth = `Bearer ${token.access_token}`;
    userId = user.id;
  });

  it('fetch("https://discord.com/api/users/@me") and /api/v10/... answer from the worker with the sandbox user', async () => {
    for (const url of ['https://discord.com/api/users/@me', 'https://discord.com/api/v10/users/@me']) {
      const response = await fetch(url, { headers: { Authorization: auth } });
      expect(servedByWorker(response), url).toBe(true);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { id: string }).id).toBe(userId);
    }
    const guilds = await fetch('https://discord.com/api/users/@me/guilds', { headers: { Authorization: auth } });
    expect(await guilds.json()).toEqual([]);
  });

  it('an unknown path under https://discord.com/api/ is the platform’s JSON 404', async () => {
    const response = await fetch('https://discord.com/api/v10/nothing', { headers: { Authorization: auth } });
    expect(servedByWorker(response)).toBe(true);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: '404: Not Found', code: 0 });
  });

  it('<img src="https://cdn.discordapp.com/..."> loads generated avatars of the size asked', async () => {
    const load = (src: string) =>
      new Promise<HTMLImageElement>((resolve, reject) => {
        const img = new Image();
        img.onload = () => resolve(img);
        img.onerror = () => reject(new Error(`${src} did not load`));
        img.src = src;
      });
    const fallback = await load('https://cdn.discordapp.com/embed/avatars/1.png');
    expect(fallback.naturalWidth).toBe(128);
    const avatar = await load(
      `https://cdn.discordapp.com/avatars/${userId}/1269e74af4df7417b13759eae50c83dc.png?size=64`,
    );
    expect([avatar.naturalWidth, avatar.naturalHeight]).toEqual([64, 64]);
  });

  it("the page's own /api/token (no platform route) reaches the page's server, not the worker; /api/users/@me stays the worker's", async () => {
    const own = await fetch('/api/token', { method: 'POST', headers: JSON_HEADERS, body: '{}' });
    expect(servedByWorker(own)).toBe(false);
    const proxied = await fetch('/.proxy/api/token', { method: 'POST', headers: JSON_HEADERS, body: '{}' });
    expect(servedByWorker(proxied)).toBe(false);
    const platform = await fetch('/api/users/@me', { headers: { Authorization: auth } });
    expect(servedByWorker(platform)).toBe(true);
    const versioned = await fetch('/api/v10/token');
    expect(servedByWorker(versioned)).toBe(true);
    expect(versioned.status).toBe(404);
  });
});
