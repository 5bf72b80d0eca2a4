// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { openPlatformDb } from '../../../src/store/open';
import { watchWrites } from '../../../src/store/write-watch';
import { write } from '../../../src/store/write';
import { Clock } from '../../../src/platform/core/clock';
import { SnowflakeGenerator } from '../../../src/platform/core/snowflake';

let counter = 0;

describe('watchWrites: every transaction that may write is seen before it exists, with its scope', () => {
  it('counts read-write transactions opened directly, through idb shortcuts and through write(); not read-only ones', async () => {
    const db = await openPlatformDb(`write-watch-${process.pid}-${++counter}`);
    let writes = 0;
    const scopes: string[][] = [];
    watchWrites(db, (stores) => {
      writes++;
      scopes.push(stores);
    });

    await db.transaction('users', 'readonly').done;
    await db.get('users', '1');
    await db.transaction('users').done;
    expect(writes).toBe(0);

    const tx = db.transaction('users', 'readwrite');
    expect(writes, 'counted when opened, before any request').toBe(1);
    await tx.done;
    await db.put('meta', { frozenAt: null }, 'clock');
    expect(writes).toBe(2);

    const clock = new Clock();
    const ctx = {
      db,
      clock,
      ids: new SnowflakeGenerator({ workerId: 31, processId: 0, clock }),
      announce: () => undefined,
    };
    await write(ctx, ['users'], async () => undefined);
    expect(writes).toBe(3);
    expect(scopes.map((stores) => [...stores].sort())).toEqual([['users'], ['meta'], ['events', 'users']]);
    db.close();
  });
});
