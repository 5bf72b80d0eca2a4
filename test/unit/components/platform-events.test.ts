// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRAME_INTENTS, listenToPlatform, type SocketLike } from '../../../src/components/platform-events';

class FakeSocket implements SocketLike {
  sent: any[] = [];
  closed: [number | undefined, string | undefined] | null = null;
  #listeners = new Map<string, ((event: any) => void)[]>();
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number, reason?: string) {
    this.closed = [code, reason];
  }
  addEventListener(type: string, listener: (event: any) => void) {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: any) {
    for (const l of this.#listeners.get(type) ?? []) l(event);
  }
  receive(payload: unknown) {
    this.emit('message', { data: JSON.stringify(payload) });
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a frame listens to the platform as its user', () => {
  it('identifies with the Bearer token and non-privileged intents, heartbeats, and hands on dispatches', () => {
    vi.useFakeTimers();
    const sockets: FakeSocket[] = [];
    const heard: [string, unknown][] = [];
    const stop = listenToPlatform('tok123', (t, d) => heard.push([t, d]), () => (sockets.push(new FakeSocket()), sockets.at(-1)!));
    const socket = sockets[0];
    socket.receive({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    expect(socket.sent[0]).toEqual({ op: 2, d: { token: 'Bearer tok123', intents: FRAME_INTENTS, properties: expect.any(Object) } });
    socket.receive({ op: 0, d: { id: '1' }, s: 5, t: 'USER_UPDATE' });
    vi.advanceTimersByTime(1000);
    expect(socket.sent.at(-1)).toEqual({ op: 1, d: 5 });
    expect(heard).toEqual([['USER_UPDATE', { id: '1' }]]);
    stop();
    expect(socket.closed?.[0]).toBe(1000);
  });

  it('connects again with a fresh Identify when the connection drops, but not after a fatal close or stop()', () => {
    vi.useFakeTimers();
    const sockets: FakeSocket[] = [];
    const stop = listenToPlatform('t', () => undefined, () => (sockets.push(new FakeSocket()), sockets.at(-1)!));
    sockets[0].emit('close', { code: 1006 });
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    sockets[1].emit('close', { code: 4004 });
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(2);
    stop();
  });
});
