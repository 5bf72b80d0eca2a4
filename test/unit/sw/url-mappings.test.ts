// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mapRequestPath } from '../../../src/platform/activities/url-mappings';
import { sourceOf } from '../../../sw/routes/url-mapping-proxy';
import { createTestClient, type TestClient } from '../app-harness';

const ORIGIN = 'http://platform.test';

/** An app with one application, and the network stubbed: what reached it, and its answer. */
async function setup(answer: (request: Request) => Promise<Response> = async () => Response.json({ ok: true })) {
  const client = await createTestClient();
  const app = (await client.post('/sandbox/applications', { name: 'Mapped' })).body.application;
  const reached: { method: string; url: string; body: string; headers: Headers }[] = [];
  vi.stubGlobal('fetch', async (request: Request) => {
    reached.push({
      method: request.method,
      url: request.url,
      body: await request.clone().text(),
      headers: request.headers,
    });
    return answer(request);
  });
  return { client, app, reached };
}

/** A request as the page at `referrer` would send it. */
function send(client: TestClient, path: string, init: RequestInit = {}, referrer?: string): Promise<Response> {
  return client.app.fetch(
    new Request(`${ORIGIN}${path}`, { ...init, ...(referrer ? { referrer: `${ORIGIN}${referrer}` } : {}) }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('URL mappings of an application (sandbox: GET / PUT /sandbox/applications/{id}/url-mappings)', () => {
  it('stores and answers the mappings; none until set', async () => {
    const { client, app } = await setup();
    expect((await client.get(`/sandbox/applications/${app.id}/url-mappings`)).body).toEqual({ url_mappings: [] });
    const mappings = [
      { prefix: '/scores', target: 'api.example.com' },
      { prefix: '/maps/{Region}', target: '{Region}.maps.example.com/v2' },
    ];
    expect((await client.put(`/sandbox/applications/${app.id}/url-mappings`, { url_mappings: mappings })).body).toEqual(
      { url_mappings: mappings },
    );
    expect((await client.get(`/sandbox/applications/${app.id}/url-mappings`)).body).toEqual({ url_mappings: mappings });
  });

  it('a prefix on a platform path, a bad target, a token the prefix does not capture or a repeated prefix is 400 (50035) naming it, and nothing is stored', async () => {
    const { client, app } = await setup();
    const reply = await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
      url_mappings: [
        { prefix: '/api', target: 'api.example.com' },
        { prefix: '/ok', target: 'https://with-scheme.example.com' },
        { prefix: '/region', target: '{region}.example.com' },
        { prefix: '/ok/', target: 'ok.example.com' },
      ],
    });
    expect([reply.status, reply.body.code]).toEqual([400, 50035]);
    const errors = reply.body.errors.url_mappings;
    expect(errors[0].prefix._errors[0].message).toMatch(/platform's own \/api\/ path/);
    expect(errors[1].target._errors[0].message).toMatch(/without a scheme/);
    expect(errors[2].target._errors[0].message).toMatch(/\{region\}, which the prefix does not capture/);
    expect(errors[3].prefix._errors[0].message).toMatch(/Another mapping has this prefix/);
    expect((await client.get(`/sandbox/applications/${app.id}/url-mappings`)).body).toEqual({ url_mappings: [] });
    expect((await client.put('/sandbox/applications/1/url-mappings', { url_mappings: [] })).status).toBe(404);
  });
});

describe("the activity proxy forwards /.proxy/<prefix>/... to the mapping's target", () => {
  it("forwards method, path, query, headers and body to https://<target>/<rest> and answers with the target's response", async () => {
    const { client, app, reached } = await setup(
      async () =>
        new Response('{"top":[1]}', {
          status: 201,
          headers: { 'Content-Type': 'application/json', 'X-Upstream': 'yes' },
        }),
    );
    await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
      url_mappings: [{ prefix: '/scores', target: 'api.example.com/v1' }],
    });
    const response = await send(client, '/.proxy/scores/top?n=3', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Game': 'chess' },
      body: '{"a":1}',
    });
    expect([response.status, response.headers.get('X-Upstream'), await response.text()]).toEqual([
      201,
      'yes',
      '{"top":[1]}',
    ]);
    expect(reached.map((r) => [r.method, r.url, r.body, r.headers.get('X-Game')])).toEqual([
      ['POST', 'https://api.example.com/v1/top?n=3', '{"a":1}', 'chess'],
    ]);
  });

  it("{Token}s of the prefix fill the target's host, with their case", async () => {
    const { client, app, reached } = await setup();
    await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
      url_mappings: [{ prefix: '/maps/{Region}', target: '{Region}.maps.example.com' }],
    });
    await send(client, '/.proxy/maps/eu-west/tiles/1.png');
    expect(reached.map((r) => r.url)).toEqual(['https://eu-west.maps.example.com/tiles/1.png']);
  });

  it("the platform's own paths and unmapped paths are not forwarded", async () => {
    const { client, app, reached } = await setup();
    await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
      url_mappings: [{ prefix: '/scores', target: 'api.example.com' }],
    });
    expect((await send(client, '/.proxy/sandbox/clock')).status).toBe(200);
    expect((await send(client, '/.proxy/scoresheet')).status).toBe(404);
    expect(await client.app.forwardMapped(new Request(`${ORIGIN}/.proxy/elsewhere/x`))).toBeUndefined();
    expect(reached).toEqual([]);
  });

  it('a request with no referrer (workerd gives requests none) comes from no page: /.proxy paths are still forwarded, others are not', async () => {
    const none = { applicationId: null, frame: false };
    expect(sourceOf('', ORIGIN)).toEqual(none);
    expect(sourceOf(undefined as unknown as string, ORIGIN)).toEqual(none);
    const { client, app, reached } = await setup();
    await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
      url_mappings: [{ prefix: '/scores', target: 'api.example.com' }],
    });
    expect((await send(client, '/.proxy/scores/top')).status).toBe(200);
    expect(await client.app.forwardMapped(new Request(`${ORIGIN}/scores/top`, { referrer: '' }))).toBeUndefined();
    expect(reached.map((r) => r.url)).toEqual(['https://api.example.com/top']);
  });

  it("without /.proxy only an activity frame's requests are forwarded (its URL has frame_id and instance_id)", async () => {
    const { client, app, reached } = await setup();
    await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
      url_mappings: [{ prefix: '/scores', target: 'api.example.com' }],
    });
    expect(
      await client.app.forwardMapped(new Request(`${ORIGIN}/scores/top`, { referrer: `${ORIGIN}/` })),
    ).toBeUndefined();
    expect(
      (await send(client, '/scores/top', {}, `/activities/${app.id}/?frame_id=f&instance_id=i&platform=desktop`))
        .status,
    ).toBe(200);
    expect(reached.map((r) => r.url)).toEqual(['https://api.example.com/top']);
  });

  it("an activity page under /activities/<id>/ uses its own application's mappings; two applications that disagree elsewhere are 409 saying how to tell", async () => {
    const { client, app, reached } = await setup();
    const other = (await client.post('/sandbox/applications', { name: 'Other' })).body.application;
    await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
      url_mappings: [{ prefix: '/scores', target: 'mine.example.com' }],
    });
    await client.put(`/sandbox/applications/${other.id}/url-mappings`, {
      url_mappings: [{ prefix: '/scores', target: 'theirs.example.com' }],
    });
    await send(client, '/.proxy/scores/a', {}, `/.proxy/activities/${other.id}/index.html?frame_id=f&instance_id=i`);
    expect(reached.map((r) => r.url)).toEqual(['https://theirs.example.com/a']);
    const ambiguous = await send(client, '/.proxy/scores/a', {}, '/test/page.html?frame_id=f&instance_id=i');
    expect(ambiguous.status).toBe(409);
    expect((await ambiguous.json()).message).toMatch(/\/activities\/<application_id>\//);
  });

  it('a target that cannot be reached (offline) is a 502 saying the target is unreachable, not a client error', async () => {
    const { client, app } = await setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
      url_mappings: [{ prefix: '/scores', target: 'api.example.com' }],
    });
    const response = await send(client, '/.proxy/scores/top');
    const body = await response.json();
    expect([response.status, body.code]).toEqual([502, 0]);
    expect(body.message).toMatch(/could not reach its target .*offline/);
  });

  it('matches whole segments and prefers the longest prefix', () => {
    const mappings = [
      { prefix: '/a', target: 'a.example.com' },
      { prefix: '/a/b', target: 'b.example.com/base' },
    ];
    expect(mapRequestPath('/a/b/c', '', mappings)?.url.href).toBe('https://b.example.com/base/c');
    expect(mapRequestPath('/a/bc', '', mappings)?.url.href).toBe('https://a.example.com/bc');
    expect(mapRequestPath('/ab', '', mappings)).toBeNull();
    expect(mapRequestPath('/cdn.x/y', '', [{ prefix: '/cdn.x', target: 'cdn.example.com' }])?.url.href).toBe(
      'https://cdn.example.com/y',
    );
  });
});

