// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { VoiceCallController, voiceCallSnapshot } from '../../../src/components/voice-call-controller';
import { type Call } from '../../../src/sdk/call';
import { CallStatus } from '../../../src/sdk/call-status';

/** A call the test sets by hand: what the controller reads of a `Call`. */
function fakeCall() {
  const state = {
    status: CallStatus.Connected as CallStatus,
    participants: ['200', '100'],
    speaking: new Set<string>(),
    levels: new Map<string, number>([['100', -23.4]]),
    selfMute: false,
    selfDeaf: false,
    others: new Map([['200', { selfMute: true, selfDeaf: false }]]),
  };
  const call = {
    getStatus: () => state.status,
    getParticipants: () => [...state.participants],
    isSpeaking: (id: string) => state.speaking.has(id),
    getAudioLevel: (id: string) => state.levels.get(id) ?? Number.NEGATIVE_INFINITY,
    getSelfMute: () => state.selfMute,
    getSelfDeaf: () => state.selfDeaf,
    getVoiceStateHandle: (id: string) => state.others.get(id),
    isEndToEndEncrypted: () => true,
  } as unknown as Call;
  return { call, state };
}

function host() {
  const controllers: ReactiveController[] = [];
  const h: ReactiveControllerHost & { updates: number; controllers: ReactiveController[] } = {
    updates: 0,
    controllers,
    addController: (c) => controllers.push(c),
    removeController: () => {},
    requestUpdate: () => void h.updates++,
    updateComplete: Promise.resolve(true),
  };
  return h;
}

afterEach(() => vi.useRealTimers());

describe('VoiceCallController: who is in a call, who speaks, how loud, muted or deafened', () => {
  it('a snapshot lists the participants in order with speaking, level (whole dB), and mute and deafen', () => {
    const { call, state } = fakeCall();
    state.speaking.add('100');
    expect(voiceCallSnapshot(call, '100')).toEqual({
      status: CallStatus.Connected,
      e2ee: true,
      participants: [
        { userId: '100', speaking: true, level: -23, selfMute: false, selfDeaf: false },
        { userId: '200', speaking: false, level: Number.NEGATIVE_INFINITY, selfMute: true, selfDeaf: false },
      ],
    });
    expect(voiceCallSnapshot(null, '100')).toEqual({ status: null, participants: [], e2ee: false });
  });

  it('asks the host to render when what it shows changes, and only then; stops with the host', () => {
    vi.useFakeTimers();
    const { call, state } = fakeCall();
    const h = host();
    const controller = new VoiceCallController(
      h,
      () => call,
      () => '100',
      100,
    );
    expect(h.controllers).toEqual([controller]);
    controller.hostConnected();
    expect(h.updates).toBe(1);
    vi.advanceTimersByTime(500);
    expect(h.updates).toBe(1);
    state.speaking.add('200');
    vi.advanceTimersByTime(100);
    expect(h.updates).toBe(2);
    expect(controller.snapshot.participants.find((p) => p.userId === '200')?.speaking).toBe(true);
    controller.hostDisconnected();
    state.selfMute = true;
    vi.advanceTimersByTime(1000);
    expect(h.updates).toBe(2);
    controller.refresh();
    expect(controller.snapshot.participants[0].selfMute).toBe(true);
  });
});
