// @vitest-environment node
import { countTransactions } from '../store/count-transactions';
import { describe, expect, it } from 'vitest';
import type { Announcement } from '../../../src/platform/core/announcements';
import { createGatewayHarness } from './gateway-harness';
import { findResumePoint } from '../../../src/gateway/resume-marks';

describe('Fan-out: one batch of the event log stores the resume points of every session it numbered for as one record', () => {
  it("a lobby message to N sessions costs one transaction and one record, which holds each session's resume point for what it was sent", async () => {
    const h = await createGatewayHarness();
    const lobby = (await h.api.put('/api/v10/lobbies', { secret: 'fan-out' }, h.world.aliceAuth)).body;
    await h.api.put('/api/v10/lobbies', { secret: 'fan-out' }, h.world.bobAuth);
    const clients = [];
    for (let i = 0; i < 6; i++) clients.push(await h.identify(h.world.aliceAuth), await h.identify(h.world.bobAuth));
    await h.flush();
    const scopes: string[][] = [];
    const puts: number[] = [];
    h.ctx.db.onCommit(({ stores, changes }) => {
      scopes.push([...stores]);
      if (changes.has('gateway_resume_batches')) puts.push(changes.get('gateway_resume_batches')!.length);
    });

    await h.api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'to all' }, h.world.aliceAuth);
    await h.flush();

    expect(scopes.filter((s) => s.includes('gateway_resume_batches'))).toEqual([
      ['gateway_sessions', 'gateway_resume_batches'],
    ]);
    expect(puts, 'one put for the 12 sessions').toEqual([1]);
    for (const client of clients) {
      const sent = client.dispatches('LOBBY_MESSAGE_CREATE');
      expect(sent.map((p) => p.d.content)).toEqual(['to all']);
      const { mark } = await findResumePoint(h.ctx.db, client.ready.session_id, sent[0].s!);
      expect(mark).toMatchObject({ after: expect.any(Number), skip: 0 });
    }
  });
});

describe('Fan-out from announcements: a write hands its events to the gateway with the announcement', () => {
  it('dispatches an announced lobby message without reading the log back', async () => {
    const h = await createGatewayHarness();
    const lobby = (await h.api.put('/api/v10/lobbies', { secret: 'tail' }, h.world.aliceAuth)).body;
    await h.api.put('/api/v10/lobbies', { secret: 'tail' }, h.world.bobAuth);
    const bob = await h.identify(h.world.bobAuth);
    await h.api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'first' }, h.world.aliceAuth);
    await bob.waitFor((p) => p.d?.content === 'first');
    const reads = countTransactions(h.ctx.db, { store: 'events', kinds: ['read'] });

    await h.api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'second' }, h.world.aliceAuth);
    await bob.waitFor((p) => p.d?.content === 'second');
    expect(reads()).toBe(0);
  });

  it('still dispatches every event once and in order when announcements arrive out of order, or without their events', async () => {
    const h = await createGatewayHarness();
    const lobby = (await h.api.put('/api/v10/lobbies', { secret: 'order' }, h.world.aliceAuth)).body;
    await h.api.put('/api/v10/lobbies', { secret: 'order' }, h.world.bobAuth);
    const bob = await h.identify(h.world.bobAuth);
    await h.flush();
    const before = h.api.announcements.length;
    for (const content of ['a', 'b', 'c', 'd'])
      await h.api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content }, h.world.aliceAuth);
    const [a, b, c, d] = h.api.announcements.splice(before) as Extract<Announcement, { type: 'events' }>[];
    // c arrives first, then a large-write form of d (no events), then a and b late.
    await h.gateway.announce(c);
    await h.gateway.announce({ ...d, events: undefined });
    await h.gateway.announce(a);
    await h.gateway.announce(b);
    const contents = bob.dispatches('LOBBY_MESSAGE_CREATE').map((p) => p.d.content);
    expect(contents).toEqual(['a', 'b', 'c', 'd']);
  });
});
