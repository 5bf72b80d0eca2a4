// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { watchWrites } from '../../../src/store/write-watch';
import { createGatewayHarness } from './gateway-harness';

describe('Fan-out: one batch of the event log stores the resume points of every session it numbered for in one transaction', () => {
  it('a lobby message to N sessions costs one transaction, which stores each session\'s resume point for what it was sent', async () => {
    const h = await createGatewayHarness();
    const lobby = (await h.api.put('/api/v10/lobbies', { secret: 'fan-out' }, h.world.aliceAuth)).body;
    await h.api.put('/api/v10/lobbies', { secret: 'fan-out' }, h.world.bobAuth);
    const clients = [];
    for (let i = 0; i < 6; i++) clients.push(await h.identify(h.world.aliceAuth), await h.identify(h.world.bobAuth));
    await h.flush();
    const scopes: string[][] = [];
    watchWrites(h.ctx.db, (stores) => scopes.push(stores));

    await h.api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'to all' }, h.world.aliceAuth);
    await h.flush();

    expect(scopes.filter((s) => s.includes('gateway_resume_marks'))).toEqual([['gateway_sessions', 'gateway_resume_marks']]);
    for (const client of clients) {
      const sent = client.dispatches('LOBBY_MESSAGE_CREATE');
      expect(sent.map((p) => p.d.content)).toEqual(['to all']);
      const mark = await h.ctx.db.get('gateway_resume_marks', [client.ready.session_id, sent[0].s!]);
      expect(mark).toMatchObject({ after: expect.any(Number), skip: 0 });
    }
  });
});
