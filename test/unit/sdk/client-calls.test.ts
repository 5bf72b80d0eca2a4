// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { SDK_CALL_JOIN_TIMEOUT_MS } from '../../../src/platform/core/limits';
import { CallError, CallStatus, callStatusToString } from '../../../src/sdk/call-status';
import type { Call } from '../../../src/sdk/call';
import { ErrorType, SdkError } from '../../../src/sdk/errors';
import { AuthorizationTokenType } from '../../../src/sdk/types';
import { FakeSocket, ManualTimers } from './fake-socket';
import { createSdkHarness, type SdkHarness } from './sdk-harness';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

let h: SdkHarness;
afterEach(async () => {
  await h?.close();
});

/** Waits (real ticks) until `check` holds: HTTP answers come from the real app. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await tick();
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * A Ready client of alice whose gateway and voice sockets are fakes the test plays, in a lobby
 * alice is a member of (its HTTP check is answered by the real app).
 */
async function readyWithLobby() {
  h = await createSdkHarness();
  const lobby = (await h.api.put('/api/v10/lobbies', { secret: 'call' }, h.world.aliceAuth)).body;
  const timers = new ManualTimers();
  const mains: FakeSocket[] = [];
  const voices: FakeSocket[] = [];
  const client = h.client({
    userId: h.world.alice.id,
    timers,
    socketFactory: (url) => mains[mains.push(new FakeSocket(url)) - 1],
    voiceSocketFactory: (url) => voices[voices.push(new FakeSocket(url)) - 1],
  });
  await client.updateToken(AuthorizationTokenType.Bearer, h.world.aliceTokens.access_token);
  const connected = client.connect();
  await until(() => mains.length === 1, 'the gateway socket');
  const main = mains[0];
  main.hello();
  main.dispatch(
    'READY',
    { v: 10, session_id: 'sess-1', user: { id: h.world.alice.id, username: 'alice' }, guilds: [] },
    1,
  );
  await connected;
  let s = 1;
  /** The gateway answers the join: VOICE_STATE_UPDATE, then VOICE_SERVER_UPDATE. */
  const answerJoin = (token: string) => {
    main.dispatch(
      'VOICE_STATE_UPDATE',
      {
        guild_id: null,
        channel_id: lobby.id,
        lobby_id: lobby.id,
        user_id: h.world.alice.id,
        session_id: 'sess-1',
        self_mute: false,
        self_deaf: false,
      },
      ++s,
    );
    main.dispatch('VOICE_SERVER_UPDATE', { token, guild_id: null, channel_id: lobby.id, endpoint: '/voice' }, ++s);
  };
  /** Waits until the client has sent its `n`th Voice State Update that joins (after the lobby's HTTP check). */
  const joinSent = (n = 1) =>
    until(() => main.sent.filter((p) => p.op === 4 && p.d.channel_id !== null).length >= n, 'the Voice State Update');
  /** Lets time pass while the gateway acknowledges every heartbeat (the connection stays Ready). */
  const advance = (ms: number) => {
    for (let passed = 0; passed < ms; passed += 250) {
      timers.advance(Math.min(250, ms - passed));
      main.receive({ op: 11 });
    }
  };
  return { client, lobby, timers, main, voices, answerJoin, advance, joinSent };
}

/** Records a call's status changes by name (with error and detail when there is an error). */
function watch(call: Call): string[] {
  const seen: string[] = [];
  call.setStatusChangedCallback((status, error, detail) =>
    seen.push(`${callStatusToString(status)}${error ? `:${error}:${detail}` : ''}`),
  );
  return seen;
}

