// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { insecureOriginProblem, withoutServiceWorkerNotice } from '../../../src/vite/host/insecure-origin';
import { sandboxPageConfig } from '../../../src/vite/options';
import { sandboxPageHtml } from '../../../src/vite/sandbox-server';

describe('the host page on an origin that is not a secure context (a phone on the LAN)', () => {
  it('says in words that the service worker, the API, /.proxy/ and offline use are missing there, and how to make it a localhost page', () => {
    const problem = insecureOriginProblem({
      isSecureContext: false,
      location: { host: '192.168.1.20:5173', port: '5173' },
      navigator: {},
    });
    expect(problem).toContain('not a secure context');
    expect(problem).toContain('no service worker');
    expect(problem).toContain('/.proxy/');
    expect(problem).toContain('adb reverse tcp:5173 tcp:5173');
    expect(problem).toContain('http://localhost:5173/__platformpp/');
  });

  it('a secure context with service workers (localhost, HTTPS) has nothing to say', () => {
    const scope = {
      isSecureContext: true,
      location: { host: 'localhost:5173', port: '5173' },
      navigator: { serviceWorker: {} },
    };
    expect(insecureOriginProblem(scope)).toBeNull();
  });
});

describe('the host page without a service worker on a platform server (a phone on the LAN)', () => {
  it('says what works there (the activity, its RPC, /.proxy/, the shared instance) and what does not (offline, the real origins, voice)', () => {
    const notice = withoutServiceWorkerNotice({ host: '192.168.1.20:5173', port: '5173' });
    expect(notice).toMatch(/not a secure context.*no service worker/);
    expect(notice).toMatch(/runs on the platform server through the dev server/);
    expect(notice).toMatch(/activity instance shared with the other devices work here/);
    expect(notice).toMatch(/does not work here: offline use/);
    expect(notice).toContain('https://discord.com/api/');
    expect(notice).toMatch(/voice/);
    expect(notice).toContain('adb reverse tcp:5173 tcp:5173');
  });
});

describe("the host page's words before any script runs", () => {
  const base = sandboxPageConfig({}, { VITE_CLIENT_ID: '1234567890123456789', CLIENT_SECRET: 'a-secret-123' }, '/');

  it('on a platform server: one line, the details folded under it, and no client secret', () => {
    const onServer = sandboxPageConfig(
      { server: 'http://127.0.0.1:8787' },
      { VITE_CLIENT_ID: '1234567890123456789', CLIENT_SECRET: 'a-secret-123' },
      '/',
    );
    const html = sandboxPageHtml(onServer, '192.168.1.20:5173');
    expect(html).toContain('<details id="platformpp-insecure-origin" hidden><summary>Not a secure context');
    expect(html).toContain('adb reverse tcp:5173 tcp:5173');
    expect(html).not.toContain('a-secret-123');
  });

  it('in one browser without a server: the alert that the sandbox cannot run there', () => {
    expect(sandboxPageHtml(base, '192.168.1.20:5173')).toContain(
      '<p role="alert" id="platformpp-insecure-origin" hidden>This page (http://192.168.1.20:5173) is not a secure context',
    );
  });
});
