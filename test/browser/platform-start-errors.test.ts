/**
 * CONTRACT §6: if a worker cannot start, `<pp-platform>` says so (an error state and a console
 * error naming the cause), never "ready", and an activity frame inside it says why it is not
 * starting. Real Chromium's own failures: a service worker path that answers no script, and a
 * shared worker whose script cannot load.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/components/index';
import type { PlatformStatusDetail } from '../../src/components/platform-element';
import { nextEvent } from './activity-harness';
import { registerPlatformWorker } from './harness';

const RealSharedWorker = globalThis.SharedWorker;

afterEach(() => {
  globalThis.SharedWorker = RealSharedWorker;
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('<pp-platform> names why it did not start (CONTRACT §6)', () => {
  it('a service worker path that answers no script: error naming the path and the browser’s reason, and a console error', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const platform = document.createElement('pp-platform');
    platform.serviceWorkerUrl = '/no-such-worker.js';
    const failed = nextEvent<PlatformStatusDetail>(platform, 'pp-status', (d) => d.status === 'error');
    document.body.append(platform);
    const { error } = await failed;
    expect(error).toContain('/no-such-worker.js');
    expect(error).toMatch(/could not be registered: .*(404|MIME|script)/i);
    expect(error).toContain('platformpp-web/vite');
    expect(platform.getAttribute('status')).toBe('error');
    expect(errors.mock.calls.flat().join(' ')).toContain('/no-such-worker.js');
  });

  it('a shared worker that cannot load: error (never ready) naming the gateway and activity hub, and the frame says why it is not starting', async () => {
    await registerPlatformWorker();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The hub's script answered by a page instead: the browser refuses it as a worker script.
    globalThis.SharedWorker = class extends RealSharedWorker {
      constructor(_url: string | URL, options?: string | WorkerOptions) {
        super('/index.html', options);
      }
    };
    const platform = document.createElement('pp-platform');
    platform.hubName = `broken-hub-${crypto.randomUUID()}`;
    platform.currentUserId = '1';
    const frame = document.createElement('pp-activity-frame');
    frame.setAttribute('application-id', '2');
    frame.setAttribute('channel-id', '3');
    platform.append(frame);
    const failed = nextEvent<PlatformStatusDetail>(platform, 'pp-status', (d) => d.status === 'error');
    document.body.append(platform);
    const { error } = await failed;
    expect(error).toMatch(/shared worker \(the gateway and activity hub\) could not start/);
    await expect(platform.whenReady()).rejects.toThrow(/the platform did not start/);
    await expect.poll(() => frame.status).toBe('error');
    expect(frame.error).toMatch(/the platform did not start: the shared worker/);
    expect(frame.shadowRoot!.textContent).toContain('The activity could not start');
  });
});
