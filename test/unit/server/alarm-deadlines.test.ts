/**
 * Heartbeat deadlines without a timer (`server/alarm-deadlines.ts`): the gateway's connection
 * arms its 4009 deadline through the host's `Deadlines`; the server's keeps them for its object
 * alarm, which runs the ones passed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AlarmDeadlines } from '../../../server/alarm-deadlines';
import { GatewayConnection, type GatewayConnectionHost } from '../../../src/gateway/connection';
import { GATEWAY_HEARTBEAT_TIMEOUT_FACTOR } from '../../../src/platform/core/limits';
import { deadlinesOf } from '../../../src/gateway/timers';
import { ManualTimers } from '../gateway/gateway-harness';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(1_000_000);
});
afterEach(() => vi.useRealTimers());

describe('AlarmDeadlines', () => {
  it('a deadline armed again fires only at its latest time, a cleared one never, each once', () => {
    const armed: number[] = [];
    const deadlines = new AlarmDeadlines((_key, at) => armed.push(at));
    const fired: string[] = [];
    const a = {};
    const b = {};
    const c = {};
    deadlines.arm(a, 100, () => fired.push('a'));
    deadlines.arm(b, 200, () => fired.push('b'));
    deadlines.arm(c, 50, () => fired.push('c'));
    deadlines.arm(a, 300, () => fired.push('a again'));
    deadlines.clear(c);
    expect(armed).toEqual([1_000_100, 1_000_200, 1_000_050, 1_000_300]);
    expect(deadlines.next).toBe(1_000_200);
    expect(deadlines.at(a)).toBe(1_000_300);
    deadlines.expire(1_000_250);
    expect(fired).toEqual(['b']);
    expect(deadlines.next).toBe(1_000_300);
    deadlines.expire(1_000_300);
    deadlines.expire(1_000_400);
    expect(fired).toEqual(['b', 'a again']);
    expect(deadlines.next).toBeNull();
  });

  it('a deadline cleared by another one expiring at the same alarm does not fire', () => {
    const deadlines = new AlarmDeadlines(() => {});
    const fired: string[] = [];
    const a = {};
    const b = {};
    deadlines.arm(a, 10, () => {
      fired.push('a');
      deadlines.clear(b);
    });
    deadlines.arm(b, 20, () => fired.push('b'));
    deadlines.expire(1_000_100);
    expect(fired).toEqual(['a']);
  });
});

/** A gateway host with only what a connection before Identify asks of it. */
function host(deadlines: GatewayConnectionHost['deadlines'], timers = new ManualTimers()) {
  const detached: boolean[] = [];
  const gateway = {
    timers,
    deadlines,
    heartbeatIntervalMs: 1_000,
    reportError: (error: unknown) => {
      throw error;
    },
    detach: (_c: unknown, options: { invalidate: boolean }) => detached.push(options.invalidate),
    invalidatesSession: () => false,
  } as unknown as GatewayConnectionHost;
  return { gateway, detached, timers };
}

describe('a connection arms its 4009 deadline through the host', () => {
  it('Hello arms the heartbeat deadline at 1.5 intervals on the alarm with no timer pending, a heartbeat moves it, and its passing closes 4009', async () => {
    const armed: number[] = [];
    const deadlines = new AlarmDeadlines((_key, at) => armed.push(at));
    const { gateway, timers } = host(deadlines);
    const setTimeout = vi.spyOn(timers, 'setTimeout');
    const sent: string[] = [];
    let closed: number | null = null;
    const connection = new GatewayConnection(
      gateway,
      { send: (t) => sent.push(t), close: (code) => (closed = code) },
      '/gateway',
    );
    const deadline = 1_000 * GATEWAY_HEARTBEAT_TIMEOUT_FACTOR;
    expect(armed).toEqual([1_000_000 + deadline]);
    vi.setSystemTime(1_001_000);
    connection.receive(JSON.stringify({ op: 1, d: null }));
    // The payload is handled a few microtasks later (the fake clock stays put meanwhile).
    for (let i = 0; i < 100 && !sent.some((t) => JSON.parse(t).op === 11); i++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(armed).toEqual([1_000_000 + deadline, 1_001_000 + deadline]);
    deadlines.expire(1_000_000 + deadline);
    expect(closed).toBeNull();
    deadlines.expire(1_001_000 + deadline);
    expect(closed).toBe(4009);
    expect(connection.closed).toBe(true);
    expect(deadlines.next).toBeNull();
    expect(setTimeout).not.toHaveBeenCalled();
  });

  it('without deadlines of its own, a host keeps one timer per connection, as the browser does', () => {
    const timers = new ManualTimers();
    const { gateway } = host(deadlinesOf(timers), timers);
    let closed: number | null = null;
    new GatewayConnection(gateway, { send: () => {}, close: (code) => (closed = code) }, '/gateway');
    timers.advance(1_000 * GATEWAY_HEARTBEAT_TIMEOUT_FACTOR - 1);
    expect(closed).toBeNull();
    timers.advance(1);
    expect(closed).toBe(4009);
  });
});
