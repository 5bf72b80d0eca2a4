// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  attemptRemap,
  matchAndRewriteURL,
  patchUrlMappings,
  platformPathCollision,
  type PatchTarget,
} from '../../../src/activity';

const location = {
  protocol: 'https:',
  host: 'app.platform.test',
  href: 'https://app.platform.test/activities/1/?frame_id=f',
};
const remap = (url: string, mappings: { prefix: string; target: string }[]) =>
  attemptRemap({ url, mappings, location }).href;

describe('URL mappings', () => {
  it('maps a target host to a prefix on the activity origin, keeping path, query and hash', () => {
    expect(
      remap('https://api.example.com/v1/scores?top=10#x', [{ prefix: '/scores-api', target: 'api.example.com' }]),
    ).toBe('https://app.platform.test/scores-api/v1/scores?top=10#x');
  });

  it('{param} tokens in the target host fill the same tokens in the prefix', () => {
    const mappings = [{ prefix: '/cdn/{region}', target: '{region}.cdn.example.com' }];
    expect(remap('https://eu-west.cdn.example.com/a.png', mappings)).toBe(
      'https://app.platform.test/cdn/eu-west/a.png',
    );
  });

  it('{param} tokens match ports too', () => {
    const mappings = [{ prefix: '/game/{port}', target: 'game.example.com:{port}' }];
    expect(remap('https://game.example.com:8443/state', mappings)).toBe('https://app.platform.test/game/8443/state');
    expect(remap('https://game.example.com/state', mappings)).toBe('https://game.example.com/state');
  });

  it('dots in a target are dots, not wildcards; the whole host must match', () => {
    const mappings = [{ prefix: '/ext', target: 'api.example.com' }];
    expect(remap('https://apixexample.com/v1', mappings)).toBe('https://apixexample.com/v1');
    expect(remap('https://evil-api.example.com/v1', mappings)).toBe('https://evil-api.example.com/v1');
    expect(remap('https://api.example.com.evil.test/v1', mappings)).toBe('https://api.example.com.evil.test/v1');
  });

  it('dots in prefixes are kept literally', () => {
    expect(
      remap('https://cdn.jsdelivr.net/npm/x.js', [{ prefix: '/cdn.jsdelivr.net', target: 'cdn.jsdelivr.net' }]),
    ).toBe('https://app.platform.test/cdn.jsdelivr.net/npm/x.js');
  });

  it('a target with a path matches only under that path and drops it', () => {
    const mappings = [{ prefix: '/v2api', target: 'example.com/api/v2' }];
    expect(remap('https://example.com/api/v2/users', mappings)).toBe('https://app.platform.test/v2api/users');
    expect(remap('https://example.com/api/v20/users', mappings)).toBe('https://example.com/api/v20/users');
  });

  it('requests work with and without /.proxy/: a mapping may generate either prefix', () => {
    expect(remap('https://api.example.com/x', [{ prefix: '/.proxy/ext', target: 'api.example.com' }])).toBe(
      'https://app.platform.test/.proxy/ext/x',
    );
    expect(remap('https://api.example.com/x', [{ prefix: '/ext', target: 'api.example.com' }])).toBe(
      'https://app.platform.test/ext/x',
    );
  });

  it('leaves same-origin and relative requests alone, and uses the first mapping that applies', () => {
    const mappings = [
      { prefix: '/a', target: 'a.example.com' },
      { prefix: '/b', target: '{x}.example.com' },
    ];
    expect(remap('/.proxy/api/v10/users/@me', mappings)).toBe('https://app.platform.test/.proxy/api/v10/users/@me');
    expect(remap('https://a.example.com/', mappings)).toBe('https://app.platform.test/a/');
    expect(remap('https://b.example.com/', mappings)).toBe('https://app.platform.test/b/');
  });

  it('a local target (http://localhost:<port>, http://127.0.0.1:<port>) maps only plain http and ws URLs to that port', () => {
    const local = [{ prefix: '/backend', target: 'http://localhost:3001' }];
    expect(remap('http://localhost:3001/api/token?x=1', local)).toBe('https://app.platform.test/backend/api/token?x=1');
    expect(remap('https://localhost:3001/api/token', local)).toBe('https://localhost:3001/api/token');
    expect(remap('http://localhost:3002/api/token', local)).toBe('http://localhost:3002/api/token');
    expect(remap('ws://localhost:3001/live', local)).toBe('wss://app.platform.test/backend/live');
    const loopback = [{ prefix: '/v2', target: 'http://127.0.0.1:8787/api' }];
    expect(remap('http://127.0.0.1:8787/api/scores', loopback)).toBe('https://app.platform.test/v2/scores');
  });

  it('WebSocket URLs keep a socket scheme, secure on a secure page', () => {
    expect(remap('wss://rt.example.com/socket', [{ prefix: '/rt', target: 'rt.example.com' }])).toBe(
      'wss://app.platform.test/rt/socket',
    );
    const insecure = { ...location, protocol: 'http:', href: 'http://app.platform.test/' };
    expect(
      attemptRemap({
        url: 'wss://rt.example.com/s',
        mappings: [{ prefix: '/rt', target: 'rt.example.com' }],
        location: insecure,
      }).href,
    ).toBe('ws://app.platform.test/rt/s');
  });

  it('{Token} names keep their case (host names ignore case, token names do not)', () => {
    const mappings = [{ prefix: '/maps/{Region}', target: '{Region}.Maps.Example.com' }];
    expect(remap('https://EU.maps.example.com/tile', mappings)).toBe('https://app.platform.test/maps/eu/tile');
  });

  it('a prefix token the target does not capture is a configuration error that says so', () => {
    expect(() =>
      matchAndRewriteURL({
        url: new URL('https://x.example.com/'),
        prefix: '/{region}',
        target: 'x.example.com',
        location,
      }),
    ).toThrow(/uses \{region\}/);
  });
});

