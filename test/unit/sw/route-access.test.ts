// @vitest-environment node
/**
 * The access table at work: every route that takes a token is probed with no token, malformed
 * tokens, another application's bot token and a user's token without the route's scope, and is
 * refused as the table says, changing nothing; the tokens the table lets in get past the door.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { accessOf } from '../../../src/platform/oauth2/route-access-table';
import { routeKeyOf, type RouteKey } from '../../../src/platform/oauth2/route-access';
import { buildApp } from '../../../sw/app';
import type { JsonReply } from '../app-harness';
import { ROUTE_BODIES } from './route-bodies';
import { pathOf, routeWorld, type RouteWorld } from './route-world';

/** Every route of the app that takes a token, once (the API answers under two bases alike). */
function tokenRoutes(w: RouteWorld): RouteKey[] {
  const app = buildApp(w.client.app.ctx);
  const keys = new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => routeKeyOf(r.method, r.path)));
  return [...keys].filter((key) => !accessOf(key)?.open);
}

/** Calls a route of the world with `authorization`, with its valid body when it takes one. */
async function call(w: RouteWorld, key: RouteKey, authorization?: string): Promise<JsonReply> {
  const method = key.slice(0, key.indexOf(' '));
  const entry = ROUTE_BODIES[key];
  return w.client.request(method, pathOf(w, key) + (entry?.query?.(w) ?? ''), {
    token: authorization,
    ...(entry ? { body: entry.valid(w) } : {}),
  });
}

/** Counts the writes a request commits. */
function commitCounter(w: RouteWorld): () => number {
  let commits = 0;
  w.client.app.ctx.db.onCommit(() => {
    commits++;
  });
  return () => commits;
}

/** True when a reply is the door's refusal (not a route's own answer). */
function refusedAtTheDoor(reply: JsonReply): boolean {
  if (reply.status === 401) return true;
  if (reply.status !== 403) return false;
  return [20001, 20002].includes(reply.body?.code) || /^Missing OAuth2 scope/.test(reply.body?.message ?? '');
}

/**
 * Routes any application may read with the resource's key: an invite is read by whoever holds
 * its code, and a user (Get User) by any bot or token, as on the platform.
 */
const READABLE_BY_ANY_APPLICATION: RouteKey[] = ['GET /invites/:code', 'GET /users/:user_id'];

