// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  GATEWAY_CLIENT_URL,
  GatewayClient,
  resumeUrl,
  type GatewayClientOptions,
  type GatewayClientStateChange,
} from '../../../src/gateway/client';
import type { GatewayDispatch } from '../../../src/gateway/protocol';
import { FakeSocket, ManualTimers } from '../sdk/fake-socket';

const IDENTIFY = { token: 'Bearer tok', intents: 0, properties: { os: 'test' } };

/** A loop over scripted sockets and manual timers, with everything it reported. */
function scripted(options: Partial<GatewayClientOptions> = {}) {
  const sockets: FakeSocket[] = [];
  const timers = new ManualTimers();
  const states: GatewayClientStateChange[] = [];
  const dispatches: GatewayDispatch[] = [];
  const client = new GatewayClient({
    openSocket: (url) => sockets[sockets.push(new FakeSocket(url)) - 1],
    timers,
    identify: () => IDENTIFY,
    listener: { state: (change) => states.push(change), dispatch: (dispatch) => dispatches.push(dispatch) },
    ...options,
  });
  return { client, sockets, timers, states, dispatches, last: () => sockets[sockets.length - 1] };
}

const ready = (sessionId = 'sess-1', resume_gateway_url = '/gateway') => ({
  v: 10,
  session_id: sessionId,
  resume_gateway_url,
  user: { id: '1', username: 'a' },
  guilds: [],
});

