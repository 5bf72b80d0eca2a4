// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ActivityInstanceRegistry, type InstanceSnapshot } from '../../../src/rpc/instances';
import { PageOwners } from '../../../src/rpc/page-owners';
import { participant } from './rpc-harness';

/** Pages that die when the test says so, as the hub is granted a dead page's lock. */
function fakePages() {
  const deaths = new Map<string, () => void>();
  const asked: string[] = [];
  const gone = (owner: string) => {
    asked.push(owner);
    return new Promise<void>((resolve) => deaths.set(owner, resolve));
  };
  const kill = async (owner: string) => {
    deaths.get(owner)?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { gone, kill, asked };
}

const alice = participant({ id: '1', username: 'alice' });
const bob = participant({ id: '2', username: 'bob' });

describe('pages the hub serves (Web Locks: a page that dies leaves)', () => {
  it('a page that dies without leaving leaves its activity instance; the others hear of it', async () => {
    const pages = fakePages();
    const owners = new PageOwners(pages.gone, (owner) => registry.leaveOwner(owner));
    const registry = new ActivityInstanceRegistry(undefined, (owner) => owners.watch(owner));
    const seen: InstanceSnapshot[] = [];
    registry.join(
      { application_id: 'a', channel_id: 'c', guild_id: 'g', frame_id: 'f1', user: alice, owner: 'page-1' },
      (s) => seen.push(s),
    );
    registry.join({ application_id: 'a', channel_id: 'c', guild_id: 'g', frame_id: 'f2', user: bob, owner: 'page-2' });
    await pages.kill('page-2');
    expect(seen.map((s) => s.participants.map((p) => p.username))).toEqual([['alice', 'bob'], ['alice']]);
    expect(registry.forFrame('f2')).toBeNull();
  });

  it('watches each page once at a time, and again after it went (a page back from the back/forward cache)', async () => {
    const pages = fakePages();
    const owners = new PageOwners(pages.gone);
    owners.watch('page-1');
    owners.watch('page-1');
    expect(pages.asked).toEqual(['page-1']);
    await pages.kill('page-1');
    expect(owners.watching('page-1')).toBe(false);
    owners.watch('page-1');
    expect(pages.asked).toEqual(['page-1', 'page-1']);
  });

  it('lets go of what a dead page held (its gateway connections), not what was released before', async () => {
    const pages = fakePages();
    const owners = new PageOwners(pages.gone);
    const closed: string[] = [];
    owners.hold('page-1', () => closed.push('socket-1'));
    const release = owners.hold('page-1', () => closed.push('socket-2'));
    owners.hold('page-2', () => closed.push('socket-3'));
    release();
    await pages.kill('page-1');
    expect(closed).toEqual(['socket-1']);
  });

  it('one holding that throws does not keep the others', async () => {
    const pages = fakePages();
    const owners = new PageOwners(pages.gone);
    const closed: string[] = [];
    owners.hold('page-1', () => {
      throw new Error('port already gone');
    });
    owners.hold('page-1', () => closed.push('socket-2'));
    await pages.kill('page-1');
    expect(closed).toEqual(['socket-2']);
  });

  it('when the lock cannot be asked for, the page is watched again on its next call', async () => {
    let calls = 0;
    const owners = new PageOwners(() =>
      ++calls === 1 ? Promise.reject(new Error('no locks')) : new Promise(() => undefined),
    );
    owners.watch('page-1');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(owners.watching('page-1')).toBe(false);
    owners.watch('page-1');
    expect(calls).toBe(2);
  });
});