describe('every route refuses who the access table refuses, and changes nothing', () => {
  let w: RouteWorld;
  let commits: () => number;
  let routes: RouteKey[];
  beforeAll(async () => {
    w = await routeWorld();
    commits = commitCounter(w);
    routes = tokenRoutes(w);
  });

  it('a route without a token is 401 {"message": "401: Unauthorized", "code": 0}', async () => {
    for (const key of routes) {
      const before = commits();
      const reply = await call(w, key);
      expect([reply.status, reply.body], key).toEqual([401, { message: '401: Unauthorized', code: 0 }]);
      expect(commits() - before, key).toBe(0);
    }
  });

  it('a malformed or unknown token is 401 on every route', async () => {
    const malformed = [
      'Bot',
      'Bearer ',
      'Bearer two tokens',
      'Basic dXNlcjpwYXNz',
      'Bot not-a-token',
      `Bearer ${'a'.repeat(4096)}`,
      `${w.auth.bot}x`,
      w.auth.bot.replace('Bot ', ''),
    ];
    for (const key of routes)
      for (const token of malformed) {
        const before = commits();
        const reply = await call(w, key, token);
        expect(reply.status, `${key} with ${token.slice(0, 20)}`).toBe(401);
        expect(commits() - before, key).toBe(0);
      }
  });

  it("another application's bot token is refused on every route that names this application's resources", async () => {
    for (const key of routes) {
      const access = accessOf(key)!;
      const before = commits();
      const reply = await call(w, key, w.auth.otherBot);
      if (!access.bot) {
        expect([reply.status, reply.body.code], key).toEqual([403, 20001]);
        expect(commits() - before, key).toBe(0);
        continue;
      }
      expect(reply.status, `${key}: ${JSON.stringify(reply.body)}`).toBeLessThan(500);
      if (READABLE_BY_ANY_APPLICATION.includes(key)) continue;
      if (key.includes('/:')) {
        expect([400, 403, 404], `${key}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
        expect(commits() - before, key).toBe(0);
      } else {
        // A route about the caller itself: whatever it answers is the other application's own
        // (users are everyone's; this application's lobby, guild and messages are not).
        const text = JSON.stringify(reply.body);
        for (const id of [w.lobby.id, w.guild.id, w.application.id, w.message.id, w.lobbyMessage.id])
          expect(text.includes(id), `${key} answered with an id of this application's world`).toBe(false);
      }
    }
  });

  it("a user's token without the route's scope is 403: 50001 naming the scope, 20002 on a bot route", async () => {
    for (const key of routes) {
      const access = accessOf(key)!;
      if (access.bearer !== false && access.bearer.length === 0) continue; // any token of the application
      const before = commits();
      const reply = await call(w, key, w.auth.openid);
      if (access.removed) {
        // The world is after the route's removal: every application caller gets its error first.
        expect([reply.status, reply.body.code], key).toEqual([403, 20001]);
      } else if (access.bearer === false) {
        expect([reply.status, reply.body.code], key).toEqual([403, 20002]);
      } else {
        expect([reply.status, reply.body.code], key).toEqual([403, 50001]);
        expect(reply.body.message, key).toMatch(/^Missing OAuth2 scope: /);
        for (const scope of access.bearer) expect(reply.body.message, key).toContain(scope);
      }
      expect(commits() - before, key).toBe(0);
    }
  });
});

describe('the tokens the access table lets in get past the door on every route', () => {
  let w: RouteWorld;
  let routes: RouteKey[];
  const tokens = new Map<string, string>();
  /** A token of alice for the application with `scope` alone. */
  async function tokenWith(scope: string): Promise<string> {
    if (!tokens.has(scope)) {
      const reply = await w.client.post('/sandbox/tokens', {
        application_id: w.application.id,
        user_id: w.alice.id,
        scopes: scope,
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      tokens.set(scope, `Bearer ${reply.body.access_token}`);
    }
    return tokens.get(scope)!;
  }
  beforeAll(async () => {
    w = await routeWorld();
    routes = tokenRoutes(w);
  });

  it("the application's bot, where bots are let in", async () => {
    // A route removed for applications (POST /guilds, the world being after 2025-07-15) lets no one in.
    for (const key of routes.filter((k) => accessOf(k)!.bot && !accessOf(k)!.removed)) {
      const reply = await call(w, key, w.auth.bot);
      expect(refusedAtTheDoor(reply), `${key}: ${reply.status} ${JSON.stringify(reply.body)}`).toBe(false);
      expect(reply.status, key).toBeLessThan(500);
    }
  });

  it("a user's token with any one of the route's scopes, where users are let in", async () => {
    for (const key of routes) {
      const bearer = accessOf(key)!.bearer;
      // A route whose scope depends on the resource is held to each kind's scope by its own tests.
      if (bearer === false || accessOf(key)!.scopeByResource) continue;
      for (const scope of bearer.length > 0 ? bearer : ['openid']) {
        const reply = await call(w, key, await tokenWith(scope));
        expect(refusedAtTheDoor(reply), `${key} with ${scope}: ${reply.status} ${JSON.stringify(reply.body)}`).toBe(
          false,
        );
        expect(reply.status, key).toBeLessThan(500);
      }
    }
  });
});

describe('the routes whose tokens the public docs name', () => {
  let w: RouteWorld;
  beforeAll(async () => {
    w = await routeWorld();
  });

  it('GET /users/@me/activities needs activities.write or rpc.activities.write: openid alone is 403 50001', async () => {
    const reply = await w.client.get('/api/v10/users/@me/activities', w.auth.openid);
    expect([reply.status, reply.body.code]).toEqual([403, 50001]);
    expect((await w.client.get('/api/v10/users/@me/activities', w.auth.aliceAll)).status).toBe(200);
  });

  it('GET /guilds/{id}/emojis and /scheduled-events are bot routes: a Bearer token with guilds is 403 20002', async () => {
    for (const path of [`/api/v10/guilds/${w.guild.id}/emojis`, `/api/v10/guilds/${w.guild.id}/scheduled-events`]) {
      const reply = await w.client.get(path, w.auth.aliceAll);
      expect([reply.status, reply.body.code], path).toEqual([403, 20002]);
      expect((await w.client.get(path, w.auth.bot)).status, path).toBe(200);
    }
  });
});