describe('the gateway client loop: one loop for every client of the gateway', () => {
  it('answers Hello with Identify, reports connecting, connected and ready, and hands on every dispatch with its seq', () => {
    const { client, sockets, states, dispatches } = scripted();
    client.start();
    expect(sockets[0].url).toBe(GATEWAY_CLIENT_URL);
    sockets[0].hello();
    expect(sockets[0].sent).toEqual([{ op: 2, d: IDENTIFY }]);
    sockets[0].dispatch('READY', ready(), 1);
    sockets[0].dispatch('LOBBY_DELETE', { id: '9' }, 2);
    expect(states.map((s) => s.state)).toEqual(['connecting', 'connected', 'ready']);
    expect(states[2].resumed).toBe(false);
    expect(dispatches.map((d) => d.t)).toEqual(['READY', 'LOBBY_DELETE']);
    expect(client.sessionId).toBe('sess-1');
  });

  it('heartbeats carry the last seq; a heartbeat the gateway did not acknowledge drops the socket (4000) and resumes', () => {
    const { client, sockets, timers, states } = scripted({ reconnectDelayMs: () => 0 });
    client.start();
    sockets[0].hello();
    sockets[0].dispatch('READY', ready(), 3);
    timers.advance(1000);
    expect(sockets[0].sent.filter((p) => p.op === 1)).toEqual([{ op: 1, d: 3 }]);
    sockets[0].receive({ op: 11 });
    timers.advance(1000);
    expect(sockets[0].sent.filter((p) => p.op === 1)).toHaveLength(2);
    timers.advance(1000);
    expect(sockets[0].closedWith?.code).toBe(4000);
    expect(states.at(-1)).toMatchObject({ state: 'reconnecting', code: 4000 });
    timers.advance(0);
    sockets[1].hello();
    expect(sockets[1].sent[0]).toEqual({ op: 6, d: { token: 'Bearer tok', session_id: 'sess-1', seq: 3 } });
  });

  it('the gateway asking for a heartbeat (op 1) gets one at once', () => {
    const { client, sockets } = scripted();
    client.start();
    sockets[0].hello();
    sockets[0].dispatch('READY', ready(), 7);
    sockets[0].receive({ op: 1 });
    expect(sockets[0].sent.at(-1)).toEqual({ op: 1, d: 7 });
  });

  it('after an unexpected close it resumes on READY’s resume_gateway_url with session_id and last seq; RESUMED is ready again, resumed', () => {
    const { client, sockets, timers, states, dispatches } = scripted();
    client.start();
    sockets[0].hello();
    sockets[0].dispatch('READY', ready('sess-2', '/elsewhere'), 1);
    sockets[0].dispatch('USER_UPDATE', { id: '1' }, 2);
    sockets[0].drop(1006);
    expect(states.at(-1)).toMatchObject({ state: 'reconnecting', code: 1006 });
    timers.advance(1000);
    expect(sockets[1].url).toBe('/elsewhere?v=10&encoding=json');
    sockets[1].hello();
    expect(sockets[1].sent[0]).toEqual({ op: 6, d: { token: 'Bearer tok', session_id: 'sess-2', seq: 2 } });
    sockets[1].dispatch('RESUMED', {}, 3);
    expect(states.at(-1)).toEqual({ state: 'ready', resumed: true });
    expect(dispatches.map((d) => d.t)).toEqual(['READY', 'USER_UPDATE', 'RESUMED']);
  });

  it('Reconnect (op 7) closes with 4000, which keeps the session, and resumes on a new socket', () => {
    const { client, sockets, timers } = scripted();
    client.start();
    sockets[0].hello();
    sockets[0].dispatch('READY', ready(), 4);
    sockets[0].receive({ op: 7 });
    expect(sockets[0].closedWith?.code).toBe(4000);
    timers.advance(1000);
    sockets[1].hello();
    expect(sockets[1].sent[0].op).toBe(6);
  });

  it('Invalid Session (d: false) identifies afresh on the same socket; d: true resumes on a new one', () => {
    const { client, sockets, timers } = scripted();
    client.start();
    sockets[0].hello();
    sockets[0].dispatch('READY', ready('old'), 1);
    sockets[0].receive({ op: 9, d: true });
    expect(sockets[0].closedWith?.code).toBe(4000);
    timers.advance(1000);
    sockets[1].hello();
    expect(sockets[1].sent[0]).toMatchObject({ op: 6, d: { session_id: 'old' } });
    sockets[1].receive({ op: 9, d: false });
    expect(sockets[1].sent[1]).toEqual({ op: 2, d: IDENTIFY });
    expect(client.sessionId).toBeNull();
  });

  it('a fatal close code (4004, 4010-4014) ends the loop: closed, no new socket', () => {
    for (const code of [4004, 4010, 4011, 4012, 4013, 4014]) {
      const { client, sockets, timers, states } = scripted();
      client.start();
      sockets[0].hello();
      sockets[0].drop(code);
      timers.advance(60_000);
      expect(sockets).toHaveLength(1);
      expect(states.at(-1)).toMatchObject({ state: 'closed', code });
    }
  });

  it('after 4007 (invalid seq) or 4009 (session timed out) it connects again and identifies afresh', () => {
    for (const code of [4007, 4009]) {
      const { client, sockets, timers } = scripted();
      client.start();
      sockets[0].hello();
      sockets[0].dispatch('READY', ready(), 5);
      sockets[0].drop(code);
      timers.advance(1000);
      sockets[1].hello();
      expect(sockets[1].sent[0].op).toBe(2);
    }
  });

  it('reconnect delays back off from 1 s, doubling to 30 s, and start again from 1 s after READY', () => {
    const { client, sockets, timers } = scripted();
    client.start();
    const gaps: number[] = [];
    for (let i = 0; i < 7; i++) {
      const before = timers.now;
      const count = sockets.length;
      sockets[count - 1].drop(1006);
      while (sockets.length === count) timers.advance(100);
      gaps.push(timers.now - before);
    }
    expect(gaps).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    sockets.at(-1)!.hello();
    sockets.at(-1)!.dispatch('READY', ready(), 1);
    const before = timers.now;
    sockets.at(-1)!.drop(1006);
    timers.advance(1000);
    expect(timers.now - before).toBe(1000);
    expect(sockets).toHaveLength(9);
  });

  it('with resume off, every new connection identifies afresh', () => {
    const { client, sockets, timers } = scripted({ resume: false });
    client.start();
    sockets[0].hello();
    sockets[0].dispatch('READY', ready(), 2);
    sockets[0].drop(1006);
    timers.advance(1000);
    expect(sockets[1].url).toBe(GATEWAY_CLIENT_URL);
    sockets[1].hello();
    expect(sockets[1].sent[0]).toEqual({ op: 2, d: IDENTIFY });
  });

  it('stop() closes with 1000 (the session ends), reports nothing and never reconnects', async () => {
    const { client, sockets, timers, states } = scripted();
    client.start();
    sockets[0].hello();
    sockets[0].dispatch('READY', ready(), 1);
    const reported = states.length;
    const stopped = client.stop('Bye.');
    timers.advance(0);
    await stopped;
    expect(sockets[0].closedWith).toEqual({ code: 1000, reason: 'Bye.' });
    timers.advance(60_000);
    expect(sockets).toHaveLength(1);
    expect(states).toHaveLength(reported);
    expect(client.state).toBe('idle');
    expect(client.sessionId).toBeNull();
  });

  it('no token when Hello comes: the socket is closed and the loop ends as 4004 would end it', () => {
    const { client, sockets, states } = scripted({ identify: () => null });
    client.start();
    sockets[0].hello();
    expect(sockets[0].sent).toEqual([]);
    expect(sockets[0].closedWith?.code).toBe(1000);
    expect(states.at(-1)).toMatchObject({ state: 'closed', code: 4004 });
  });

  it('a first socket that cannot be opened ends the loop; one that fails while reconnecting is tried again', async () => {
    let fail = true;
    const opened: string[] = [];
    const timers = new ManualTimers();
    const states: string[] = [];
    let socket: FakeSocket | undefined;
    const client = new GatewayClient({
      openSocket: async (url) => {
        if (fail) throw new Error('no hub');
        opened.push(url);
        socket = new FakeSocket(url);
        return socket;
      },
      timers,
      identify: () => IDENTIFY,
      listener: { state: (change) => states.push(`${change.state}:${change.code ?? ''}`) },
    });
    client.start();
    await Promise.resolve();
    await Promise.resolve();
    expect(states).toEqual(['connecting:', 'closed:0']);
    fail = false;
    client.start();
    await Promise.resolve();
    await Promise.resolve();
    socket!.hello();
    socket!.drop(1006);
    fail = true;
    timers.advance(1000);
    await Promise.resolve();
    await Promise.resolve();
    expect(states.at(-1)).toBe('reconnecting:0');
  });

  it('a socket that opens after stop() is closed at once', async () => {
    let resolve!: (socket: FakeSocket) => void;
    const late = new FakeSocket('/gateway');
    const client = new GatewayClient({
      openSocket: () => new Promise<FakeSocket>((r) => (resolve = r)),
      timers: new ManualTimers(),
      identify: () => IDENTIFY,
      listener: {},
    });
    client.start();
    await client.stop();
    resolve(late);
    await Promise.resolve();
    expect(late.closedWith?.code).toBe(1000);
  });

  it("send() writes on the open socket only; resumeUrl adds the version and encoding READY's URL leaves out", () => {
    const { client, sockets } = scripted();
    expect(client.send(8, {})).toBe(false);
    client.start();
    sockets[0].hello();
    expect(client.send(8, { guild_id: '1' })).toBe(true);
    expect(sockets[0].sent.at(-1)).toEqual({ op: 8, d: { guild_id: '1' } });
    expect(resumeUrl('/gateway')).toBe('/gateway?v=10&encoding=json');
    expect(resumeUrl('wss://x/gateway?v=9')).toBe('wss://x/gateway?v=9');
    expect(resumeUrl(undefined)).toBe(GATEWAY_CLIENT_URL);
  });
});
