// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ActivityInstanceRegistry, type InstanceSnapshot } from '../../../src/rpc/instances';
import { participant } from './rpc-harness';
import { mirrorInstance } from '../../../src/platform/activities/activity-instances';
import { createTestClient, createWorld } from '../app-harness';

const alice = participant({ id: '1', username: 'alice' });
const bob = participant({ id: '2', username: 'bob' });
const join = (frame_id: string, user = alice, channel_id = 'c1', application_id = 'a1') => ({
  application_id,
  channel_id,
  guild_id: 'g1',
  frame_id,
  user,
});

describe('activity instance registry', () => {
  it('frames of the same application and channel share an instance', () => {
    let n = 0;
    const registry = new ActivityInstanceRegistry(() => `i-${++n}`);
    const a = registry.join(join('f1'));
    const b = registry.join(join('f2', bob));
    expect(b.instance_id).toBe(a.instance_id);
    expect(b.participants.map((p) => p.id)).toEqual(['1', '2']);
  });

  it('another channel or another application is another instance', () => {
    const registry = new ActivityInstanceRegistry();
    const a = registry.join(join('f1'));
    expect(registry.join(join('f2', alice, 'c2')).instance_id).not.toBe(a.instance_id);
    expect(registry.join(join('f3', alice, 'c1', 'a2')).instance_id).not.toBe(a.instance_id);
    expect(registry.list()).toHaveLength(3);
  });

  it('tells the other frames when participants join and leave, not the frame that joins', () => {
    const registry = new ActivityInstanceRegistry();
    const seenByFirst: InstanceSnapshot[] = [];
    const seenBySecond: InstanceSnapshot[] = [];
    registry.join(join('f1'), (s) => seenByFirst.push(s));
    registry.join(join('f2', bob), (s) => seenBySecond.push(s));
    expect(seenByFirst.map((s) => s.participants.map((p) => p.username))).toEqual([['alice', 'bob']]);
    expect(seenBySecond).toEqual([]);
    registry.leave('f2');
    expect(seenByFirst.at(-1)!.participants.map((p) => p.username)).toEqual(['alice']);
  });

  it('counts a user once: a second frame of the same user changes nothing', () => {
    const registry = new ActivityInstanceRegistry();
    const seen: InstanceSnapshot[] = [];
    registry.join(join('f1'), (s) => seen.push(s));
    registry.join(join('f2'));
    registry.leave('f2');
    expect(seen).toEqual([]);
    expect(registry.forFrame('f1')!.participants).toHaveLength(1);
  });

  it('the instance ends with its last frame; the next frame starts a new one', () => {
    const registry = new ActivityInstanceRegistry();
    const first = registry.join(join('f1'));
    expect(registry.leave('f1')).toBeNull();
    expect(registry.find('a1', 'c1')).toBeNull();
    expect(registry.join(join('f2')).instance_id).not.toBe(first.instance_id);
  });

  it('leaveOwner removes every frame of a connection that went away', () => {
    const registry = new ActivityInstanceRegistry();
    registry.join({ ...join('f1'), owner: 'page-1' });
    registry.join({ ...join('f2', bob), owner: 'page-2' });
    registry.join({ ...join('f3', bob, 'c2'), owner: 'page-2' });
    registry.leaveOwner('page-2');
    expect(registry.list().map((i) => i.participants.map((p) => p.id))).toEqual([['1']]);
  });

  it('a listener that throws does not keep the others uninformed', () => {
    const registry = new ActivityInstanceRegistry();
    const seen: string[] = [];
    registry.join(join('f1'), () => {
      throw new Error('page gone');
    });
    registry.join(join('f2', bob), () => seen.push('f2'));
    registry.join(join('f3', participant({ id: '3', username: 'carol' })));
    expect(seen).toEqual(['f2']);
  });

  it('joining again with the same frame id replaces the earlier membership', () => {
    const registry = new ActivityInstanceRegistry();
    registry.join(join('f1'));
    registry.join(join('f1', bob));
    expect(registry.forFrame('f1')!.participants.map((p) => p.id)).toEqual(['2']);
  });

  it('after a hub restart, a rejoin with a known instance id keeps it, and the next frames join it', () => {
    // The new hub's registry has never seen the instance: the frames bring its id back.
    const registry = new ActivityInstanceRegistry(() => 'i-fresh');
    const seen: InstanceSnapshot[] = [];
    expect(registry.join({ ...join('f1'), instance_id: 'i-before' }, (s) => seen.push(s)).instance_id).toBe('i-before');
    expect(registry.join({ ...join('f2', bob), instance_id: 'i-before' }).instance_id).toBe('i-before');
    expect(seen.map((s) => s.participants.map((p) => p.username))).toEqual([['alice', 'bob']]);
    expect(registry.join(join('f3')).instance_id).toBe('i-before');
  });

  it("a rejoin joins the running instance when one runs already, and never takes another instance's id", () => {
    let n = 0;
    const registry = new ActivityInstanceRegistry(() => `i-${++n}`);
    const running = registry.join(join('f1'));
    expect(registry.join({ ...join('f2', bob), instance_id: 'i-old' }).instance_id).toBe(running.instance_id);
    // The id of the instance in channel c1 cannot become the id of channel c2's.
    expect(registry.join({ ...join('f3', alice, 'c2'), instance_id: running.instance_id }).instance_id).not.toBe(
      running.instance_id,
    );
  });

  it('tells whoever watches pages the owner of every join', () => {
    const watched: string[] = [];
    const registry = new ActivityInstanceRegistry(undefined, (owner) => watched.push(owner));
    registry.join({ ...join('f1'), owner: 'page-1' });
    registry.join(join('f2', bob));
    expect(watched).toEqual(['page-1']);
  });

  it("a frame leaving is told with whether it was its user's last frame of the application (the presence it set goes then)", () => {
    const left: [string, string, string, boolean][] = [];
    const registry = new ActivityInstanceRegistry(undefined, undefined, (l) =>
      left.push([l.frame_id, l.user_id, l.application_id, l.last]),
    );
    registry.join({ ...join('f1'), owner: 'page-1' });
    registry.join(join('f2', alice, 'c2'));
    registry.join(join('f3', bob));
    registry.leave('f1');
    registry.leaveOwner('page-2');
    registry.join(join('f1', alice, 'c2'));
    registry.leave('f2');
    registry.leave('f3');
    // Joining again with its frame id replaces a membership: that is no leaving.
    registry.join(join('f1', alice, 'c3'));
    expect(left).toEqual([
      ['f1', '1', 'a1', false],
      ['f2', '1', 'a1', false],
      ['f3', '2', 'a1', true],
    ]);
    registry.leaveOwner('unknown');
    registry.leave('f1');
    expect(left.at(-1)).toEqual(['f1', '1', 'a1', true]);
  });
});

