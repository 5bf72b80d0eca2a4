// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { checkMicrophone, MICROPHONE_MESSAGES, microphoneProblem } from '../../../demo/shell/microphone';

/** A browser whose permission for the microphone is `state` and whose getUserMedia does `gum`. */
function browser(state: PermissionState | 'unsupported', gum: () => Promise<MediaStream>, inputs = 1) {
  const stop = vi.fn();
  const getUserMedia = vi.fn(gum);
  return {
    stop,
    getUserMedia,
    access: {
      mediaDevices: {
        getUserMedia,
        enumerateDevices: async () => Array.from({ length: inputs }, () => ({ kind: 'audioinput' }) as MediaDeviceInfo),
      },
      permissions: {
        query: async () => {
          if (state === 'unsupported') throw new TypeError("'microphone' is not a valid permission name");
          return { state } as PermissionStatus;
        },
      },
    },
  };
}

const refusal = (name: string) => () => Promise.reject(new DOMException('No', name));
const stream = (stop: () => void) => async () => ({ getTracks: () => [{ stop }] }) as unknown as MediaStream;

describe('the microphone check before joining a call', () => {
  it('a microphone the browser refuses is said in words (NotAllowedError), as listening only', async () => {
    const b = browser('prompt', refusal('NotAllowedError'));
    const check = await checkMicrophone(b.access);
    expect(check).toEqual({ state: 'refused', message: MICROPHONE_MESSAGES.refused });
    expect(check.message).toMatch(/^The browser refused the microphone, so you are in the call listening only/);
  });

  it('a microphone the browser already refuses is not asked for again', async () => {
    const b = browser(
      'denied',
      stream(() => undefined),
    );
    expect((await checkMicrophone(b.access)).state).toBe('refused');
    expect(b.getUserMedia).not.toHaveBeenCalled();
  });

  it('a microphone the browser already allows is not opened by the check (the call opens it)', async () => {
    const b = browser(
      'granted',
      stream(() => undefined),
    );
    expect(await checkMicrophone(b.access)).toEqual({ state: 'ready', message: null });
    expect(b.getUserMedia).not.toHaveBeenCalled();
  });

  it('allowed, but with no microphone at all: missing', async () => {
    const b = browser(
      'granted',
      stream(() => undefined),
      0,
    );
    expect((await checkMicrophone(b.access)).state).toBe('missing');
  });

  it('when the browser must ask, the check opens the microphone and closes it again at once', async () => {
    const stop = vi.fn();
    const b = browser('unsupported', stream(stop));
    expect((await checkMicrophone(b.access)).state).toBe('ready');
    expect(b.getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('a page without mediaDevices (not a secure context) cannot use a microphone: unavailable', async () => {
    expect((await checkMicrophone({})).state).toBe('unavailable');
  });

  it('names each getUserMedia failure: refused, missing, or busy', () => {
    expect(microphoneProblem(new DOMException('', 'SecurityError')).state).toBe('refused');
    expect(microphoneProblem(new DOMException('', 'NotFoundError')).state).toBe('missing');
    expect(microphoneProblem(new DOMException('', 'OverconstrainedError')).state).toBe('missing');
    expect(microphoneProblem(new DOMException('', 'NotReadableError')).state).toBe('busy');
    expect(microphoneProblem('odd').state).toBe('busy');
  });
});
