// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRAME_INTENTS, listenToPlatform, type SocketLike } from '../../../src/components/platform-events';
import { CAPABILITY_PLATFORM_CLIENT } from '../../../src/gateway/protocol';

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
    const stop = listenToPlatform(
      'tok123',
      (t, d) => heard.push([t, d]),
      () => (sockets.push(new FakeSocket()), sockets.at(-1)!),
    );
    const socket = sockets[0];
    socket.receive({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    expect(socket.sent[0]).toEqual({
      op: 2,
      d: {
        token: 'Bearer tok123',
        intents: FRAME_INTENTS,
        capabilities: CAPABILITY_PLATFORM_CLIENT,
        properties: expect.any(Object),
      },
    });
    socket.receive({ op: 0, d: { id: '1' }, s: 5, t: 'USER_UPDATE' });
    vi.advanceTimersByTime(1000);
    expect(socket.sent.at(-1)).toEqual({ op: 1, d: 5 });
    expect(heard).toEqual([['USER_UPDATE', { id: '1' }]]);
    stop();
    expect(socket.closed?.[0]).toBe(1000);
  });

  it('after a drop it connects again and resumes the session (session_id, last seq) on resume_gateway_url, so nothing in between is missed', () => {
    vi.useFakeTimers();
    const sockets: FakeSocket[] = [];
    const urls: string[] = [];
    const statuses: string[] = [];
    const heard: string[] = [];
    listenToPlatform(
      'tok',
      (t) => heard.push(t),
      (url) => (urls.push(url), sockets.push(new FakeSocket()), sockets.at(-1)!),
      (status) => statuses.push(status),
    );
    sockets[0].receive({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    sockets[0].receive({
      op: 0,
      d: { session_id: 'sess-1', resume_gateway_url: '/gateway', user: { id: '1' } },
      s: 1,
      t: 'READY',
    });
    sockets[0].receive({ op: 0, d: { id: '1' }, s: 2, t: 'USER_UPDATE' });
    sockets[0].emit('close', { code: 1006 });
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    expect(urls[1]).toBe('/gateway?v=10&encoding=json');
    sockets[1].receive({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    expect(sockets[1].sent).toEqual([{ op: 6, d: { token: 'Bearer tok', session_id: 'sess-1', seq: 2 } }]);
    sockets[1].receive({ op: 0, d: { id: '1', global_name: 'missed' }, s: 3, t: 'USER_UPDATE' });
    sockets[1].receive({ op: 0, d: null, s: 4, t: 'RESUMED' });
    expect(heard).toEqual(['READY', 'USER_UPDATE', 'USER_UPDATE', 'RESUMED']);
    expect(statuses).toEqual(['ready', 'disconnected', 'resumed']);
    // Reconnect (op 7) closes with a code that keeps the session, and resumes from the latest seq.
    sockets[1].receive({ op: 7, d: null, s: null, t: null });
    expect(sockets[1].closed?.[0]).toBe(4000);
    sockets[1].emit('close', { code: 4000 });
    vi.advanceTimersByTime(1000);
    sockets[2].receive({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    expect(sockets[2].sent[0]).toEqual({ op: 6, d: { token: 'Bearer tok', session_id: 'sess-1', seq: 4 } });
  });

  it('falls back to Identify when the gateway answers Invalid Session (d: false) to the Resume', () => {
    vi.useFakeTimers();
    const sockets: FakeSocket[] = [];
    listenToPlatform(
      'tok',
      () => undefined,
      () => (sockets.push(new FakeSocket()), sockets.at(-1)!),
    );
    sockets[0].receive({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    sockets[0].receive({ op: 0, d: { session_id: 'old', resume_gateway_url: '/gateway' }, s: 1, t: 'READY' });
    sockets[0].emit('close', { code: 1006 });
    vi.advanceTimersByTime(1000);
    sockets[1].receive({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    expect(sockets[1].sent[0].op).toBe(6);
    sockets[1].receive({ op: 9, d: false, s: null, t: null });
    expect(sockets[1].sent[1]).toEqual({
      op: 2,
      d: {
        token: 'Bearer tok',
        intents: FRAME_INTENTS,
        capabilities: CAPABILITY_PLATFORM_CLIENT,
        properties: expect.any(Object),
      },
    });
    // A session the gateway dropped is not resumed again after the next drop before a new READY.
    sockets[1].emit('close', { code: 1006 });
    vi.advanceTimersByTime(1000);
    sockets[2].receive({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    expect(sockets[2].sent[0].op).toBe(2);
  });

  it('does not connect again after a fatal close or stop()', () => {
    vi.useFakeTimers();
    const sockets: FakeSocket[] = [];
    const stop = listenToPlatform(
      't',
      () => undefined,
      () => (sockets.push(new FakeSocket()), sockets.at(-1)!),
    );
    sockets[0].emit('close', { code: 1006 });
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    sockets[1].emit('close', { code: 4004 });
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(2);
    stop();
  });
});
