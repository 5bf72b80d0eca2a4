// @vitest-environment node
import { openDB } from 'idb';
import { SNOWFLAKE_LEASE_MS } from '../../../src/platform/core/snowflake';
import { indexedDbOf } from './indexeddb-of';
import { PLATFORM_CATALOGUE } from '../../../src/store/platform-catalogue';
import { describe, expect, it } from 'vitest';
import type { LobbyRecord, UserRecord } from '../../../src/store/records/core';
import { loadClockState, saveClockState } from '../../../src/store/meta';
import { DB_VERSION, MIGRATIONS } from '../../../src/store/indexeddb/migrations';
import { openPlatformStorage } from '../../../src/store/indexeddb/open';
import { ALL_STORES } from '../../../src/store/platform-catalogue';
import type { EventRecord, PlatformStorage } from '../../../src/store/schema';
import { expectEveryRecord, writeSampleRecords } from './sample-records';
import { placeholderRecord } from './placeholder-events';
import { findResumePoint, ResumeMarks, storeResumeBatch } from '../../../src/gateway/resume-marks';

let dbCounter = 0;
const dbName = () => `migrations-test-${process.pid}-${++dbCounter}`;

const user = {
  id: '1198409612312543232',
  username: 'alice',
  global_name: null,
  discriminator: '0',
  avatar: null,
  bot: false,
  premium_type: 0,
  primary_guild: null,
  provisional: false,
  created_at: 1,
} as UserRecord;
const lobby = {
  id: '1198409612312543233',
  application_id: '1198409612312543234',
  secret: 'join-me',
  metadata: { mode: 'duo' },
  idle_timeout_seconds: 300,
  idle_deadline: null,
  linked_channel_id: null,
  member_count: 1,
  created_at: 2,
} as LobbyRecord;
const event: EventRecord = placeholderRecord({
  type: 'LOBBY_CREATE',
  data: { id: lobby.id },
  audience: { user_ids: [user.id], application_id: lobby.application_id },
  channels: ['gateway'],
  created_at: 3,
});
const FROZEN = { frozenAt: Date.parse('2026-02-23T00:00:00Z') };

/** What version 1 already had: the records every later version must still read. */
async function writeVersion1Data(db: PlatformStorage): Promise<number> {
  const seq = await db.write(['users', 'lobbies', 'events'], async (tx) => {
    const [, , key] = await Promise.all([
      tx.store('users').put(user),
      tx.store('lobbies').put(lobby),
      tx.store('events').add(event),
    ]);
    return key;
  });
  await saveClockState(db, FROZEN, FROZEN.frozenAt + SNOWFLAKE_LEASE_MS);
  return seq;
}

async function expectVersion1Data(db: PlatformStorage, seq: number): Promise<void> {
  expect(await db.get('users', user.id)).toEqual(user);
  expect(await db.get('lobbies', lobby.id)).toEqual(lobby);
  expect(await db.getFromIndex('lobbies', 'by_secret', [lobby.application_id, 'join-me'])).toEqual(lobby);
  expect(await db.get('events', seq)).toEqual({ ...event, seq });
  expect(await loadClockState(db)).toEqual(FROZEN);
}

/** Real records where the test has them; the other stores get a sample with their key and index fields. */
const REAL_RECORDS = { users: user, lobbies: lobby, events: event };
const writeEveryStore = (db: PlatformStorage) => writeSampleRecords(db, { real: REAL_RECORDS, clock: FROZEN });

