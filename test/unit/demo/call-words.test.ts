// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { callEndedText, callStatusText } from '../../../demo/shell/call-words';
import { CallError, CallStatus } from '../../../src/sdk/call-status';

describe("a call's status and end, in words", () => {
  it('names every status of the call', () => {
    for (const status of Object.values(CallStatus)) expect(callStatusText(status)).toMatch(/\w/);
    expect(callStatusText(CallStatus.Connected)).toBe('Voice connected');
  });

  it('a call refused for lacking end-to-end encryption (4017) says the 2026-03-01 rule', () => {
    expect(callEndedText(CallError.SignalingConnectionFailed, 4017)).toMatch(/from 2026-03-01.*end-to-end encrypted/);
  });

  it('a close code is given with its reason; a refusal with its HTTP status', () => {
    expect(callEndedText(CallError.SignalingUnexpectedClose, 4022)).toBe(
      'The voice gateway closed the connection (4022, disconnected: call terminated).',
    );
    expect(callEndedText(CallError.SignalingUnexpectedClose, 4014)).toMatch(/^You were disconnected from the call/);
    expect(callEndedText(CallError.Forbidden, 404)).toBe('You may not join this call (the platform answered 404).');
    expect(callEndedText(CallError.JoinTimeout, 0)).toBe('The call did not connect in time.');
  });
});