describe('URL mappings to a server on this machine (CONTRACT §6)', () => {
  it('a target may be http://localhost:<port> or http://127.0.0.1:<port> (with a path): requests go there over plain http', async () => {
    const { client, app, reached } = await setup();
    const mappings = [
      { prefix: '/backend', target: 'http://localhost:3001' },
      { prefix: '/local-api', target: 'http://127.0.0.1:8787/v2' },
    ];
    const stored = await client.put(`/sandbox/applications/${app.id}/url-mappings`, { url_mappings: mappings });
    expect(stored.status).toBe(200);
    await send(client, '/.proxy/backend/token?x=1', { method: 'POST', body: '{"code":"c"}' });
    await send(client, '/.proxy/local-api/scores');
    expect(reached.map((r) => r.url)).toEqual(['http://localhost:3001/token?x=1', 'http://127.0.0.1:8787/v2/scores']);
    expect(reached[0].body).toBe('{"code":"c"}');
    expect(mapRequestPath('/backend', '', mappings)?.url.href).toBe('http://localhost:3001/');
  });

  it('plain http to any other host, or another scheme, is still 400 (50035) naming the target', async () => {
    const { client, app } = await setup();
    const reply = await client.put(`/sandbox/applications/${app.id}/url-mappings`, {
      url_mappings: [
        { prefix: '/a', target: 'http://example.com' },
        { prefix: '/b', target: 'http://192.168.1.5:3000' },
        { prefix: '/c', target: 'ftp://localhost:21' },
        { prefix: '/d', target: 'http://localhost.example.com:80' },
      ],
    });
    expect([reply.status, reply.body.code]).toEqual([400, 50035]);
    const errors = reply.body.errors.url_mappings;
    for (const i of [0, 1, 2, 3]) expect(errors[i].target._errors[0].message).toMatch(/http:\/\/localhost:<port>/);
    expect((await client.get(`/sandbox/applications/${app.id}/url-mappings`)).body).toEqual({ url_mappings: [] });
  });
});