/** Stores with their key paths, auto-increment and indexes: the shape of a database. */
function schemaOf(storage: PlatformStorage) {
  const db = indexedDbOf(storage);
  const tx = db.transaction([...db.objectStoreNames]);
  return [...db.objectStoreNames].map((name) => {
    const store = tx.objectStore(name);
    return {
      name,
      keyPath: store.keyPath,
      autoIncrement: store.autoIncrement,
      indexes: [...store.indexNames].sort().map((i) => {
        const index = store.index(i);
        return { name: i, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
      }),
    };
  });
}

describe('store migrations (a migration only adds: data of version N stays readable)', () => {
  it('DB_VERSION is the last migration', () => {
    expect(DB_VERSION).toBe(MIGRATIONS.length - 1);
    expect(DB_VERSION).toBeGreaterThanOrEqual(1);
  });

  it('opening an empty database at DB_VERSION creates exactly the stores of ALL_STORES', async () => {
    const db = await openPlatformStorage(dbName());
    expect(indexedDbOf(db).version).toBe(DB_VERSION);
    expect([...indexedDbOf(db).objectStoreNames].sort()).toEqual([...ALL_STORES].sort());
    db.close();
  });

  it('a user, a lobby, an event and the clock written at version 1 are readable after upgrading to DB_VERSION', async () => {
    const name = dbName();
    const v1 = await openPlatformStorage(name, 1);
    expect(indexedDbOf(v1).version).toBe(1);
    const seq = await writeVersion1Data(v1);
    v1.close();

    const latest = await openPlatformStorage(name);
    expect(indexedDbOf(latest).version).toBe(DB_VERSION);
    await expectVersion1Data(latest, seq);
    // The log keeps counting after an upgrade: a new event never reuses a sequence number.
    expect(await latest.add('events', { ...event, type: 'LOBBY_UPDATE' } as EventRecord)).toBeGreaterThan(seq);
    latest.close();
  });

  it('the database the migrations build has exactly the stores, key paths and indexes of the catalogue (what an engine that starts empty creates)', async () => {
    const db = await openPlatformStorage(dbName());
    const expected = Object.entries(PLATFORM_CATALOGUE)
      .map(([name, definition]) => ({
        name,
        keyPath: definition.keyPath ?? null,
        autoIncrement: definition.autoIncrement ?? false,
        indexes: Object.entries(definition.indexes)
          .map(([index, { keyPath, unique = false, multiEntry = false }]) => ({
            name: index,
            keyPath,
            unique,
            multiEntry,
          }))
          .sort((a, b) => (a.name < b.name ? -1 : 1)),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(schemaOf(db)).toEqual(expected);
    db.close();
  });

  it('an upgraded database has the same schema as a new one', async () => {
    const name = dbName();
    (await openPlatformStorage(name, 1)).close();
    const upgraded = await openPlatformStorage(name);
    const fresh = await openPlatformStorage(dbName());
    expect(schemaOf(upgraded)).toEqual(schemaOf(fresh));
    upgraded.close();
    fresh.close();
  });

  const steps = Array.from({ length: DB_VERSION - 1 }, (_, i) => i + 1);
  it(`one record in every store that exists at version v is readable at v + 1, by key and by every index, for every step (${steps.length} of them)`, async () => {
    for (const v of steps) {
      const name = dbName();
      const before = await openPlatformStorage(name, v);
      const written = await writeEveryStore(before);
      expect(written.map((w) => w.store).sort(), `version ${v}: a record in every store`).toEqual(
        [...indexedDbOf(before).objectStoreNames].sort(),
      );
      before.close();
      const after = await openPlatformStorage(name, v + 1);
      expect(indexedDbOf(after).version, `step ${v} -> ${v + 1}`).toBe(v + 1);
      await expectEveryRecord(after, written, `step ${v} -> ${v + 1}`);
      expect(await loadClockState(after)).toEqual(FROZEN);
      after.close();
    }
  });

  it('version 20 copies the resume points stored by version 19 into gateway_resume_batches, where a Resume finds them', async () => {
    const name = dbName();
    const v19 = await openPlatformStorage(name, 19);
    await v19.write(['gateway_resume_marks'], async (tx) => {
      const marks = tx.store('gateway_resume_marks');
      await marks.put({ session_id: 'abc', s: 6, after: 39, skip: 0 });
      await marks.put({ session_id: 'abc', s: 7, after: 40, skip: 1, hidden: ['9'] });
      await marks.put({ session_id: 'xyz', s: 2, after: 12, skip: 0 });
    });
    v19.close();

    const latest = await openPlatformStorage(name);
    expect(await findResumePoint(latest, 'abc', 7)).toEqual({
      mark: { session_id: 'abc', s: 7, after: 40, skip: 1, hidden: ['9'] },
      last: 7,
    });
    expect((await findResumePoint(latest, 'xyz', 2)).mark).toEqual({ session_id: 'xyz', s: 2, after: 12, skip: 0 });
    latest.close();
  });

  it('version 21 reads the resume batches stored by version 20 (every part keyed) as they are, and a session continues after them', async () => {
    const name = dbName();
    const v20 = await openPlatformStorage(name, 20);
    await v20.write(['gateway_resume_batches'], async (tx) => {
      const batches = tx.store('gateway_resume_batches');
      await batches.put({
        parts: [
          {
            session_id: 'abc',
            from: 0,
            points: [
              { s: 6, after: 39, skip: 0 },
              { s: 7, after: 40, skip: 1 },
            ],
          },
          { session_id: 'xyz', from: 0, points: [{ s: 2, after: 40, skip: 0 }] },
        ],
        keys: [
          ['abc', 6],
          ['xyz', 2],
        ],
      });
      await batches.put({
        parts: [{ session_id: 'abc', from: 0, points: [{ s: 8, after: 41, skip: 0 }] }],
        keys: [['abc', 8]],
      });
    });
    v20.close();

    const latest = await openPlatformStorage(name);
    expect(await findResumePoint(latest, 'abc', 7)).toEqual({
      mark: { session_id: 'abc', s: 7, after: 40, skip: 1 },
      last: 8,
    });
    expect((await findResumePoint(latest, 'xyz', 2)).mark).toEqual({ session_id: 'xyz', s: 2, after: 40, skip: 0 });
    // The session resumed from 7 in a start of the gateway after the upgrade: 8 goes, 8 again follows.
    const marks = new ResumeMarks('abc');
    marks.resumedAt(7);
    marks.add(8, 50, 0);
    await latest.write(['gateway_resume_batches'], (tx) =>
      storeResumeBatch(tx.store('gateway_resume_batches'), [marks], { start: 'after-upgrade', n: 1 }),
    );
    expect(await findResumePoint(latest, 'abc', 8)).toEqual({
      mark: { session_id: 'abc', s: 8, after: 50, skip: 0 },
      last: 8,
    });
    expect((await findResumePoint(latest, 'abc', 6)).mark?.after).toBe(39);
    latest.close();
  });

  it('version 15 moves the resume points of sessions stored by version 14 into gateway_resume_marks', async () => {
    const name = dbName();
    const v14 = await openPlatformStorage(name, 14);
    const legacy = {
      session_id: 'abc',
      kind: 'bot',
      user_id: user.id,
      seq: 7,
      log_seq: 40,
      marks: [
        [6, 39, 0],
        [7, 40, 0],
      ],
      hidden_channel_ids: [],
    };
    // Version 14's record shape: resume points as an array in the record.
    await v14.put('gateway_sessions', legacy as never);
    v14.close();

    const latest = await openPlatformStorage(name);
    expect(await latest.getAll('gateway_resume_marks')).toEqual([
      { session_id: 'abc', s: 6, after: 39, skip: 0 },
      { session_id: 'abc', s: 7, after: 40, skip: 0 },
    ]);
    const { marks, ...rest } = legacy;
    expect(await latest.get('gateway_sessions', 'abc')).toEqual(rest);
    latest.close();
  });

  it('an open connection closes itself when another context upgrades, so the upgrade is not blocked', async () => {
    const name = dbName();
    const old = await openPlatformStorage(name);
    let blocked = false;
    const newer = await openDB(name, DB_VERSION + 1, {
      blocked: () => {
        blocked = true;
      },
    });
    expect(newer.version).toBe(DB_VERSION + 1);
    expect(blocked).toBe(false);
    await expect(Promise.resolve().then(() => old.get('users', 'x'))).rejects.toThrow();
    newer.close();
  });
});
