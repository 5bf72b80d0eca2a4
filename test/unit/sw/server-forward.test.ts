// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { forwardToServer, probeServer, serverTarget } from '../../../sw/server-forward';
import { normalizeServerUrl } from '../../../src/wire/server-join';

const SERVER = 'http://127.0.0.1:8787';

/** A fake server: records what reached it and answers with `answer`. */
function fakeServer(answer: (request: Request) => Response | Promise<Response>) {
  const seen: { method: string; url: string; headers: Headers; body: string }[] = [];
  const fetchServer = async (request: Request) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    return answer(request);
  };
  return { seen, fetchServer };
}

describe('a page that joined a server: where its requests go (CONTRACT §7)', () => {
  it('the platform paths of the page keep their path and query on the server, /.proxy and a sandbox prefix too', () => {
    const target = (url: string, server = SERVER) => serverTarget(new URL(url), server, null).href;
    expect(target('http://page/api/v10/lobbies/1/messages?limit=5')).toBe(
      `${SERVER}/api/v10/lobbies/1/messages?limit=5`,
    );
    expect(target('http://page/.proxy/api/v10/users/@me')).toBe(`${SERVER}/.proxy/api/v10/users/@me`);
    expect(target('http://page/sandbox/clock', `${SERVER}/s/team-a`)).toBe(`${SERVER}/s/team-a/sandbox/clock`);
  });

  it("the real platform's API origin goes to the same path on the server, its CDN under the server's /cdn", () => {
    expect(serverTarget(new URL('https://discord.com/api/v10/users/@me'), SERVER, 'api').href).toBe(
      `${SERVER}/api/v10/users/@me`,
    );
    expect(serverTarget(new URL('https://cdn.discordapp.com/embed/avatars/0.png?size=64'), SERVER, 'cdn').href).toBe(
      `${SERVER}/cdn/embed/avatars/0.png?size=64`,
    );
  });

  it("forwards method, headers and body, and answers with the server's status, headers and body", async () => {
    const server = fakeServer(
      () =>
        new Response('{"id":"1"}', {
          status: 201,
          headers: { 'X-Served-By': 'platformpp-server', 'Retry-After': '1' },
        }),
    );
    const request = new Request('http://page/api/v10/lobbies', {
      method: 'PUT',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json', 'Idempotency-Key': 'k1' },
      body: '{"secret":"s"}',
    });
    const response = await forwardToServer(request, new URL(`${SERVER}/api/v10/lobbies`), SERVER, server.fetchServer);
    expect([response.status, await response.text(), response.headers.get('Retry-After')]).toEqual([
      201,
      '{"id":"1"}',
      '1',
    ]);
    expect(response.headers.get('X-Served-By')).toBe('platformpp-server');
    const [seen] = server.seen;
    expect([seen.method, seen.url, seen.body]).toEqual(['PUT', `${SERVER}/api/v10/lobbies`, '{"secret":"s"}']);
    expect([seen.headers.get('Authorization'), seen.headers.get('Idempotency-Key')]).toEqual(['Bearer t', 'k1']);
  });

  it('a server that cannot be reached is a 502 in the API error shape naming the server, from the service worker', async () => {
    const response = await forwardToServer(
      new Request('http://page/api/v10/users/@me'),
      new URL(`${SERVER}/api/v10/users/@me`),
      SERVER,
      () => Promise.reject(new TypeError('Failed to fetch')),
    );
    expect(response.status).toBe(502);
    expect(response.headers.get('X-Served-By')).toBe('platformpp-sw');
    const body = await response.json();
    expect(body.code).toBe(0);
    expect(body.message).toContain(`The platform server ${SERVER} could not be reached (Failed to fetch)`);
  });
});

describe('joining a server: the service worker checks it first', () => {
  it('a platformpp server answers GET /api/v10/gateway: the join keeps its gateway URL', async () => {
    const server = fakeServer(() =>
      Response.json({ url: 'ws://127.0.0.1:8787/s/a/gateway' }, { headers: { 'X-Served-By': 'platformpp-server' } }),
    );
    expect(await probeServer(`${SERVER}/s/a/`, server.fetchServer)).toEqual({
      url: `${SERVER}/s/a`,
      gateway_url: 'ws://127.0.0.1:8787/s/a/gateway',
    });
    expect(server.seen[0].url).toBe(`${SERVER}/s/a/api/v10/gateway`);
  });

  it('a server that is down, or an answer that is not a platformpp server’s, is an error naming the URL', async () => {
    await expect(probeServer(SERVER, () => Promise.reject(new TypeError('Failed to fetch')))).rejects.toThrow(
      `the platform server ${SERVER} could not be reached (Failed to fetch)`,
    );
    const other = fakeServer(() => new Response('<html>', { status: 200 }));
    await expect(probeServer(SERVER, other.fetchServer)).rejects.toThrow(
      `${SERVER} answered GET /api/v10/gateway with 200, not as a platformpp server does`,
    );
    const silent = () => new Promise<Response>(() => undefined);
    await expect(probeServer(SERVER, silent, 50)).rejects.toThrow('no answer within 0.05 s');
  });

  it('a server URL is an absolute http(s) URL without query or fragment; the trailing slash is dropped', () => {
    expect(normalizeServerUrl(' http://127.0.0.1:8787/ ')).toBe('http://127.0.0.1:8787');
    expect(normalizeServerUrl('https://host.example/s/team-a/')).toBe('https://host.example/s/team-a');
    for (const bad of ['127.0.0.1:8787', 'ws://127.0.0.1:8787', 'http://h/?x=1', 'http://h/#f', 'nope'])
      expect(() => normalizeServerUrl(bad), bad).toThrow(TypeError);
  });
});
