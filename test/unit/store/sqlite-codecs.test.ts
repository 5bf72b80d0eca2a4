// @vitest-environment node
/**
 * What the SQLite adapter adds below the port: keys as order-preserving bytes, records as
 * structured-clone data (Blobs, CryptoKeys, values JSON cannot hold), records larger than a
 * row, and tables that follow the catalogue as it grows.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../src/store/catalogue';
import type { Key } from '../../../src/store/port';
import { betterSqliteConnection } from '../../../src/store/sqlite/better-sqlite3';
import { SqliteEngine } from '../../../src/store/sqlite/engine';
import { decodeKey, encodeKey } from '../../../src/store/sqlite/key-codec';
import { decodeValue, encodeValue } from '../../../src/store/sqlite/value-codec';
import { ROW_CHARS } from '../../../src/store/sqlite/writes';

type KvDB = { kv: { key: Key; value: any } };
type ItemsDB = { items: { key: string; value: any; indexes: { by_color: string } } };

const compareBytes = (a: Uint8Array, b: Uint8Array) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

const roundTrip = async (value: unknown) => decodeValue(await encodeValue(value));

describe('SQLite key encoding', () => {
  it('keeps IndexedDB key order as byte order, and decodes every key back', () => {
    const ordered: Key[] = [
      -Infinity,
      -1e300,
      -1,
      -0.5,
      0,
      1e-300,
      2.5,
      Infinity,
      '',
      '\u0000',
      '\u0000\u0000',
      '\u0001',
      'A',
      'a',
      'a\u0000',
      'ab',
      '\u0100',
      '\ud800\udc00',
      '\uffff',
      [],
      [-Infinity],
      [0],
      [''],
      ['a'],
      ['a', -1],
      ['a', 'b'],
      ['a', []],
      ['a', ['b']],
      ['b'],
    ];
    const encoded = ordered.map(encodeKey);
    for (let i = 1; i < encoded.length; i++) {
      expect(
        compareBytes(encoded[i - 1], encoded[i]),
        `${JSON.stringify(ordered[i - 1])} < ${JSON.stringify(ordered[i])}`,
      ).toBeLessThan(0);
    }
    for (let i = 0; i < ordered.length; i++) expect(decodeKey(encoded[i])).toEqual(ordered[i]);
  });

  it('refuses NaN, null and objects as keys with DataError', () => {
    for (const bad of [Number.NaN, null, {}, [1, null], true]) {
      expect(() => encodeKey(bad as Key)).toThrowError(expect.objectContaining({ name: 'DataError' }));
    }
  });
});

describe('SQLite record encoding', () => {
  it('reads back structured-clone values JSON cannot hold', async () => {
    const value = {
      list: [1, undefined, null, Number.NaN, -Infinity, Infinity, -0],
      date: new Date(1_700_000_000_000),
      map: new Map<unknown, unknown>([
        ['a', 1],
        [2, { b: [3] }],
      ]),
      set: new Set(['x', 'y']),
      big: 2n ** 70n,
      bytes: new Uint8Array([0, 1, 254, 255]),
      buffer: new Uint16Array([1, 65535]).buffer,
      '\u0000t': 'a field named like the tag',
      nested: { deep: { text: 'é\ud83d\ude00' } },
    };
    const back = (await roundTrip(value)) as typeof value;
    expect(back.list).toEqual([1, undefined, null, Number.NaN, -Infinity, Infinity, -0]);
    expect(Object.is(back.list[6], -0)).toBe(true);
    expect(back).toEqual(value);
    expect(back.bytes).toBeInstanceOf(Uint8Array);
    expect(new Uint16Array(back.buffer)).toEqual(new Uint16Array([1, 65535]));
  });

  it('stores a record JSON holds as its JSON text, and reads back equal one with undefined, a class instance, a field named like the tag or deep nesting', async () => {
    const plain = { id: '1', n: 2.5, ok: true, none: null, list: [1, 'a', { b: [] }], nested: { deep: { x: 'é' } } };
    expect(await encodeValue(plain)).toBe(JSON.stringify(plain));
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100; i++) deep = { next: deep };
    class Point {
      x = 1;
      toJSON() {
        return 'not what is stored';
      }
    }
    const others = [
      { a: undefined, b: 1 },
      [1, undefined],
      { zero: -0 },
      { '\u0000t': 'the tag', v: 1 },
      Object.assign(Object.create(null), { c: 3 }),
      deep,
    ];
    for (const value of others) expect(await roundTrip(value)).toEqual(value);
    expect(Object.keys((await roundTrip({ a: undefined })) as object)).toEqual(['a']);
    expect(await roundTrip(new Point())).toEqual({ x: 1 });
  });

  it('keeps a Blob with its bytes and type', async () => {
    const back = (await roundTrip({ data: new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }) })) as {
      data: Blob;
    };
    expect(back.data).toBeInstanceOf(Blob);
    expect(back.data.type).toBe('image/png');
    expect([...new Uint8Array(await back.data.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it('stores an extractable CryptoKey as its JWK and reads it back as a non-extractable key that still signs', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const back = (await roundTrip({ private_key: pair.privateKey })) as { private_key: CryptoKey };
    expect(back.private_key).toBeInstanceOf(CryptoKey);
    expect(back.private_key.extractable).toBe(false);
    const data = new TextEncoder().encode('signed');
    const signature = await crypto.subtle.sign('Ed25519', back.private_key, data);
    expect(await crypto.subtle.verify('Ed25519', pair.publicKey, signature, data)).toBe(true);
  });

  it('stores again a key it read back (a record read, changed and put back), still signing', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const once = (await roundTrip({ private_key: pair.privateKey })) as { private_key: CryptoKey };
    const twice = (await roundTrip({ ...once, changed: true })) as { private_key: CryptoKey };
    const data = new TextEncoder().encode('signed');
    const signature = await crypto.subtle.sign('Ed25519', twice.private_key, data);
    expect(await crypto.subtle.verify('Ed25519', pair.publicKey, signature, data)).toBe(true);
  });

  it('refuses a non-extractable CryptoKey with DataCloneError: it could not be read back', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    expect(() => encodeValue({ key: pair.privateKey })).toThrowError(
      expect.objectContaining({ name: 'DataCloneError' }),
    );
  });
});

describe('SQLite adapter storage', () => {
  it('stores a record larger than a row over several rows and reads it whole, also by range and after replacing it', async () => {
    const engine = await SqliteEngine.open<KvDB>(betterSqliteConnection(new Database(':memory:')), {
      kv: { indexes: {} },
    });
    const big = 'é'.repeat(ROW_CHARS * 2 + 17) + '\ud83d\ude00'.repeat(ROW_CHARS / 2);
    await engine.write(['kv'], (tx) => tx.store('kv').put({ big }, 'k'));
    expect((await engine.read(['kv']).store('kv').get('k'))?.big).toBe(big);
    expect((await engine.read(['kv']).store('kv').getAll())[0].big).toBe(big);
    await engine.write(['kv'], (tx) => tx.store('kv').put({ big: 'small' }, 'k'));
    expect(await engine.read(['kv']).store('kv').get('k')).toEqual({ big: 'small' });
  });

  it('builds an index the catalogue gained from the records already stored, and drops one it lost', async () => {
    const db = new Database(':memory:');
    const before: Catalogue<ItemsDB> = { items: { keyPath: 'id', indexes: {} } as never };
    const first = await SqliteEngine.open<ItemsDB>(betterSqliteConnection(db), before);
    await first.write(['items'], async (tx) => {
      await tx.store('items').put({ id: 'a', color: 'red' });
      await tx.store('items').put({ id: 'b', color: 'blue' });
      await tx.store('items').put({ id: 'c' });
    });
    const after: Catalogue<ItemsDB> = { items: { keyPath: 'id', indexes: { by_color: { keyPath: 'color' } } } };
    const second = await SqliteEngine.open<ItemsDB>(betterSqliteConnection(db), after);
    expect(await second.read(['items']).store('items').index('by_color').getAllKeys()).toEqual(['b', 'a']);
    await SqliteEngine.open<ItemsDB>(betterSqliteConnection(db), before);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'x_%'").all();
    expect(tables).toEqual([]);
  });

  it('refuses a store outside the transaction with NotFoundError, as IndexedDB does', async () => {
    const engine = await SqliteEngine.open<KvDB & ItemsDB>(betterSqliteConnection(new Database(':memory:')), {
      kv: { indexes: {} },
      items: { keyPath: 'id', indexes: { by_color: { keyPath: 'color' } } },
    });
    await expect(engine.write(['kv'], async (tx) => (tx as any).store('items').put({ id: 'a' }))).rejects.toMatchObject(
      {
        name: 'NotFoundError',
      },
    );
  });
});
