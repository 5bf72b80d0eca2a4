// @vitest-environment node
import { Window } from 'happy-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../../src/components/sandbox-client';

// A DOM of its own (happy-dom's Window), set up before lit is loaded: lit reads `document` once.
let faultsPanel: typeof import('../../../src/vite/host/faults-panel').faultsPanel;
beforeAll(async () => {
  const window = new Window({ url: 'http://platform.test/__platformpp/' });
  Object.assign(globalThis, { window, document: window.document, Event: window.Event });
  ({ faultsPanel } = await import('../../../src/vite/host/faults-panel'));
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * The host page's panel over a recording sandbox: every request it makes is kept, and answered as
 * the control API answers (the routes themselves are tested in test/unit/sw/faults.test.ts).
 */
async function panel(browser = true) {
  const sent: { method: string; path: string; body: any }[] = [];
  let limits = { enabled: false, route_limit: 5, route_window_seconds: 5, global_per_second: 50 };
  const sandbox = new SandboxClient('http://platform.test', async (request) => {
    const body = request.method === 'GET' ? null : await request.json();
    const path = new URL(request.url).pathname;
    sent.push({ method: request.method, path, body });
    if (path === '/sandbox/rate-limits' && request.method === 'PUT') limits = { ...limits, ...body };
    const answer =
      path === '/sandbox/faults' ? { fault: { ...body, id: '1', created_at: 0, remaining: null } } : limits;
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  const root = faultsPanel(sandbox, { userId: '42', browser });
  document.body.append(root);
  await settle();
  const button = (text: string) => [...root.querySelectorAll('button')].find((b) => b.textContent?.includes(text));
  return { sent, root, button };
}

describe("the Vite plugin host page's faults panel (docs/faults.md)", () => {
  it("injects a gateway fault for this tab's user and says so", async () => {
    const { sent, root, button } = await panel();
    button('RECONNECT')!.click();
    await settle();
    expect(sent.at(-1)).toEqual({
      method: 'POST',
      path: '/sandbox/faults',
      body: { type: 'reconnect', user_id: '42' },
    });
    expect(root.querySelector('[role=status]')?.textContent).toContain('Injected reconnect');
  });

  it('asks for a 502 on the next GET /users/@me', async () => {
    const { sent, button } = await panel();
    button('502 on the next')!.click();
    await settle();
    expect(sent.at(-1)?.body).toEqual({ type: 'http_error', status: 502, method: 'GET', path: '/api/v10/users/@me' });
  });

  it('the checkbox turns the sandbox rate limits on', async () => {
    const { sent, root } = await panel();
    const box = root.querySelector('input[type=checkbox]') as HTMLInputElement;
    expect(box.checked).toBe(false);
    box.checked = true;
    box.dispatchEvent(new Event('change'));
    await settle();
    expect(sent.at(-1)).toEqual({ method: 'PUT', path: '/sandbox/rate-limits', body: { enabled: true } });
    expect(root.querySelector('[role=status]')?.textContent).toBe('Rate limits on.');
  });

  it('offers to stop the shared worker or the service worker only when the platform runs in this browser', async () => {
    expect((await panel(true)).button('Stop the shared worker')).toBeDefined();
    expect((await panel(false)).button('Stop the shared worker')).toBeUndefined();
    expect((await panel(false)).button('Stop the service worker')).toBeUndefined();
    const { sent, button } = await panel(true);
    button('Stop the service worker')!.click();
    await settle();
    expect(sent.at(-1)).toEqual({ method: 'POST', path: '/sandbox/faults', body: { type: 'stop_service_worker' } });
  });
});
