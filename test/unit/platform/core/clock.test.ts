// @vitest-environment node
import { SNOWFLAKE_LEASE_MS } from '../../../../src/platform/core/snowflake';
import { describe, expect, it } from 'vitest';
import { Clock, REAL_TIME } from '../../../../src/platform/core/clock';
import { RULE_DATES, inForce } from '../../../../src/platform/core/dates';
import { loadClockState, saveClockState } from '../../../../src/store/meta';
import { openPlatformStorage } from '../../../../src/store/indexeddb/open';

const DAY = 86_400_000;
let dbCounter = 0;
const dbName = () => `clock-test-${process.pid}-${++dbCounter}`;

describe('platform clock (ARCHITECTURE rule 6)', () => {
  it('reads real time by default', () => {
    const clock = new Clock();
    const before = Date.now();
    const now = clock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    expect(clock.frozen).toBe(false);
    expect(clock.state).toEqual({ frozenAt: null });
  });

  it('reads the injected real-time source while not frozen', () => {
    let real = 1_000;
    const clock = new Clock(REAL_TIME, () => real);
    expect(clock.now()).toBe(1_000);
    real = 2_000;
    expect(clock.now()).toBe(2_000);
  });

  it('set() freezes it at an instant, and REAL_TIME releases it', () => {
    let real = Date.parse('2025-01-01T00:00:00Z');
    const clock = new Clock(REAL_TIME, () => real);
    const frozenAt = Date.parse('2026-11-16T00:00:00Z');
    clock.set({ frozenAt });
    real += 10_000;
    expect(clock.now()).toBe(frozenAt);
    expect(clock.frozen).toBe(true);
    expect(clock.isoNow()).toBe('2026-11-16T00:00:00.000Z');
    clock.set(REAL_TIME);
    expect(clock.frozen).toBe(false);
    expect(clock.now()).toBe(real);
  });

  it('keeps its own copy of the state (a caller mutating its object changes nothing)', () => {
    const state = { frozenAt: 5 };
    const clock = new Clock(state);
    state.frozenAt = 6;
    const read = clock.state;
    read.frozenAt = 7;
    expect(clock.now()).toBe(5);
  });

  it('is persisted through saveClockState / loadClockState (another context sees it)', async () => {
    const name = dbName();
    const db = await openPlatformStorage(name);
    expect(await loadClockState(db)).toEqual({ frozenAt: null });
    const frozenAt = Date.parse('2026-02-23T00:00:00Z');
    await saveClockState(db, { frozenAt }, frozenAt + SNOWFLAKE_LEASE_MS);
    db.close();

    const other = await openPlatformStorage(name);
    const clock = new Clock(await loadClockState(other), () => 0);
    expect(clock.frozen).toBe(true);
    expect(clock.now()).toBe(frozenAt);
    await saveClockState(other, REAL_TIME, 0 + SNOWFLAKE_LEASE_MS);
    expect(await loadClockState(other)).toEqual({ frozenAt: null });
    other.close();
  });
});

describe('dated rules of the spec', () => {
  const SPEC_DATES: Record<keyof typeof RULE_DATES, string> = {
    VOICE_LEGACY_DISCONTINUED: '2024-11-18',
    UPLOAD_LIMIT_10_MIB: '2025-01-16',
    CREATE_GUILD_REMOVED: '2025-07-15',
    REQUEST_ALL_MEMBERS_LIMITED: '2025-10-01',
    PERMISSION_SPLIT: '2026-02-23',
    E2EE_CALLS_ONLY: '2026-03-01',
    STUDIO_CONNECTIONS_HIDDEN: '2026-07-10',
    NETWORK_CONNECTIONS_HIDDEN: '2026-09-22',
    CHANNEL_LIST_OMITS_HIDDEN: '2026-11-16',
  };

  it('every date the spec names is in RULE_DATES at 00:00 UTC of its day', () => {
    expect(Object.keys(RULE_DATES).sort()).toEqual(Object.keys(SPEC_DATES).sort());
    for (const [name, iso] of Object.entries(SPEC_DATES)) {
      expect(new Date(RULE_DATES[name as keyof typeof RULE_DATES]).toISOString(), name).toBe(`${iso}T00:00:00.000Z`);
    }
  });

  for (const [name, iso] of Object.entries(SPEC_DATES)) {
    it(`${name} is in force from ${iso} 00:00 UTC by the platform clock, not the day before`, () => {
      const date = RULE_DATES[name as keyof typeof RULE_DATES];
      const clock = new Clock({ frozenAt: Date.parse(`${iso}T00:00:00Z`) }, () => 0);
      expect(inForce(date, clock.now())).toBe(true);
      clock.set({ frozenAt: clock.now() - 1 });
      expect(inForce(date, clock.now())).toBe(false);
      clock.set({ frozenAt: date - DAY });
      expect(inForce(date, clock.now())).toBe(false);
      clock.set({ frozenAt: date + DAY });
      expect(inForce(date, clock.now())).toBe(true);
    });
  }
});
