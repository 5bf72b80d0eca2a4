// @vitest-environment node
/**
 * The server host (CONTRACT §7) seen from outside: the gateway routes in the platform's public
 * shapes, a real WebSocket gateway that dispatches from the durable log, CORS, sandboxes that
 * share nothing (tokens included), and a deployment's control API behind its secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWire, identifyWire } from './gateway-client';
import { freshSandbox, sandboxClient, startTestServer, type TestServer } from './server-harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

/** A sandbox with a user, an application, a guild of the user's and the bot in it. */
async function world(base = freshSandbox(server.url)) {
  const api = sandboxClient(base);
  const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
  const created = (await api.post('/sandbox/applications', { name: 'Game', owner_id: alice.id })).body;
  const guild = (await api.post('/sandbox/guilds', { name: 'Guild', owner_id: alice.id })).body;
  await api.put(`/sandbox/guilds/${guild.guild.id}/members/${created.bot.id}`, {});
  return { api, alice, created, guild, botAuth: `Bot ${created.bot_token}` };
}

describe('server: the gateway routes and the WebSocket gateway', () => {
  it('GET /api/v10/gateway and /gateway/bot answer the public shapes with a ws:// URL of this sandbox; /gateway/bot needs a bot token', async () => {
    const w = await world();
    const wsBase = w.api.base.replace(/^http/, 'ws');
    expect((await w.api.get('/api/v10/gateway')).body).toEqual({ url: `${wsBase}/gateway` });
    expect((await w.api.get('/api/gateway')).body).toEqual({ url: `${wsBase}/gateway` });
    const bot = await w.api.get('/api/v10/gateway/bot', w.botAuth);
    expect(bot.status).toBe(200);
    expect(bot.body).toEqual({
      url: `${wsBase}/gateway`,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
    });
    expect((await w.api.get('/api/v10/gateway/bot')).status).toBe(401);
  });

  it('READY names the server as resume_gateway_url, GUILD_CREATE follows, and a committed change is dispatched', async () => {
    const w = await world();
    const url = (await w.api.get('/api/v10/gateway')).body.url;
    const bot = await identifyWire(`${url}?v=10&encoding=json`, w.created.bot_token, { intents: 1 });
    expect(bot.ready.resume_gateway_url).toBe(url);
    expect((await bot.waitForDispatch('GUILD_CREATE')).d.id).toBe(w.guild.guild.id);
    await w.api.post(`/sandbox/guilds/${w.guild.guild.id}/channels`, { name: 'news', type: 0 });
    expect((await bot.waitForDispatch('CHANNEL_CREATE')).d).toMatchObject({ name: 'news', guild_id: w.guild.guild.id });
    bot.socket.close(1000);
  });

  it('closes with 4002 for a payload over 4096 bytes, as the browser gateway does', async () => {
    const w = await world();
    const client = await connectWire(`${(await w.api.get('/api/v10/gateway')).body.url}?v=10&encoding=json`);
    client.sendRaw(JSON.stringify({ op: 1, d: null, pad: 'x'.repeat(4100) }));
    expect((await client.closed).code).toBe(4002);
  });

  it('closes with 4004 for a token of another sandbox: a token authenticates nothing elsewhere', async () => {
    const a = await world();
    const b = await world();
    expect((await b.api.get('/api/v10/users/@me', a.botAuth)).status).toBe(401);
    const url = (await b.api.get('/api/v10/gateway')).body.url;
    const client = await connectWire(`${url}?v=10&encoding=json`);
    client.send({ op: 2, d: { token: a.created.bot_token, intents: 1, properties: {} } });
    expect((await client.closed).code).toBe(4004);
  });
});

/** Where the activity's OAuth2 flow returns to (none is registered, so any is accepted). */
const REDIRECT = 'https://activity.example/callback';

describe('server: an activity backend', () => {
  it('exchanges an authorization code at <url>/api/oauth2/token with its client secret, server to server, and uses the token', async () => {
    const base = freshSandbox(server.url);
    const api = sandboxClient(base);
    const alice = (await api.post('/sandbox/users', { username: 'alice' })).body.user;
    const created = (await api.post('/sandbox/applications', { name: 'Activity', owner_id: alice.id })).body;
    // The consent the page's AUTHORIZE shows, given by alice.
    const consent = await fetch(
      `${base}/oauth2/authorize?${new URLSearchParams({ client_id: created.application.id, response_type: 'code', scope: 'identify', redirect_uri: REDIRECT })}`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ authorize: true, user_id: alice.id }),
        redirect: 'manual',
      },
    );
    expect(consent.status).toBe(200);
    const code = new URL((await consent.json()).location).searchParams.get('code');
    expect(code).toBeTruthy();
    const wrong = await fetch(`${base}/api/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: created.application.id,
        client_secret: 'guess',
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: REDIRECT,
      }),
    });
    expect(wrong.status).toBe(401);
    const exchanged = await fetch(`${base}/api/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: created.application.id,
        client_secret: created.client_secret,
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: REDIRECT,
      }),
    });
    expect(exchanged.status).toBe(200);
    const token = await exchanged.json();
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'identify' });
    const me = await api.get('/api/v10/users/@me', `Bearer ${token.access_token}`);
    expect(me.body.id).toBe(alice.id);
  });
});

