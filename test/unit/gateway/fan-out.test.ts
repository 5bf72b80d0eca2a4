// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { watchWrites } from '../../../src/store/write-watch';
import { createGatewayHarness } from './gateway-harness';

describe('Fan-out: one batch of the event log persists every session it numbered for in one transaction', () => {
  it('a lobby message to N sessions costs one gateway_sessions transaction, and each stored session claims what it was sent', async () => {
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

    expect(scopes.filter((s) => s.includes('gateway_sessions'))).toEqual([['gateway_sessions']]);
    for (const client of clients) {
      const sent = client.dispatches('LOBBY_MESSAGE_CREATE');
      expect(sent.map((p) => p.d.content)).toEqual(['to all']);
      const stored = await h.ctx.db.get('gateway_sessions', client.ready.session_id);
      expect(stored!.seq).toBe(sent[0].s);
      expect(stored!.marks.at(-1)![0]).toBe(sent[0].s);
    }
  });
});