/** Plays the voice gateway up to Connected on `voice`; answers what the call sent. */
function voiceHandshake(voice: FakeSocket, seq?: number) {
  voice.open();
  voice.receive({ op: 8, d: { heartbeat_interval: 13_750 } });
  const identify = voice.sent.at(-1)!;
  voice.receive({
    op: 2,
    d: { ssrc: 7, ip: '127.0.0.1', port: 0, modes: ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'] },
  });
  const select = voice.sent.at(-1)!;
  voice.receive({
    op: 4,
    d: { mode: 'aead_aes256_gcm_rtpsize', secret_key: new Array(32).fill(0), dave_protocol_version: 1 },
    ...(seq === undefined ? {} : { seq }),
  });
  return { identify, select };
}

describe('Client calls: Call::Status from Joining to Connected over the gateway and the voice gateway', () => {
  it('startCall sends Voice State Update {guild_id: null, channel_id: lobby}, then Connecting, SignalingConnected (Ready), Connected (Session Description)', async () => {
    const { client, lobby, main, voices, answerJoin, joinSent } = await readyWithLobby();
    const call = client.startCall(lobby.id);
    const seen = watch(call);
    expect(call.getStatus()).toBe(CallStatus.Joining);
    expect([call.getChannelId(), call.getGuildId()]).toEqual([lobby.id, null]);
    await joinSent();
    expect(main.sent.find((p) => p.op === 4)).toEqual({
      op: 4,
      d: { guild_id: null, channel_id: lobby.id, self_mute: false, self_deaf: false },
    });
    answerJoin('voice-token');
    expect(call.getStatus()).toBe(CallStatus.Connecting);
    await until(() => voices.length === 1, 'the voice socket');
    expect(voices[0].url).toBe('/voice?v=8');
    const { identify, select } = voiceHandshake(voices[0]);
    expect(identify).toEqual({
      op: 0,
      d: {
        server_id: lobby.id,
        session_id: 'sess-1',
        token: 'voice-token',
        user_id: h.world.alice.id,
        max_dave_protocol_version: 1,
      },
    });
    expect(select).toEqual({
      op: 1,
      d: { protocol: 'udp', data: { address: '127.0.0.1', port: 0, mode: 'aead_aes256_gcm_rtpsize' } },
    });
    expect(seen).toEqual(['Connecting', 'SignalingConnected', 'Connected']);
    expect(client.getCall(lobby.id)).toBe(call);
  });

  it('Clients Connect and Client Disconnect keep the participants (the user included) and call the participant callback', async () => {
    const { client, lobby, voices, answerJoin, joinSent } = await readyWithLobby();
    const call = client.startCall(lobby.id);
    const changes: string[] = [];
    call.setParticipantChangedCallback((userId, added) => changes.push(`${added ? '+' : '-'}${userId}`));
    await joinSent();
    answerJoin('t');
    await until(() => voices.length === 1, 'the voice socket');
    voiceHandshake(voices[0]);
    voices[0].receive({ op: 11, d: { user_ids: [h.world.bob.id] }, seq: 1 } as never);
    expect(call.getParticipants().sort()).toEqual([h.world.alice.id, h.world.bob.id].sort());
    voices[0].receive({ op: 13, d: { user_id: h.world.bob.id }, seq: 2 } as never);
    expect(call.getParticipants()).toEqual([h.world.alice.id]);
    expect(changes).toEqual([`+${h.world.alice.id}`, `+${h.world.bob.id}`, `-${h.world.bob.id}`]);
  });

  it('a dropped voice socket (1006) goes Reconnecting and Resumes with seq_ack on a new socket; Resumed is Connected again', async () => {
    const { client, lobby, voices, timers, answerJoin, joinSent } = await readyWithLobby();
    const call = client.startCall(lobby.id);
    const seen = watch(call);
    await joinSent();
    answerJoin('t');
    await until(() => voices.length === 1, 'the voice socket');
    voiceHandshake(voices[0]);
    voices[0].receive({ op: 11, d: { user_ids: [h.world.bob.id] }, seq: 5 } as never);
    voices[0].drop(1006);
    expect(seen.at(-1)).toBe(`Reconnecting:${CallError.SignalingUnexpectedClose}:1006`);
    timers.advance(0);
    await until(() => voices.length === 2, 'a new voice socket');
    voices[1].open();
    voices[1].receive({ op: 8, d: { heartbeat_interval: 13_750 } });
    expect(voices[1].sent[0]).toEqual({
      op: 7,
      d: { server_id: lobby.id, session_id: 'sess-1', token: 't', seq_ack: 5 },
    });
    voices[1].receive({ op: 9, d: null });
    expect(call.getStatus()).toBe(CallStatus.Connected);
  });

  it('a call not Connected within the join timeout ends Disconnected (JoinTimeout)', async () => {
    const { client, lobby, advance } = await readyWithLobby();
    const call = client.startCall(lobby.id);
    const seen = watch(call);
    advance(SDK_CALL_JOIN_TIMEOUT_MS);
    expect(seen).toEqual([`Disconnected:${CallError.JoinTimeout}:0`]);
  });

  it('a lobby the user is not a member of ends Disconnected (Forbidden, the HTTP status) without a Voice State Update', async () => {
    const { client, main } = await readyWithLobby();
    const other = (await h.api.put('/api/v10/lobbies', { secret: 'bobs' }, h.world.bobAuth)).body;
    const call = client.startCall(other.id);
    const seen = watch(call);
    await until(() => call.getStatus() === CallStatus.Disconnected, 'the refusal');
    expect(seen[0]).toMatch(new RegExp(`^Disconnected:${CallError.Forbidden}:4\\d\\d$`));
    expect(main.sent.some((p) => p.op === 4)).toBe(false);
  });

  it('startCall needs a Ready client and a lobby id', async () => {
    h = await createSdkHarness();
    const client = h.client({ userId: h.world.alice.id });
    expect(() => client.startCall('not-an-id')).toThrow(SdkError);
    const error = (() => {
      try {
        client.startCall('123');
      } catch (e) {
        return e as SdkError;
      }
    })();
    expect(error?.type).toBe(ErrorType.ClientNotReady);
  });
});

describe('a call in the Disconnected state is recovered by ending it and joining again (spec: Other named states)', () => {
  it('a Disconnected call stays Disconnected (startCall answers the same call, nothing is sent) until endCall + startCall, which joins anew to Connected', async () => {
    const { client, lobby, main, voices, advance, answerJoin, joinSent } = await readyWithLobby();
    const call = client.startCall(lobby.id);
    const seen = watch(call);
    await joinSent();
    answerJoin('first');
    await until(() => voices.length === 1, 'the voice socket');
    voiceHandshake(voices[0]);
    // The voice gateway disconnects the user (4014): the call is Disconnected.
    voices[0].drop(4014);
    expect(seen.at(-1)).toBe(`Disconnected:${CallError.SignalingUnexpectedClose}:4014`);
    // It stays so: no timer revives it, a new startCall answers the same call and sends nothing.
    advance(SDK_CALL_JOIN_TIMEOUT_MS * 4);
    const joinsBefore = main.sent.filter((p) => p.op === 4).length;
    expect(client.startCall(lobby.id)).toBe(call);
    await tick();
    expect(call.getStatus()).toBe(CallStatus.Disconnected);
    expect(main.sent.filter((p) => p.op === 4)).toHaveLength(joinsBefore);
    expect(voices).toHaveLength(1);
    // Recovery: end it (the user leaves on the gateway) and join again.
    await client.endCall(lobby.id);
    expect(main.sent.filter((p) => p.op === 4).at(-1)).toEqual({
      op: 4,
      d: { guild_id: null, channel_id: null, self_mute: false, self_deaf: false },
    });
    expect(client.getCall(lobby.id)).toBeUndefined();
    const again = client.startCall(lobby.id);
    expect(again).not.toBe(call);
    expect(again.getStatus()).toBe(CallStatus.Joining);
    await joinSent(2);
    answerJoin('second');
    await until(() => voices.length === 2, 'a new voice socket');
    const { identify } = voiceHandshake(voices[1]);
    expect(identify.d.token).toBe('second');
    expect(again.getStatus()).toBe(CallStatus.Connected);
    expect(call.getStatus()).toBe(CallStatus.Disconnected);
  });

  it('endCall of a Connected call goes Disconnecting then Disconnected, closes the voice socket with 1000 and leaves on the gateway', async () => {
    const { client, lobby, main, voices, answerJoin, joinSent } = await readyWithLobby();
    const call = client.startCall(lobby.id);
    const seen = watch(call);
    await joinSent();
    answerJoin('t');
    await until(() => voices.length === 1, 'the voice socket');
    voiceHandshake(voices[0]);
    await client.endCall(lobby.id);
    expect(seen.slice(-2)).toEqual(['Disconnecting', 'Disconnected']);
    expect(voices[0].closedWith?.code).toBe(1000);
    expect(main.sent.filter((p) => p.op === 4).at(-1)?.d.channel_id).toBeNull();
  });

  it('setEngineManagedAudioSession(true) is recorded and exposed; calls work the same (they carry no audio)', async () => {
    const { client, lobby, voices, answerJoin, joinSent } = await readyWithLobby();
    client.setEngineManagedAudioSession(true);
    expect(client.getEngineManagedAudioSession()).toBe(true);
    const call = client.startCall(lobby.id);
    await joinSent();
    answerJoin('t');
    await until(() => voices.length === 1, 'the voice socket');
    voiceHandshake(voices[0]);
    expect(call.getStatus()).toBe(CallStatus.Connected);
  });
});
