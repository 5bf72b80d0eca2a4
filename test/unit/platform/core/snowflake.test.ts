// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { Clock } from '../../../../src/platform/core/clock';
import {
  PLATFORM_EPOCH,
  SnowflakeGenerator,
  isSnowflake,
  snowflakeAt,
  snowflakeKey,
  snowflakeTime,
} from '../../../../src/platform/core/snowflake';
import { openPlatformStorage } from '../../../../src/store/indexeddb/open';

const T = Date.parse('2026-02-23T12:00:00.000Z');
let dbCounter = 0;
const freshDb = () => openPlatformStorage(`snowflake-test-${process.pid}-${++dbCounter}`);

const frozenAt = (ms: number) => new Clock({ frozenAt: ms });
const fields = (id: string) => {
  const n = BigInt(id);
  return {
    time: Number(n >> 22n) + PLATFORM_EPOCH,
    worker: Number((n >> 17n) & 31n),
    process: Number((n >> 12n) & 31n),
    increment: Number(n & 0xfffn),
  };
};
const take = (ids: SnowflakeGenerator, count: number) => Array.from({ length: count }, () => ids.next());
const expectStrictlyIncreasing = (ids: string[]) => {
  for (let i = 1; i < ids.length; i++)
    expect(BigInt(ids[i]) > BigInt(ids[i - 1]), `id ${i} after id ${i - 1}`).toBe(true);
};

describe('snowflake layout (CONTRACT §2)', () => {
  it('(id >> 22) + 1420070400000 is the creation time by the platform clock, not the machine clock', () => {
    const id = new SnowflakeGenerator({ workerId: 1, processId: 0, clock: frozenAt(T) }).next();
    expect(fields(id).time).toBe(T);
    expect(snowflakeTime(id)).toBe(T);
    const real = new SnowflakeGenerator({
      workerId: 1,
      processId: 0,
      clock: new Clock(undefined, () => T + 1234),
    }).next();
    expect(snowflakeTime(real)).toBe(T + 1234);
  });

  it('snowflakeTime reads the platform epoch (documented example)', () => {
    expect(PLATFORM_EPOCH).toBe(1_420_070_400_000);
    expect(snowflakeTime('175928847299117063')).toBe(1462015105796);
  });

  it('worker id is bits 17-21, process id bits 12-16, increment bits 0-11', () => {
    const ids = new SnowflakeGenerator({ workerId: 21, processId: 9, clock: frozenAt(T) });
    const [a, b, c] = take(ids, 3).map(fields);
    expect(a).toEqual({ time: T, worker: 21, process: 9, increment: 0 });
    expect(b).toEqual({ time: T, worker: 21, process: 9, increment: 1 });
    expect(c.increment).toBe(2);
    const max = fields(new SnowflakeGenerator({ workerId: 31, processId: 31, clock: frozenAt(T) }).next());
    expect(max).toEqual({ time: T, worker: 31, process: 31, increment: 0 });
  });

  it('refuses worker and process ids outside 0-31 (they would spill into other fields)', () => {
    const clock = frozenAt(T);
    expect(() => new SnowflakeGenerator({ workerId: 32, processId: 0, clock })).toThrow(RangeError);
    expect(() => new SnowflakeGenerator({ workerId: 0, processId: 32, clock })).toThrow(RangeError);
    expect(() => new SnowflakeGenerator({ workerId: -1, processId: 0, clock })).toThrow(RangeError);
  });
});

describe('snowflake uniqueness and order', () => {
  it('is strictly increasing with a frozen clock; 4096+ ids in one ms roll into the next ms', () => {
    const ids = take(new SnowflakeGenerator({ workerId: 1, processId: 0, clock: frozenAt(T) }), 4096 * 2 + 10);
    expectStrictlyIncreasing(ids);
    expect(fields(ids[4095])).toMatchObject({ time: T, increment: 4095 });
    expect(fields(ids[4096])).toMatchObject({ time: T + 1, increment: 0 });
    expect(fields(ids[8192])).toMatchObject({ time: T + 2, increment: 0 });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps increasing when the clock moves back', () => {
    const clock = frozenAt(T + 60_000);
    const ids = new SnowflakeGenerator({ workerId: 1, processId: 0, clock });
    const before = take(ids, 3);
    clock.set({ frozenAt: T });
    const after = take(ids, 3);
    expectStrictlyIncreasing([...before, ...after]);
    clock.set({ frozenAt: T + 120_000 });
    const later = ids.next();
    expect(snowflakeTime(later)).toBe(T + 120_000);
    expectStrictlyIncreasing([...after, later]);
  });

  it('two generators with different worker ids never collide, even on one frozen ms', () => {
    const clock = frozenAt(T);
    const sw = take(new SnowflakeGenerator({ workerId: 1, processId: 0, clock }), 5000);
    const hub = take(new SnowflakeGenerator({ workerId: 2, processId: 0, clock }), 5000);
    const all = new Set([...sw, ...hub]);
    expect(all.size).toBe(10_000);
  });

  it('a clock set before the platform epoch still gives valid (non-negative) snowflakes', () => {
    const ids = new SnowflakeGenerator({
      workerId: 1,
      processId: 0,
      clock: frozenAt(Date.parse('2010-01-01T00:00:00Z')),
    });
    const [a, b] = take(ids, 2);
    expect(isSnowflake(a)).toBe(true);
    expect(isSnowflake(b)).toBe(true);
    expectStrictlyIncreasing([a, b]);
  });
});

describe('snowflake helpers', () => {
  it('snowflakeKey padding makes string order equal numeric order', () => {
    const ids = [
      '0',
      '7',
      '10',
      '4096',
      '41771983429993937',
      '175928847299117063',
      '1198409612312543232',
      '18446744073709551615',
    ];
    const shuffled = [...ids].reverse();
    expect(shuffled.map(snowflakeKey).sort()).toEqual(ids.map(snowflakeKey));
    expect(snowflakeKey('41771983429993937')).toBe('00041771983429993937');
    expect(ids.every((id) => snowflakeKey(id).length === 20)).toBe(true);
    // Without the padding, string order is not numeric order.
    expect([...ids].sort()).not.toEqual(ids);
  });

  it('isSnowflake accepts decimal strings below 2^64 and nothing else', () => {
    for (const ok of ['0', '1', '175928847299117063', '18446744073709551615']) expect(isSnowflake(ok), ok).toBe(true);
    for (const bad of [
      '18446744073709551616',
      '99999999999999999999',
      '123456789012345678901',
      '',
      '-1',
      '1.5',
      '1e5',
      ' 1',
      '0x10',
      'abc',
    ]) {
      expect(isSnowflake(bad), bad).toBe(false);
    }
    for (const bad of [1, 1n, null, undefined, {}, ['1']]) expect(isSnowflake(bad)).toBe(false);
  });

  it('snowflakeAt(ms) is the smallest id created at ms: a bound for time-range queries', () => {
    const at = snowflakeAt(T);
    expect(snowflakeTime(at)).toBe(T);
    const clock = frozenAt(T - 1);
    const ids = new SnowflakeGenerator({ workerId: 31, processId: 31, clock });
    const before = ids.next();
    clock.set({ frozenAt: T });
    const atT = ids.next();
    expect(BigInt(before) < BigInt(at)).toBe(true);
    expect(BigInt(atT) >= BigInt(at)).toBe(true);
    expect(snowflakeAt(PLATFORM_EPOCH - 5)).toBe('0');
  });
});
