// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../../src/sdk/client';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
import { ClientError, Status, statusToString } from '../../../src/sdk/status';
import { AuthorizationTokenType } from '../../../src/sdk/types';
import { FakeSocket, ManualTimers } from './fake-socket';
import { createSdkHarness, type SdkHarness } from './sdk-harness';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const READY = (sessionId = 'sess-1') => ({
  v: 10,
  session_id: sessionId,
  user: { id: '42', username: 'alice' },
  guilds: [],
});

let h: SdkHarness;
afterEach(async () => {
  await h?.close();
});

/** A client whose token check is answered by the real app and whose sockets are fakes. */
async function scripted() {
  h = await createSdkHarness();
  const tokens = (
    await h.api.post('/sandbox/tokens', {
      application_id: h.world.application.id,
      user_id: h.world.alice.id,
      scopes: 'openid sdk.social_layer',
    })
  ).body;
  const sockets: FakeSocket[] = [];
  const timers = new ManualTimers();
  const client = h.client({ socketFactory: (url) => sockets[sockets.push(new FakeSocket(url)) - 1], timers });
  const statuses: string[] = [];
  client.setStatusChangedCallback((status, error, detail) =>
    statuses.push(`${statusToString(status)}${error ? `:${error}:${detail}` : ''}`),
  );
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.access_token);
  return { client, sockets, timers, statuses, token: tokens.access_token as string };
}

/** Waits for the client to open socket number `n` (0-based). */
async function socketNumber(sockets: FakeSocket[], n: number): Promise<FakeSocket> {
  for (let i = 0; i < 100 && sockets.length <= n; i++) await tick();
  expect(sockets.length).toBeGreaterThan(n);
  return sockets[n];
}

