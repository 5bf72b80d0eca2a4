import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFrameHeader } from '../../src/media/frame-cipher';
import { CallError, CallStatus } from '../../src/sdk/call-status';
import { registerPlatformWorker, resetSandbox } from './harness';
import {
  api,
  connected,
  createVoiceWorld,
  framesFlow,
  HEARD_DB,
  peakOver,
  SILENT_DB,
  waitFor,
} from './voice-media-harness';

/** Lets audio already in the graph and on its way (jitter buffer, analyser window) play out. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

let world: Awaited<ReturnType<typeof createVoiceWorld>> | null = null;

describe('voice calls carry sound between participants over WebRTC, every frame end-to-end encrypted', {
  timeout: 45_000,
}, () => {
  beforeAll(async () => {
    await registerPlatformWorker();
  });
  beforeEach(resetSandbox);
  afterEach(async () => {
    await world?.close();
    world = null;
    await api('DELETE', '/sandbox/clock');
  });

  it('lobby call: the receiver hears the sender (level over a threshold, sampled over time), through encrypted frames', async () => {
    world = await createVoiceWorld(['alice', 'bob']);
    const { users } = world;
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    const lobby = await alice.createOrJoinLobby('voice-room');
    await bob.createOrJoinLobby('voice-room');
    const aliceCall = alice.startCall(lobby.id);
    const bobCall = bob.startCall(lobby.id);
    await connected(aliceCall, 'alice');
    await connected(bobCall, 'bob');
    expect([aliceCall.hasAudio(), aliceCall.isEndToEndEncrypted()]).toEqual([true, true]);
    await framesFlow(bobCall, users.alice.id, 'bob to decrypt frames from alice');

    expect(await peakOver(() => bobCall.getAudioLevel(users.alice.id))).toBeGreaterThan(HEARD_DB);
    const atBob = (await bobCall.getMediaStats())!.peers[users.alice.id];
    expect(atBob).toMatchObject({ connection: 'connected', e2ee: true, framesUndecryptable: 0, framesUnencrypted: 0 });
    const atAlice = (await aliceCall.getMediaStats())!.peers[users.bob.id];
    expect(atAlice.framesEncrypted).toBeGreaterThan(0);
    expect(atAlice.framesSentPlain).toBe(0);
  });

  it('what crosses the network is ciphertext: every frame carries the E2EE trailer and the sender key in use', async () => {
    world = await createVoiceWorld(['alice', 'bob']);
    const { users } = world;
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    const lobby = await alice.createOrJoinLobby('wire');
    await bob.createOrJoinLobby('wire');
    const aliceCall = alice.startCall(lobby.id);
    const bobCall = bob.startCall(lobby.id);
    await framesFlow(bobCall, users.alice.id, 'frames from alice');
    const frames = (await bobCall.captureReceivedFrames(users.alice.id, 20))!;
    const keyId = (await aliceCall.getMediaStats())!.keyId;
    expect(frames).toHaveLength(20);
    for (const frame of frames) expect(readFrameHeader(new Uint8Array(frame))?.keyId).toBe(keyId);
  });

  it('guild voice channel: members who join hear each other', async () => {
    world = await createVoiceWorld(['alice', 'bob']);
    const { users } = world;
    const created = (await api('POST', '/sandbox/guilds', { name: 'Pixel Café', owner_id: users.alice.id })).body;
    await api('PUT', `/sandbox/guilds/${created.guild.id}/members/${users.bob.id}`, {});
    const voice = created.channels.find((c: { type: number }) => c.type === 2);
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    const aliceCall = alice.joinVoiceChannel(created.guild.id, voice.id);
    const bobCall = bob.joinVoiceChannel(created.guild.id, voice.id);
    expect([bobCall.getGuildId(), bobCall.getChannelId()]).toEqual([created.guild.id, voice.id]);
    await connected(aliceCall, 'alice');
    await connected(bobCall, 'bob');
    await waitFor(() => aliceCall.getParticipants().includes(users.bob.id), 'alice to see bob');
    await framesFlow(aliceCall, users.bob.id, 'alice to decrypt frames from bob');
    expect(await peakOver(() => aliceCall.getAudioLevel(users.bob.id))).toBeGreaterThan(HEARD_DB);
  });

  it('DM call: two friends call each other in their DM channel and hear each other', async () => {
    world = await createVoiceWorld(['alice', 'bob']);
    const { users } = world;
    await api('PUT', `/sandbox/users/${users.alice.id}/relationships/${users.bob.id}`, { type: 1 });
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    await alice.sendUserMessage(users.bob.id, 'call me?');
    const [summary] = await bob.getUserMessageSummaries();
    const channels = await fetch('/api/v10/users/@me/channels', { headers: { Authorization: world.auth('bob') } });
    const dm = (await channels.json())[0];
    expect(summary.userId).toBe(users.alice.id);
    const aliceCall = alice.startCall(dm.id);
    const bobCall = bob.startCall(dm.id);
    await connected(aliceCall, 'alice');
    await connected(bobCall, 'bob');
    expect(bobCall.getGuildId()).toBeNull();
    await framesFlow(bobCall, users.alice.id, 'bob to decrypt alice');
    expect(await peakOver(() => bobCall.getAudioLevel(users.alice.id))).toBeGreaterThan(HEARD_DB);
    await waitFor(() => bobCall.getVoiceStateHandle(users.alice.id) !== undefined, "alice's voice state at bob");
  });

  it('muting stops the level at the receiver, and speaking stops with it; unmuting brings both back', async () => {
    world = await createVoiceWorld(['alice', 'bob']);
    const { users } = world;
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    const lobby = await alice.createOrJoinLobby('mute');
    await bob.createOrJoinLobby('mute');
    const aliceCall = alice.startCall(lobby.id);
    const bobCall = bob.startCall(lobby.id);
    await framesFlow(bobCall, users.alice.id, 'frames from alice');
    await waitFor(() => bobCall.isSpeaking(users.alice.id), 'alice speaking at bob (her voice activity)');

    aliceCall.setSelfMute(true);
    await waitFor(() => !bobCall.isSpeaking(users.alice.id), 'alice to stop speaking at bob');
    await settle();
    expect(await peakOver(() => bobCall.getAudioLevel(users.alice.id), 1500)).toBeLessThan(SILENT_DB);
    expect(bobCall.getVoiceStateHandle(users.alice.id)).toEqual({ selfMute: true, selfDeaf: false });

    aliceCall.setSelfMute(false);
    expect(await peakOver(() => bobCall.getAudioLevel(users.alice.id), 2000)).toBeGreaterThan(HEARD_DB);
    await waitFor(() => bobCall.isSpeaking(users.alice.id), 'alice speaking again');
  });

  it('speaking follows the measured level, not the join: a participant whose microphone is at volume 0 never speaks', async () => {
    world = await createVoiceWorld(['alice', 'bob']);
    const { users } = world;
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    bob.setInputVolume(0);
    const lobby = await alice.createOrJoinLobby('vad');
    await bob.createOrJoinLobby('vad');
    const aliceCall = alice.startCall(lobby.id);
    const bobCall = bob.startCall(lobby.id);
    const heardAtAlice: string[] = [];
    aliceCall.setSpeakingStatusChangedCallback((userId, speaking) => speaking && heardAtAlice.push(userId));
    await framesFlow(aliceCall, users.bob.id, 'frames from bob');
    await waitFor(() => aliceCall.isSpeaking(users.alice.id) && bobCall.isSpeaking(users.alice.id), 'alice speaking');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(heardAtAlice).toContain(users.alice.id);
    expect(heardAtAlice).not.toContain(users.bob.id);
    expect(bobCall.isSpeaking(users.bob.id)).toBe(false);
    // A threshold above the beep's peak: alice stops speaking although her microphone still beeps.
    aliceCall.setVADThreshold(false, -1);
    expect(aliceCall.getVADThreshold()).toEqual({ automatic: false, vadThreshold: -1 });
    await waitFor(() => !bobCall.isSpeaking(users.alice.id), 'alice not speaking over a -1 dB threshold', 5000);
  });

  it('participant volume and deafen act on what the speakers play, not on what arrives', async () => {
    world = await createVoiceWorld(['alice', 'bob']);
    const { users } = world;
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    const lobby = await alice.createOrJoinLobby('volume');
    await bob.createOrJoinLobby('volume');
    const aliceCall = alice.startCall(lobby.id);
    const bobCall = bob.startCall(lobby.id);
    await framesFlow(bobCall, users.alice.id, 'frames from alice');
    expect(await peakOver(() => bobCall.getOutputLevel())).toBeGreaterThan(HEARD_DB);

    bobCall.setParticipantVolume(users.alice.id, 0);
    expect(bobCall.getParticipantVolume(users.alice.id)).toBe(0);
    await settle();
    const [arriving, played] = await Promise.all([
      peakOver(() => bobCall.getAudioLevel(users.alice.id)),
      peakOver(() => bobCall.getOutputLevel()),
    ]);
    expect([arriving > HEARD_DB, played < SILENT_DB]).toEqual([true, true]);
    expect(() => bobCall.setParticipantVolume(users.alice.id, 201)).toThrow(/0 to 200/);

    bobCall.setParticipantVolume(users.alice.id, 100);
    bobCall.setSelfDeaf(true);
    await settle();
    expect(await peakOver(() => bobCall.getOutputLevel())).toBeLessThan(SILENT_DB);
    // Deafened, bob is not heard either.
    expect(await peakOver(() => aliceCall.getAudioLevel(users.bob.id), 1500)).toBeLessThan(SILENT_DB);
  });

  it('input and output devices: the fake devices are listed; switching the microphone keeps the call and its sound', async () => {
    world = await createVoiceWorld(['alice', 'bob']);
    const { users } = world;
    const alice = await world.client('alice');
    const bob = await world.client('bob');
    const lobby = await alice.createOrJoinLobby('devices');
    await bob.createOrJoinLobby('devices');
    alice.startCall(lobby.id);
    const bobCall = bob.startCall(lobby.id);
    await framesFlow(bobCall, users.alice.id, 'frames from alice');
    const inputs = await alice.getInputDevices();
    const outputs = await bob.getOutputDevices();
    expect(inputs.filter((d) => d.isDefault)).toHaveLength(1);
    const other = inputs.find((d) => !d.isDefault)!;
    await alice.setInputDevice(other.id);
    expect((await alice.getCurrentInputDevice()).id).toBe(other.id);
    await bob.setOutputDevice(outputs.find((d) => !d.isDefault)!.id);
    await expect(alice.setInputDevice('no-such-device')).rejects.toThrow(/No input device/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await peakOver(() => bobCall.getAudioLevel(users.alice.id))).toBeGreaterThan(HEARD_DB);
    expect(bobCall.getStatus()).toBe(CallStatus.Connected);
  });

  it('from 2026-03-01 (sandbox clock) a participant that cannot encrypt is refused (4017); before it, its call works unencrypted', async () => {
    world = await createVoiceWorld(['alice', 'bob']);
    const { users } = world;
    const lobbyOwner = await world.client('alice');
    const plain = await world.client('bob', { voice: { e2ee: false } });
    const lobby = await lobbyOwner.createOrJoinLobby('dated');
    await plain.createOrJoinLobby('dated');

    await api('PUT', '/sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
    const refused = plain.startCall(lobby.id);
    expect(refused.isEndToEndEncrypted()).toBe(false);
    const outcome: number[] = [];
    refused.setStatusChangedCallback((status, error, detail) => {
      if (status === CallStatus.Disconnected) outcome.push(error, detail);
    });
    await waitFor(() => refused.getStatus() === CallStatus.Disconnected, 'the refusal');
    expect(outcome).toEqual([CallError.SignalingConnectionFailed, 4017]);
    await plain.endCall(lobby.id);

    await api('PUT', '/sandbox/clock', { now: '2026-02-28T12:00:00.000Z' });
    const aliceCall = lobbyOwner.startCall(lobby.id);
    const bobCall = plain.startCall(lobby.id);
    await connected(bobCall, 'the unencrypted participant');
    await framesFlow(aliceCall, users.bob.id, 'alice to receive bob');
    const atAlice = (await aliceCall.getMediaStats())!.peers[users.bob.id];
    expect(atAlice).toMatchObject({ e2ee: false, framesDecrypted: 0 });
    expect(atAlice.framesReceivedPlain).toBeGreaterThan(0);
    expect(await peakOver(() => aliceCall.getAudioLevel(users.bob.id))).toBeGreaterThan(HEARD_DB);
  });
});
