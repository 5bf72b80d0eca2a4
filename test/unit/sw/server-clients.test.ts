// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { FRAME_CHOICE_MAX_AGE_MS, ServerClients } from '../../../sw/server-clients';
import { answerServerJoin } from '../../../sw/server-join';

const A = { url: 'http://127.0.0.1:8787', gateway_url: 'ws://127.0.0.1:8787/gateway' };
const B = { url: 'http://127.0.0.1:9000/s/team-b', gateway_url: 'ws://127.0.0.1:9000/s/team-b/gateway' };

let dbCounter = 0;
const freshDb = () => `platformpp-servers-test-${process.pid}-${++dbCounter}`;

describe("the service worker's record of which server each client joined", () => {
  it('is per client: two tabs on two servers, a third on the local sandbox (null)', async () => {
    const servers = new ServerClients(freshDb());
    await servers.join('tab-1', A);
    await servers.join('tab-2', B);
    expect([await servers.serverOf('tab-1'), await servers.serverOf('tab-2'), await servers.serverOf('tab-3')]).toEqual(
      [A, B, null],
    );
    expect(await servers.serverOf('')).toBeNull();
  });

  it('survives the worker stopping: a new start reads the choices from its database', async () => {
    const name = freshDb();
    await new ServerClients(name).join('tab-1', A);
    expect(await new ServerClients(name).serverOf('tab-1')).toEqual(A);
  });

  it("an activity frame the page names uses the page's server from its navigation on", async () => {
    const name = freshDb();
    const servers = new ServerClients(name);
    await servers.join('page', B);
    await servers.adoptFrame('frame-1', 'page');
    // The frame's navigation may reach a worker that started again meanwhile.
    const restarted = new ServerClients(name);
    expect(await restarted.enterFrame('frame-client', 'frame-1')).toEqual(B);
    expect(await restarted.serverOf('frame-client')).toEqual(B);
    // A frame of a page on the local sandbox, or one nobody named, stays local.
    await servers.adoptFrame('frame-2', 'local-page');
    expect(await restarted.enterFrame('frame-client-2', 'frame-2')).toBeNull();
    expect(await restarted.enterFrame('frame-client-3', 'unknown')).toBeNull();
  });

  it('forgets the choices of clients that are gone, and frame choices older than a week', async () => {
    let now = 1_000_000;
    const name = freshDb();
    const servers = new ServerClients(name, () => now);
    await servers.join('closed-tab', A);
    await servers.join('page', A);
    await servers.adoptFrame('old-frame', 'page');
    now += FRAME_CHOICE_MAX_AGE_MS + 1;
    await servers.join('new-tab', B, new Set(['page', 'new-tab']));
    const fresh = new ServerClients(name);
    expect([await fresh.serverOf('closed-tab'), await fresh.serverOf('page')]).toEqual([null, A]);
    expect(await fresh.enterFrame('frame-client', 'old-frame')).toBeNull();
  });

  it('answers the server-join wire: a join checked first, a failed check an answer naming why, and what a client uses', async () => {
    const servers = new ServerClients(freshDb());
    const context = { servers, liveClients: async () => new Set(['page']), probe: async () => A };
    expect(await answerServerJoin({ type: 'platformpp:join-server', server: A.url }, 'page', context)).toEqual({
      ok: true,
      server: A,
    });
    expect(await answerServerJoin({ type: 'platformpp:which-server' }, 'page', context)).toEqual({
      ok: true,
      server: A,
    });
    expect(await answerServerJoin({ type: 'platformpp:frame-server', frame_id: 'f' }, 'page', context)).toEqual({
      ok: true,
      server: A,
    });
    const refusing = {
      ...context,
      probe: () => Promise.reject(new Error('the platform server x could not be reached')),
    };
    expect(await answerServerJoin({ type: 'platformpp:join-server', server: 'http://x' }, 'other', refusing)).toEqual({
      ok: false,
      error: 'the platform server x could not be reached',
    });
    expect(await servers.serverOf('other')).toBeNull();
    // Joining the local sandbox again.
    await answerServerJoin({ type: 'platformpp:join-server', server: null }, 'page', context);
    expect(await servers.serverOf('page')).toBeNull();
  });
});
