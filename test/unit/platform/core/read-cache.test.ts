// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { type Change, changeTouches, compareKeys, querySelectsPrefix } from '../../../../src/store/changes';
import { type Key, keyRange } from '../../../../src/store/port';
import { ReadCache } from '../../../../src/platform/core/read-cache';

const put = (key: Key, value: unknown = {}): Change => ({ kind: 'put', key, value });
const changes = (store: string, ...list: Change[]) => new Map([[store, list]]);

describe('the read cache drops exactly what a commit changed', () => {
  it('a put to another record of the same store keeps the entry; a put to its record drops it', () => {
    const cache = new ReadCache();
    cache.keep('user:a', cache.generation, { value: 'a', bytes: 10, dependencies: [{ store: 'users', key: 'a' }] });
    cache.apply(changes('users', put('b')));
    expect(cache.get('user:a')).toBe('a');
    cache.apply(changes('users', put('a')));
    expect(cache.get('user:a')).toBeUndefined();
  });

  it('a prefix dependency ([lobby_id]) is touched by its keys and by ranges over them only', () => {
    const messages = (query: Parameters<typeof querySelectsPrefix>[0]) => querySelectsPrefix(query, ['5']);
    expect(changeTouches(put(['5', 'x']), ['5'], true)).toBe(true);
    expect(changeTouches(put(['6', 'x']), ['5'], true)).toBe(false);
    expect(messages(keyRange.bound(['5', ''], ['5', '\uffff']))).toBe(true);
    expect(messages(keyRange.bound(['4', ''], ['4', '\uffff']))).toBe(false);
    expect(messages(keyRange.bound(['6', ''], ['6', '\uffff']))).toBe(false);
    expect(messages(keyRange.lowerBound(['3']))).toBe(true);
    expect(messages(['5', 'k'])).toBe(true);
    expect(changeTouches({ kind: 'clear' }, ['5'], true)).toBe(true);
  });

  it('orders keys as the port does: numbers, strings, arrays; a prefix first', () => {
    const sorted = [-Infinity, 1, 2, '', 'a', 'b', [], ['a'], ['a', 1], ['a', 'b'], ['b']];
    const shuffled = [...sorted].reverse();
    expect(shuffled.sort(compareKeys)).toEqual(sorted);
  });

  it('a read that overlapped a commit to a store it depends on is not kept; one to another store is', () => {
    const cache = new ReadCache();
    const before = cache.generation;
    cache.apply(changes('lobby_messages', put(['1', 'k'])));
    const dependencies = [{ store: 'lobby_messages', key: ['2'], prefix: true }];
    expect(cache.keep('lobby:2', before, { value: 1, bytes: 1, dependencies })).toBe(false);
    const later = cache.generation;
    cache.apply(changes('presences', put('u')));
    expect(cache.keep('lobby:2', later, { value: 1, bytes: 1, dependencies })).toBe(true);
  });

  it('an entry that absorbs a change stays, with its new size counted', () => {
    const cache = new ReadCache();
    const list: string[] = [];
    cache.keep('list', cache.generation, {
      value: list,
      bytes: 100,
      dependencies: [{ store: 'items', key: ['l'], prefix: true }],
      absorb: (_store, change) =>
        change.kind === 'put' ? (list.push(String(change.value)), 100 + list.length) : false,
    });
    cache.apply(changes('items', put(['l', 1], 'one')));
    expect(cache.get('list')).toEqual(['one']);
    expect(cache.bytes).toBe(101);
    cache.apply(changes('items', { kind: 'delete', query: ['l', 1] }));
    expect(cache.get('list')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('holds at most maxBytes: the least recently used entries go first', () => {
    const cache = new ReadCache(300);
    const entry = (value: string) => ({ value, bytes: 100, dependencies: [{ store: 's', key: value }] });
    for (const key of ['a', 'b', 'c']) cache.keep(key, cache.generation, entry(key));
    cache.get('a');
    cache.keep('d', cache.generation, entry('d'));
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key))).toEqual(['a', undefined, 'c', 'd']);
    expect(cache.bytes).toBe(300);
    expect(cache.keep('huge', cache.generation, { ...entry('huge'), bytes: 301 })).toBe(false);
  });

  it("another context's announced stores drop every entry that depends on them; an unknown write drops all", () => {
    const cache = new ReadCache();
    cache.keep('u', cache.generation, { value: 1, bytes: 1, dependencies: [{ store: 'users', key: 'u' }] });
    cache.keep('l', cache.generation, { value: 2, bytes: 1, dependencies: [{ store: 'lobbies', key: 'l' }] });
    cache.forget(['presences']);
    expect(cache.size).toBe(2);
    cache.forget(['users']);
    expect(cache.get('u')).toBeUndefined();
    expect(cache.get('l')).toBe(2);
    const before = cache.generation;
    cache.forget();
    expect(cache.size).toBe(0);
    expect(cache.unchangedSince([], before)).toBe(false);
  });
});