describe('patchUrlMappings', () => {
  function fakeTarget() {
    const requests: string[] = [];
    const sockets: string[] = [];
    const opened: string[] = [];
    class FakeSocket {
      constructor(url: string | URL) {
        sockets.push(String(url));
      }
    }
    class FakeXhr {
      open(_method: string, url: string) {
        opened.push(url);
      }
    }
    const target = {
      location,
      fetch: async (input: RequestInfo | URL) => {
        requests.push(
          input instanceof Request
            ? `${input.method} ${input.url} ${input.method === 'POST' ? await input.text() : ''}`.trim()
            : String(input),
        );
        return new Response('ok');
      },
      WebSocket: FakeSocket as unknown as typeof WebSocket,
      XMLHttpRequest: FakeXhr as unknown as typeof XMLHttpRequest,
    } satisfies PatchTarget;
    return { target, requests, sockets, opened };
  }

  it('patches fetch (strings, URLs and Requests with their body), WebSocket and XMLHttpRequest, and undoes it', async () => {
    const { target, requests, sockets, opened } = fakeTarget();
    const original = { fetch: target.fetch, WebSocket: target.WebSocket, open: target.XMLHttpRequest.prototype.open };
    const restore = patchUrlMappings([{ prefix: '/ext', target: 'api.example.com' }], { target });
    await target.fetch('https://api.example.com/a');
    await target.fetch(new URL('https://api.example.com/b'));
    await target.fetch(new Request('https://api.example.com/c', { method: 'POST', body: 'hello' }));
    await target.fetch('https://other.example.com/d');
    new target.WebSocket('wss://api.example.com/ws');
    new target.XMLHttpRequest().open('GET', 'https://api.example.com/e');
    expect(requests).toEqual([
      'https://app.platform.test/ext/a',
      'https://app.platform.test/ext/b',
      'POST https://app.platform.test/ext/c hello',
      'https://other.example.com/d',
    ]);
    expect(sockets).toEqual(['wss://app.platform.test/ext/ws']);
    expect(opened).toEqual(['https://app.platform.test/ext/e']);
    restore();
    expect([target.fetch, target.WebSocket, target.XMLHttpRequest.prototype.open]).toEqual([
      original.fetch,
      original.WebSocket,
      original.open,
    ]);
  });

  it('patches only what is asked', () => {
    const { target } = fakeTarget();
    const fetchBefore = target.fetch;
    patchUrlMappings([{ prefix: '/ext', target: 'api.example.com' }], { target, patchFetch: false, patchXhr: false });
    expect(target.fetch).toBe(fetchBefore);
  });

  it("a prefix on one of the platform's own paths (/api, /sandbox, /oauth2, /attachments, /activities) is an error naming it, with or without /.proxy", () => {
    const { target } = fakeTarget();
    const fetchBefore = target.fetch;
    expect(() => patchUrlMappings([{ prefix: '/api', target: 'api.example.com' }], { target })).toThrow(
      /prefix \/api \(for api\.example\.com\) collides with the platform's own \/api\/ path/,
    );
    expect(() => patchUrlMappings([{ prefix: '/.proxy/sandbox/x', target: 'x.example.com' }], { target })).toThrow(
      /own \/sandbox\/ path/,
    );
    expect(target.fetch).toBe(fetchBefore);
    // Sharing only the start of a name is no collision.
    expect(platformPathCollision('/apis')).toBeNull();
    expect(platformPathCollision('/.proxy/activities')).toBe('/activities');
  });
});
