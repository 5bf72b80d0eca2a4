// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/sdk/client';
import { LoggingSeverity } from '../../../src/sdk/logger';
import { AuthorizationTokenType } from '../../../src/sdk/types';
import { FakeSocket, ManualTimers } from './fake-socket';

const ME = '42';
const lobby = (id: string, members: string[], metadata: Record<string, string> | null = null) => ({
  id,
  application_id: '1',
  metadata,
  members: members.map((m) => ({ id: m, metadata: null, flags: 0 })),
});

/** A Ready client on a scripted socket; `/oauth2/@me` is the only HTTP it needs. */
async function readyClient() {
  const sockets: FakeSocket[] = [];
  const client = new Client({
    baseUrl: 'http://platform.test',
    fetch: async () => new Response(JSON.stringify({ application: { id: '1' } }), { status: 200 }),
    socketFactory: (url) => sockets[sockets.push(new FakeSocket(url)) - 1],
    timers: new ManualTimers(),
    build: 'debug',
  });
  await client.updateToken(AuthorizationTokenType.Bearer, 't'.repeat(40));
  const connected = client.connect();
  for (let i = 0; i < 50 && sockets.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  const socket = sockets[0];
  socket.hello();
  let seq = 1;
  socket.dispatch('READY', { session_id: 's', user: { id: ME, username: 'me' } }, seq);
  await connected;
  return { client, dispatch: (t: string, d: unknown) => socket.dispatch(t, d, ++seq) };
}

describe('Client events: gateway dispatches become the typed callbacks of the platform SDK', () => {
  it('LOBBY_CREATE, LOBBY_UPDATE and LOBBY_DELETE call the lobby callbacks with the id and keep getLobbyHandle current', async () => {
    const { client, dispatch } = await readyClient();
    const calls: unknown[][] = [];
    client.setLobbyCreatedCallback((id, l) => calls.push(['created', id, l.metadata]));
    client.setLobbyUpdatedCallback((id, l) => calls.push(['updated', id, l.metadata]));
    client.setLobbyDeletedCallback((id) => calls.push(['deleted', id]));
    dispatch('LOBBY_CREATE', lobby('10', [ME]));
    expect(client.getLobbyHandle('10')?.members.map((m) => m.id)).toEqual([ME]);
    dispatch('LOBBY_UPDATE', lobby('10', [ME], { round: '2' }));
    expect(client.getLobbyHandle('10')?.metadata).toEqual({ round: '2' });
    expect(client.getLobbyIds()).toEqual(['10']);
    dispatch('LOBBY_DELETE', lobby('10', [ME]));
    expect(client.getLobbyHandle('10')).toBeUndefined();
    expect(calls).toEqual([
      ['created', '10', null],
      ['updated', '10', { round: '2' }],
      ['deleted', '10'],
    ]);
  });

  it('member events call (lobbyId, memberId, member); the current user removed from a lobby is a lobby deleted for this client', async () => {
    const { client, dispatch } = await readyClient();
    const calls: string[] = [];
    client.setLobbyMemberAddedCallback((l, m) => calls.push(`added ${l} ${m}`));
    client.setLobbyMemberUpdatedCallback((l, m, member) => calls.push(`updated ${l} ${m} ${member.metadata?.team}`));
    client.setLobbyMemberRemovedCallback((l, m) => calls.push(`removed ${l} ${m}`));
    client.setLobbyDeletedCallback((l) => calls.push(`deleted ${l}`));
    dispatch('LOBBY_CREATE', lobby('20', [ME]));
    dispatch('LOBBY_MEMBER_ADD', { lobby_id: '20', member: { id: '7', metadata: null, flags: 0 } });
    dispatch('LOBBY_MEMBER_UPDATE', { lobby_id: '20', member: { id: '7', metadata: { team: 'red' }, flags: 0 } });
    expect(client.getLobbyHandle('20')?.members.map((m) => m.id)).toEqual([ME, '7']);
    dispatch('LOBBY_MEMBER_REMOVE', { lobby_id: '20', member: { id: '7', metadata: null, flags: 0 } });
    dispatch('LOBBY_MEMBER_REMOVE', { lobby_id: '20', member: { id: ME, metadata: null, flags: 0 } });
    expect(calls).toEqual(['added 20 7', 'updated 20 7 red', 'removed 20 7', `removed 20 ${ME}`, 'deleted 20']);
    expect(client.getLobbyHandle('20')).toBeUndefined();
  });

  it('LOBBY_MESSAGE_CREATE calls the message callback; PRESENCE_UPDATE the user callback; a callback set to null is removed', async () => {
    const { client, dispatch } = await readyClient();
    const messages: string[] = [];
    const users: string[] = [];
    client.setMessageCreatedCallback((id, m) => messages.push(`${id}:${m.content}`));
    client.setUserUpdatedCallback((id, presence) => users.push(`${id}:${presence.status}`));
    dispatch('LOBBY_MESSAGE_CREATE', { id: '99', lobby_id: '20', content: 'hi', author: { id: '7' } });
    dispatch('PRESENCE_UPDATE', { user: { id: ME }, status: 'online', activities: [] });
    client.setMessageCreatedCallback(null);
    dispatch('LOBBY_MESSAGE_CREATE', { id: '100', lobby_id: '20', content: 'unheard', author: { id: '7' } });
    expect(messages).toEqual(['99:hi']);
    expect(users).toEqual([`${ME}:online`]);
  });

  it('a throwing callback is logged as an Error and does not stop later events', async () => {
    const { client, dispatch } = await readyClient();
    const errors: string[] = [];
    client.addLogCallback((line) => errors.push(line), LoggingSeverity.Error);
    let count = 0;
    client.setMessageCreatedCallback(() => {
      count++;
      throw new Error('game bug');
    });
    dispatch('LOBBY_MESSAGE_CREATE', { id: '1', content: 'a' });
    dispatch('LOBBY_MESSAGE_CREATE', { id: '2', content: 'b' });
    expect(count).toBe(2);
    expect(errors).toEqual([
      'The messageCreated callback threw: game bug',
      'The messageCreated callback threw: game bug',
    ]);
  });
});