describe('the registry mirrored into the store (the HTTP API answers for the hub’s instances)', () => {
  it('every change of participants and every end is heard, in order; a frame of a user already in changes nothing', () => {
    const heard: [string[], boolean][] = [];
    const registry = new ActivityInstanceRegistry(undefined, undefined, undefined, (s, ended) =>
      heard.push([s.participants.map((p) => p.id), ended]),
    );
    registry.join(join('f1'));
    registry.join(join('f2', bob));
    registry.join(join('f3'));
    registry.leave('f2');
    registry.leave('f1');
    registry.leave('f3');
    expect(heard).toEqual([
      [['1'], false],
      [['1', '2'], false],
      [['1'], false],
      [[], true],
    ]);
  });

  it('mirrorInstance stores what GET /applications/{id}/activity-instances/{instance_id} reads, keeps its launch_id, and deletes it once ended', async () => {
    const client = await createTestClient();
    const w = await createWorld(client);
    const ctx = client.app.ctx;
    const view = { instance_id: 'i-hub', application_id: w.application.id, channel_id: '11', guild_id: null };
    const path = `/api/v10/applications/${w.application.id}/activity-instances/i-hub`;
    await mirrorInstance(ctx, { ...view, participants: [participant({ id: w.alice.id, username: 'alice' })] }, false);
    const first = await client.get(path, w.botAuth);
    expect(first.body.users).toEqual([w.alice.id]);
    await mirrorInstance(
      ctx,
      {
        ...view,
        participants: [
          participant({ id: w.alice.id, username: 'alice' }),
          participant({ id: w.bob.id, username: 'bob' }),
        ],
      },
      false,
    );
    const second = await client.get(path, w.botAuth);
    expect(second.body.users).toEqual([w.alice.id, w.bob.id]);
    expect(second.body.launch_id).toBe(first.body.launch_id);
    await mirrorInstance(ctx, { ...view, participants: [] }, true);
    expect((await client.get(path, w.botAuth)).status).toBe(404);
  });
});
