// @vitest-environment node
/**
 * CONTRACT §7: `platformpp-web serve --rate-limits` (`startServer({ rateLimits: true })`) starts a
 * server whose sandboxes are rate limited as the platform is, and discord.js 14 lives with it: it
 * reads the X-RateLimit headers, waits for the bucket's reset, and sends every message once.
 */
import { Client, Events, GatewayIntentBits, RESTEvents, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: true });
});
afterAll(() => server?.stop());

describe('a server started with --rate-limits', () => {
  it('every new sandbox is rate limited; PUT /sandbox/rate-limits turns one off', async () => {
    const api = sandboxClient(freshSandbox(server.url));
    expect((await api.get('/sandbox/rate-limits')).body).toEqual({
      enabled: true,
      route_limit: 5,
      route_window_seconds: 5,
      global_per_second: 50,
      invalid_request_limit: 10_000,
      invalid_request_window_seconds: 600,
    });
    const owner = (await api.post('/sandbox/users', { username: 'owner' })).body.user;
    const bot = (await api.post('/sandbox/applications', { name: 'Limited', owner_id: owner.id })).body;
    const me = await api.get('/api/v10/users/@me', `Bot ${bot.bot_token}`);
    expect(me.headers.get('X-RateLimit-Limit')).toBe('5');
    await api.put('/sandbox/rate-limits', { enabled: false });
    expect((await api.get('/api/v10/users/@me', `Bot ${bot.bot_token}`)).headers.has('X-RateLimit-Limit')).toBe(false);
    // A reset returns the sandbox to the server's default: on.
    await api.post('/sandbox/reset');
    expect((await api.get('/sandbox/rate-limits')).body.enabled).toBe(true);
  });

  it('discord.js 14 sends a burst over a small bucket: it waits for the resets and every message arrives once', async () => {
    const api = sandboxClient(freshSandbox(server.url));
    await api.put('/sandbox/rate-limits', { enabled: true, route_limit: 2, route_window_seconds: 1 });
    const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
    const created = (await api.post('/sandbox/applications', { name: 'Burst', owner_id: alice.id })).body;
    const guild = (await api.post('/sandbox/guilds', { name: 'Burst', owner_id: alice.id })).body;
    await api.put(`/sandbox/guilds/${guild.guild.id}/members/${created.bot.id}`, {});
    const general = guild.channels.find((c: { name: string }) => c.name === 'general');
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${api.base}/api` } });
    const waits: number[] = [];
    client.rest.on(RESTEvents.RateLimited, (info) => waits.push(info.timeToReset));
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(created.bot_token);
    await ready;
    try {
      const channel = client.channels.cache.get(general.id) as TextChannel;
      const started = performance.now();
      await Promise.all([1, 2, 3, 4, 5].map((n) => channel.send(`burst ${n}`)));
      const took = performance.now() - started;
      console.log(
        `figure: discord.js 5 sends over a bucket of 2 per 1 s: ${Math.round(took)} ms, ${waits.length} waits`,
      );
      expect(took).toBeGreaterThanOrEqual(1000);
      const read = await api.get(`/api/v10/channels/${general.id}/messages?limit=10`, `Bot ${created.bot_token}`);
      expect(read.body.map((m: { content: string }) => m.content).sort()).toEqual([
        'burst 1',
        'burst 2',
        'burst 3',
        'burst 4',
        'burst 5',
      ]);
    } finally {
      await client.destroy();
    }
  });
});
