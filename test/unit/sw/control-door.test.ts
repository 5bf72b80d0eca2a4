// @vitest-environment node
/**
 * The control door (`sw/control-door.ts`): on a deployed host, every route the access table opens
 * to `sandbox` answers 401 without the deployment's secret, whatever its path, and changes
 * nothing; with the secret, or on a host with no guard (the browser, a local server), it is the
 * route as before. The walk reads the access table and the app's own routes, so a control route
 * added under any path is proved here without a new test.
 */
import { describe, expect, it } from 'vitest';
import { createPlatformContext } from '../../../src/platform/core/context';
import { SNOWFLAKE_WORKERS } from '../../../src/platform/core/snowflake';
import { routeKeyOf } from '../../../src/platform/oauth2/route-access';
import { accessOf } from '../../../src/platform/oauth2/route-access-table';
import { CONTROL_SECRET_HEADER } from '../../../src/wire/paths';
import { platformAppOver, platformRouteList } from '../../../sw/app';
import type { ControlGuard } from '../../../sw/control-door';
import { openTestStorage } from '../store/test-storage';

const SECRET = 'correct horse battery staple';
const ORIGIN = 'http://platform.test';
let dbCounter = 0;

async function guardedApp(control?: ControlGuard) {
  const ctx = await createPlatformContext({
    db: await openTestStorage(`platformpp-control-door-${process.pid}-${++dbCounter}`),
    workerId: SNOWFLAKE_WORKERS.serviceWorker,
  });
  const app = platformAppOver(ctx, { control, gatewayUrl: (origin) => `${origin.replace('http', 'ws')}/gateway` });
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    app.fetch(
      new Request(`${ORIGIN}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  return { ctx, app, send };
}

/** Every route the access table opens to `sandbox`, with a concrete path (each parameter a snowflake). */
function controlRoutes(): { method: string; path: string }[] {
  return platformRouteList()
    .filter((route) => accessOf(routeKeyOf(route.method, route.path))?.open === 'sandbox')
    .map(({ method, path }) => ({ method, path: path.replace(/:[A-Za-z0-9_]+/g, '123456789012345678') }));
}

/** The stores the control routes write first: users, applications, tokens, guilds. */
async function storedCounts(ctx: Awaited<ReturnType<typeof guardedApp>>['ctx']) {
  return Promise.all(['users', 'applications', 'tokens', 'guilds'].map((store) => ctx.db.count(store as 'users')));
}

describe('the control door: every control route of the access table behind the deployment secret', () => {
  it('the walk covers the whole control API and the routes outside /sandbox/ it opens (the consent decision POST /oauth2/authorize)', () => {
    const routes = controlRoutes();
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toContainEqual({ method: 'POST', path: '/api/oauth2/authorize' });
    expect(routes).toContainEqual({ method: 'POST', path: '/oauth2/authorize' });
    expect(routes.filter((r) => !r.path.startsWith('/sandbox/')).length).toBeGreaterThan(0);
  });

  it('on a deployed host each control route answers 401 (code 0, naming the header) without the secret or with a wrong one, and stores nothing', async () => {
    const { ctx, send } = await guardedApp({ secret: SECRET });
    const body = { username: 'mallory', name: 'x', authorize: true, user_id: '123456789012345678' };
    for (const { method, path } of controlRoutes()) {
      const given = method === 'GET' || method === 'DELETE' ? undefined : body;
      for (const headers of [{}, { [CONTROL_SECRET_HEADER]: 'guess' }, { [CONTROL_SECRET_HEADER]: '' }] as Record<
        string,
        string
      >[]) {
        const refused = await send(method, path, headers, given);
        expect([method, path, refused.status], 'refused without the secret').toEqual([method, path, 401]);
        const error = await refused.json();
        expect(error.code).toBe(0);
        expect(error.message).toContain(CONTROL_SECRET_HEADER);
      }
    }
    expect(await storedCounts(ctx)).toEqual([0, 0, 0, 0]);
  });

  it('with the secret each control route is answered by the route itself (never 401)', async () => {
    const { send } = await guardedApp({ secret: SECRET });
    for (const { method, path } of controlRoutes()) {
      const answered = await send(method, path, { [CONTROL_SECRET_HEADER]: SECRET }, method === 'GET' ? undefined : {});
      expect([method, path, answered.status === 401]).toEqual([method, path, false]);
    }
    const made = await send('POST', '/sandbox/users', { [CONTROL_SECRET_HEADER]: SECRET }, { username: 'alice' });
    expect(made.status).toBe(201);
  });

  it('a deployment whose secret was forgotten (required, none set) refuses every control route, whatever is sent', async () => {
    const { send } = await guardedApp({ required: true });
    const given: Record<string, string>[] = [{}, { [CONTROL_SECRET_HEADER]: '' }, { [CONTROL_SECRET_HEADER]: 'x' }];
    for (const headers of given) {
      expect((await send('POST', '/sandbox/users', headers, { username: 'mallory' })).status).toBe(401);
    }
  });

  it('with no guard (the browser, a local server) the control API is open, as CONTRACT §3 has it', async () => {
    const { send } = await guardedApp();
    expect((await send('POST', '/sandbox/users', {}, { username: 'alice' })).status).toBe(201);
  });

  it('the platform API is not behind the door: discovery answers and a token route still wants its token', async () => {
    const { send } = await guardedApp({ secret: SECRET });
    expect((await send('GET', '/api/v10/gateway')).status).toBe(200);
    expect((await send('GET', '/api/v10/users/@me')).status).toBe(401);
    expect((await send('GET', '/.well-known/openid-configuration')).status).toBe(200);
  });

  it("no access token for another user: POST /oauth2/authorize with a user_id is refused without the secret (the sandbox's consent step)", async () => {
    const { send } = await guardedApp({ secret: SECRET });
    const secret = { [CONTROL_SECRET_HEADER]: SECRET };
    const victim = (await (await send('POST', '/sandbox/users', secret, { username: 'victim' })).json()).user;
    const owner = (await (await send('POST', '/sandbox/users', secret, { username: 'owner' })).json()).user;
    const app = (
      await (await send('POST', '/sandbox/applications', secret, { name: 'Public', owner_id: owner.id })).json()
    ).application;
    const query = new URLSearchParams({
      client_id: app.id,
      response_type: 'code',
      scope: 'identify',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const decision = { authorize: true, user_id: victim.id };
    const refused = await send('POST', `/api/oauth2/authorize?${query}`, {}, decision);
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toMatch(/"code":"|location/i);
    const allowed = await send('POST', `/api/oauth2/authorize?${query}`, secret, decision);
    expect(allowed.status).toBe(200);
  });

  it("the app's own deliveries to its webhook sinks come from inside and pass the door", async () => {
    const { app, send } = await guardedApp({ secret: SECRET });
    const secret = { [CONTROL_SECRET_HEADER]: SECRET };
    const read = async (method: string, path: string, body?: unknown) =>
      (await send(method, path, secret, body)).json();
    const owner = (await read('POST', '/sandbox/users', { username: 'owner' })).user;
    const carol = (await read('POST', '/sandbox/users', { username: 'carol' })).user;
    const application = (await read('POST', '/sandbox/applications', { name: 'Hooked', owner_id: owner.id }))
      .application;
    const sink = await read('POST', '/sandbox/webhook-sinks', {});
    // From outside, the sink is a control route like the others.
    expect((await send('POST', new URL(sink.url).pathname, {}, { type: 0 })).status).toBe(401);
    // Setting the URL sends it a PING, and the event below is delivered: both by the app to itself.
    const settings = await send('PUT', `/sandbox/applications/${application.id}/event-webhooks`, secret, {
      url: sink.url,
      types: ['APPLICATION_AUTHORIZED'],
    });
    expect(settings.status).toBe(200);
    const query = new URLSearchParams({ client_id: application.id, response_type: 'code', scope: 'identify' });
    await send('POST', `/oauth2/authorize?${query}`, secret, { authorize: true, user_id: carol.id });
    await app.webhooks.settled();
    const received = (await read('GET', new URL(sink.url).pathname)).requests;
    const types = received.map((r: { body: { type: number; event?: { type: string } } }) => r.body.event?.type);
    expect(types).toContain('APPLICATION_AUTHORIZED');
  });
});
