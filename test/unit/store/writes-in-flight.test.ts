// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { openTestStorage } from './test-storage';

let counter = 0;
const storage = () => openTestStorage(`writes-in-flight-${process.pid}-${counter++}`);

describe('the storage knows which of its writes are in flight (a cache may answer for a write only when none is)', () => {
  it('a write counts from the moment it begins until its commit listeners ran', async () => {
    const db = await storage();
    const heard: boolean[] = [];
    db.onCommit(() => heard.push(db.isWriting(['lobbies'])));
    const writing = db.write(['lobbies'], (tx) => tx.store('lobbies').delete('none'));
    expect(db.isWriting(['lobbies']), 'counted before the engine ran its body').toBe(true);
    expect(db.isWriting(['lobby_members']), 'other stores are not').toBe(false);
    await writing;
    expect(heard, 'the listeners ran while it still counted').toEqual([true]);
    expect(db.isWriting(['lobbies'])).toBe(false);
  });

  it('a write that fails stops counting', async () => {
    const db = await storage();
    const failing = db.write(['lobbies'], async () => {
      throw new Error('refused');
    });
    expect(db.isWriting(['lobbies'])).toBe(true);
    await expect(failing).rejects.toThrow('refused');
    expect(db.isWriting(['lobbies'])).toBe(false);
  });

  it('a write counts only for the stores it names as changed, not those it only reads', async () => {
    const db = await storage();
    const writing = db.write(['lobbies', 'lobby_messages'], (tx) => tx.store('lobby_messages').delete(['x', 'y']), [
      'lobby_messages',
    ]);
    expect(db.isWriting(['lobbies'])).toBe(false);
    expect(db.isWriting(['lobby_messages'])).toBe(true);
    await writing;
    expect(db.isWriting(['lobby_messages'])).toBe(false);
  });
});
