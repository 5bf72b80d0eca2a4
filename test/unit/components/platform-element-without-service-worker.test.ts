// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { definePlatformElement, type PlatformElement } from '../../../src/components/platform-element';
import { pageServer, setPageServer } from '../../../src/sockets/platform-server';

definePlatformElement();

afterEach(() => {
  vi.unstubAllGlobals();
  setPageServer(null);
  document.body.replaceChildren();
});

/** A `<pp-platform server>` in a page the browser gives no service worker (and no shared worker). */
function platformWithoutServiceWorker(server: string | null): PlatformElement {
  vi.stubGlobal('navigator', { onLine: true });
  vi.stubGlobal('SharedWorker', undefined);
  const platform = document.createElement('pp-platform');
  platform.server = server;
  document.body.append(platform);
  return platform;
}

describe('<pp-platform> where the browser gives the page no service worker (not a secure context)', () => {
  it("joins a platform server behind the page's own origin from the page: ready, its gateway the server's", async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return Response.json(
        { url: `ws://${location.host}/gateway` },
        { headers: { 'X-Served-By': 'platformpp-server' } },
      );
    });
    const platform = platformWithoutServiceWorker(location.origin);
    await platform.whenReady();
    expect([platform.status, platform.withoutServiceWorker, platform.hub]).toEqual(['ready', true, null]);
    expect(asked).toEqual([`${location.origin}/api/v10/gateway`]);
    expect(platform.joinedServer).toEqual({ url: location.origin, gateway_url: `ws://${location.host}/gateway` });
    expect(pageServer()?.url).toBe(location.origin);
  });

  it('an origin that answers the platform paths as no platformpp server does is an error saying so', async () => {
    vi.stubGlobal('fetch', async () => new Response('<!doctype html>', { status: 200 }));
    const platform = platformWithoutServiceWorker(location.origin);
    await expect(platform.whenReady()).rejects.toThrow(/not as a platformpp server does/);
    expect(platform.status).toBe('error');
  });

  it('without a server on its own origin it cannot run, and says why in words', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new Error('nothing may be asked');
    });
    for (const server of [null, 'http://127.0.0.1:8787']) {
      const platform = platformWithoutServiceWorker(server);
      await expect(platform.whenReady()).rejects.toThrow(/no service worker.*not a secure context/);
      expect(platform.error).toMatch(/join a platform server through this page's own origin/);
    }
  });
});