describe('Client status: a state machine driven by the gateway socket', () => {
  it('connect goes HttpWait -> Connecting -> Connected on Hello (Identify with the Bearer token) -> Ready on READY', async () => {
    const { client, sockets, statuses, token } = await scripted();
    expect(client.getStatus()).toBe(Status.Disconnected);
    const connected = client.connect();
    const socket = await socketNumber(sockets, 0);
    expect(socket.url).toBe('/gateway?v=10&encoding=json');
    expect(statuses).toEqual(['HttpWait', 'Connecting']);
    socket.hello();
    expect(client.getStatus()).toBe(Status.Connected);
    expect(socket.sent[0]).toMatchObject({ op: 2, d: { token: `Bearer ${token}` } });
    expect(client.getCurrentUserV2()).toBeUndefined();
    socket.dispatch('READY', READY(), 1);
    await connected;
    expect(statuses).toEqual(['HttpWait', 'Connecting', 'Connected', 'Ready']);
    expect(client.getCurrentUserV2()).toMatchObject({ id: '42' });
  });

  it('an unexpected close goes Reconnecting (UnexpectedClose, the close code) and Resumes the session on a new socket', async () => {
    const { client, sockets, statuses, token, timers } = await scripted();
    const connected = client.connect();
    const first = await socketNumber(sockets, 0);
    first.hello();
    first.dispatch('READY', READY('sess-9'), 1);
    first.dispatch('LOBBY_CREATE', { id: '7', members: [] }, 2);
    await connected;
    first.drop(1006);
    expect(client.getStatus()).toBe(Status.Reconnecting);
    expect(statuses.at(-1)).toBe(`Reconnecting:${ClientError.UnexpectedClose}:1006`);
    expect(sockets).toHaveLength(1);
    timers.advance(0);
    const second = await socketNumber(sockets, 1);
    second.hello();
    expect(second.sent[0]).toEqual({ op: 6, d: { token: `Bearer ${token}`, session_id: 'sess-9', seq: 2 } });
    second.dispatch('RESUMED', {}, 3);
    expect(client.getStatus()).toBe(Status.Ready);
    expect(statuses.slice(-3)).toEqual([`Reconnecting:2:1006`, 'Connected', 'Ready']);
    // The user is still known while the session lives on.
    expect(client.getCurrentUserV2()).toMatchObject({ id: '42' });
  });

  it('disconnect goes Disconnecting -> Disconnected, closing with 1000 (the session ends) and forgetting the user', async () => {
    const { client, sockets, statuses } = await scripted();
    const connected = client.connect();
    const socket = await socketNumber(sockets, 0);
    socket.hello();
    socket.dispatch('READY', READY(), 1);
    await connected;
    await client.disconnect();
    expect(socket.closedWith).toMatchObject({ code: 1000 });
    expect(statuses.slice(-2)).toEqual(['Disconnecting', 'Disconnected']);
    expect(client.getCurrentUserV2()).toBeUndefined();
    // A new connect identifies anew (no Resume of the ended session).
    const again = client.connect();
    const next = await socketNumber(sockets, 1);
    next.hello();
    expect(next.sent[0].op).toBe(2);
    next.dispatch('READY', READY('sess-2'), 1);
    await again;
  });

  it('disconnect before Ready reports ConnectionCanceled and rejects the pending connect', async () => {
    const { client, sockets, statuses } = await scripted();
    const connected = client.connect();
    const socket = await socketNumber(sockets, 0);
    socket.hello();
    await client.disconnect();
    expect(statuses.at(-1)).toBe(`Disconnected:${ClientError.ConnectionCanceled}:0`);
    const error = await connected.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).type).toBe(ErrorType.NetworkError);
  });

  it('a close that reconnecting cannot mend (4004 authentication failed) ends in Disconnected with ConnectionFailed', async () => {
    const { client, sockets, statuses } = await scripted();
    const connected = client.connect();
    const socket = await socketNumber(sockets, 0);
    socket.hello();
    socket.drop(4004);
    expect(statuses.at(-1)).toBe(`Disconnected:${ClientError.ConnectionFailed}:4004`);
    expect(
      (
        (await connected.then(
          () => null,
          (e: unknown) => e,
        )) as SdkError
      ).message,
    ).toMatch(/close code 4004/);
    expect(sockets).toHaveLength(1);
  });

  it('Invalid Session makes the client Identify again on the same socket; Reconnect (op 7) makes it Resume on a new one', async () => {
    const { client, sockets, timers } = await scripted();
    const connected = client.connect();
    const socket = await socketNumber(sockets, 0);
    socket.hello();
    socket.receive({ op: 9, d: false });
    expect(socket.sent.map((p) => p.op)).toEqual([2, 2]);
    socket.dispatch('READY', READY('sess-3'), 1);
    await connected;
    socket.receive({ op: 7 });
    expect(socket.closedWith?.code).toBe(4000);
    expect(client.getStatus()).toBe(Status.Reconnecting);
    timers.advance(0);
    const next = await socketNumber(sockets, 1);
    next.hello();
    expect(next.sent[0]).toMatchObject({ op: 6, d: { session_id: 'sess-3', seq: 1 } });
  });

  it('heartbeats carry the last sequence number; a heartbeat left unacknowledged counts as a dead socket and the client Resumes', async () => {
    const { client, sockets, timers } = await scripted();
    const connected = client.connect();
    const socket = await socketNumber(sockets, 0);
    socket.hello();
    socket.dispatch('READY', READY(), 5);
    await connected;
    timers.advance(1000);
    expect(socket.sent.filter((p) => p.op === 1)).toEqual([{ op: 1, d: 5 }]);
    socket.receive({ op: 11 });
    timers.advance(1000);
    expect(socket.sent.filter((p) => p.op === 1)).toHaveLength(2);
    // No ACK for the second beat: the next interval closes the socket and reconnects.
    timers.advance(1000);
    expect(socket.closedWith?.code).toBe(4000);
    expect(client.getStatus()).toBe(Status.Reconnecting);
  });

  it('a socket that cannot be opened at all ends the first connect in Disconnected with ConnectionFailed', async () => {
    h = await createSdkHarness();
    const tokens = (
      await h.api.post('/sandbox/tokens', {
        application_id: h.world.application.id,
        user_id: h.world.alice.id,
        scopes: 'openid',
      })
    ).body;
    const client: Client = h.client({
      socketFactory: () => {
        throw new Error('no hub');
      },
    });
    await client.updateToken(AuthorizationTokenType.Bearer, tokens.access_token);
    const error = (await client.connect().then(
      () => null,
      (e: unknown) => e,
    )) as SdkError;
    expect(error.type).toBe(ErrorType.NetworkError);
    expect(client.getStatus()).toBe(Status.Disconnected);
  });
});

describe('Client status against the real gateway', () => {
  it('a dropped socket is resumed: events sent meanwhile arrive after the Resume, getCurrentUserV2 is undefined before Ready', async () => {
    h = await createSdkHarness();
    const tokens = (
      await h.api.post('/sandbox/tokens', {
        application_id: h.world.application.id,
        user_id: h.world.alice.id,
        scopes: 'openid sdk.social_layer',
      })
    ).body;
    const alice = h.client({ userId: h.world.alice.id });
    const statuses: Status[] = [];
    alice.setStatusChangedCallback((status) => statuses.push(status));
    await alice.updateToken(AuthorizationTokenType.Bearer, tokens.access_token);
    expect(alice.getCurrentUserV2()).toBeUndefined();
    await alice.connect();
    expect(alice.getCurrentUserV2()?.id).toBe(h.world.alice.id);
    const lobby = await alice.createOrJoinLobby('resume-me');
    const contents: string[] = [];
    alice.setMessageCreatedCallback((_id, message) => contents.push(message.content));
    h.sockets[0].serverClose(4000);
    await h.api.post(`/api/v10/lobbies/${lobby.id}/messages`, { content: 'while away' }, h.world.botAuth);
    await h.until(() => contents.includes('while away') && alice.getStatus() === Status.Ready, 'the resumed session');
    expect(statuses).toEqual([
      Status.HttpWait,
      Status.Connecting,
      Status.Connected,
      Status.Ready,
      Status.Reconnecting,
      Status.Connected,
      Status.Ready,
    ]);
    expect(h.sockets[1].sent[0].op).toBe(6);
  });
});