describe('server: CORS and sandboxes', () => {
  it('answers a preflight and marks every answer for any origin, errors included', async () => {
    const base = freshSandbox(server.url);
    const preflight = await fetch(`${base}/api/v10/lobbies`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://activity.example',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(preflight.headers.get('Access-Control-Allow-Methods')).toContain('PUT');
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toBe('authorization, content-type');
    const refused = await fetch(`${base}/api/v10/users/@me`, { headers: { Origin: 'https://activity.example' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });

  it("gives the CORS headers to the sandbox's answers, the API's, the CDN's and the Worker's own", async () => {
    const base = freshSandbox(server.url);
    const answers = [
      await fetch(`${base}/api/v10/gateway`),
      await fetch(`${base}/cdn/avatars/1/none.png`),
      await fetch(`${server.url}/s/Not_Valid/api/v10/gateway`),
    ];
    expect([answers[0].status, answers[2].status]).toEqual([200, 404]);
    for (const answer of answers) {
      expect(answer.headers.get('Access-Control-Allow-Origin')).toBe('*');
      expect(answer.headers.get('Access-Control-Expose-Headers')).toBe('*');
      expect(answer.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin');
    }
  });

  it('keeps sandboxes apart: /s/<name>/ is its own platform, the bare path is the default one, an invalid name is 404', async () => {
    const a = sandboxClient(freshSandbox(server.url));
    const b = sandboxClient(freshSandbox(server.url));
    const user = (await a.post('/sandbox/users', { username: 'only-in-a' })).body.user;
    const appA = (await a.post('/sandbox/applications', { name: 'A', owner_id: user.id })).body;
    expect((await a.get('/api/v10/users/@me', `Bot ${appA.bot_token}`)).status).toBe(200);
    expect((await b.get('/api/v10/users/@me', `Bot ${appA.bot_token}`)).status).toBe(401);
    expect((await b.post('/sandbox/applications', { name: 'B', owner_id: user.id })).body.errors).toHaveProperty(
      'owner_id',
    );
    expect((await sandboxClient(`${server.url}/s/Not_Valid`).get('/api/v10/gateway')).status).toBe(404);
    expect((await sandboxClient(`${server.url}/s/default`).get('/api/v10/gateway')).status).toBe(404);
    const bare = await sandboxClient(server.url).get('/api/v10/gateway');
    expect(bare.body.url).toBe(`${server.url.replace(/^http/, 'ws')}/gateway`);
  });
});

describe('server: a deployed sandbox control API', () => {
  it('is closed (401) in a deployment whose secret was never set, while the platform API answers', async () => {
    const forgotten = await startTestServer({ deployed: true });
    try {
      const api = sandboxClient(forgotten.url);
      expect((await api.post('/sandbox/reset')).status).toBe(401);
      expect((await api.request('POST', '/sandbox/users', { username: 'x' }, { 'X-Sandbox-Secret': '' })).status).toBe(
        401,
      );
      expect((await api.get('/api/v10/gateway')).status).toBe(200);
    } finally {
      await forgotten.stop();
    }
  });

  it('refuses /sandbox/... without the deployment secret (401, nothing done) and answers with it; the platform API is unaffected', async () => {
    const guarded = await startTestServer({ controlSecret: 'correct horse battery staple' });
    try {
      const api = sandboxClient(freshSandbox(guarded.url));
      const without = await api.post('/sandbox/users', { username: 'mallory' });
      expect(without.status).toBe(401);
      expect(without.body.message).toContain('X-Sandbox-Secret');
      const wrong = await api.request('POST', '/sandbox/reset', undefined, { 'X-Sandbox-Secret': 'guess' });
      expect(wrong.status).toBe(401);
      const secret = { 'X-Sandbox-Secret': 'correct horse battery staple' };
      const made = await api.request('POST', '/sandbox/users', { username: 'alice' }, secret);
      expect(made.status).toBe(201);
      const listed = await api.request('GET', '/sandbox/clock', undefined, secret);
      expect(listed.status).toBe(200);
      expect((await api.get('/api/v10/gateway')).status).toBe(200);
      expect((await api.get('/api/v10/users/@me')).status).toBe(401);
    } finally {
      await guarded.stop();
    }
  });
});
