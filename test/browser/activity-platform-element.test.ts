import { afterEach, describe, expect, it } from 'vitest';
import '../../src/components/index';
import type { PlatformStatusDetail } from '../../src/components/platform-element';
import { SandboxError } from '../../src/components/sandbox-client';
import { nextEvent } from './activity-harness';
import { registerPlatformWorker } from './harness';

const realOnLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!;

afterEach(() => {
  Object.defineProperty(Navigator.prototype, 'onLine', realOnLine);
  document.body.replaceChildren();
});

describe('<pp-platform>', () => {
  it('registers the service worker, connects the hub, and shows "ready" with a pp-status event', async () => {
    const platform = document.createElement('pp-platform');
    const status = nextEvent<PlatformStatusDetail>(platform, 'pp-status');
    document.body.append(platform);
    expect(platform.status).toBe('installing');
    await platform.whenReady();
    expect(await status).toEqual({ status: 'ready', error: null });
    expect(platform.getAttribute('status')).toBe('ready');
    expect(platform.shadowRoot!.querySelector('[part=status]')!.textContent).toBe('Platform ready');
    expect(navigator.serviceWorker.controller).not.toBeNull();
    expect(await platform.hub!.incarnation()).toEqual(expect.any(String));
  });

  it('exposes the sandbox as methods, and currentUserId as a property and attribute', async () => {
    await registerPlatformWorker();
    const platform = document.createElement('pp-platform');
    document.body.append(platform);
    await platform.whenReady();
    await platform.sandbox.reset();
    const { user } = await platform.sandbox.createUser({ username: 'carol' });
    platform.currentUserId = user.id;
    await platform.updateComplete;
    expect(platform.getAttribute('current-user-id')).toBe(user.id);
    expect((await platform.sandbox.getUser(user.id)).user.username).toBe('carol');
    const refused = await platform.sandbox.createUser({ username: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SandboxError);
    expect(refused).toMatchObject({ status: 400, body: { code: 50035 } });
  });

  it('shows "offline" while the browser is offline, and "ready" again when it is back', async () => {
    const platform = document.createElement('pp-platform');
    document.body.append(platform);
    await platform.whenReady();
    Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });
    const offline = nextEvent<PlatformStatusDetail>(platform, 'pp-status');
    window.dispatchEvent(new Event('offline'));
    expect(await offline).toEqual({ status: 'offline', error: null });
    expect(platform.shadowRoot!.querySelector('[part=status]')!.textContent).toContain('Offline');
    Object.defineProperty(Navigator.prototype, 'onLine', realOnLine);
    window.dispatchEvent(new Event('online'));
    expect(platform.status).toBe('ready');
  });

  it('shows "error" with the reason instead of failing silently', async () => {
    const platform = document.createElement('pp-platform');
    platform.serviceWorkerUrl = '/no-such-worker.js';
    const failed = nextEvent<PlatformStatusDetail>(platform, 'pp-status', (d) => d.status === 'error');
    document.body.append(platform);
    const detail = await failed;
    expect(detail.error).toEqual(expect.any(String));
    await expect(platform.whenReady()).rejects.toThrow(/the platform did not start/);
    expect(platform.shadowRoot!.querySelector('[part=status]')!.textContent).toContain('Platform error');
  });
});
