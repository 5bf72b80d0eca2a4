/**
 * A call's status and the reason it ended, in the words the demo shows: the game SDK's
 * `CallStatus` and `CallError` with its detail (a voice gateway close code, or an HTTP status).
 */
import { VOICE_CLOSE_CODES, VOICE_CLOSE_REASONS, type VoiceCloseCode } from '../../src/gateway/voice-protocol';
import { CallError, CallStatus } from '../../src/sdk/call-status';

const STATUS_TEXT: Record<CallStatus, string> = {
  [CallStatus.Disconnected]: 'Disconnected',
  [CallStatus.Joining]: 'Joining…',
  [CallStatus.Connecting]: 'Connecting…',
  [CallStatus.SignalingConnected]: 'Connecting…',
  [CallStatus.Connected]: 'Voice connected',
  [CallStatus.Reconnecting]: 'Reconnecting…',
  [CallStatus.Disconnecting]: 'Leaving…',
};

/**
 * The status in words.
 * @example callStatusText(CallStatus.Connected) // 'Voice connected'
 */
export function callStatusText(status: CallStatus): string {
  return STATUS_TEXT[status];
}

/** A voice gateway close code with the reason it stands for. */
function closeCode(code: number): string {
  const reason = VOICE_CLOSE_REASONS[code as VoiceCloseCode];
  return reason ? `${code}, ${reason.replace(/\.$/, '').toLowerCase()}` : String(code);
}

/**
 * Why a call ended when nobody asked it to, in words.
 * @example callEndedText(CallError.SignalingConnectionFailed, 4017)
 */
export function callEndedText(error: CallError, detail: number): string {
  switch (error) {
    case CallError.SignalingConnectionFailed:
      if (detail === VOICE_CLOSE_CODES.E2EE_REQUIRED)
        return 'The voice gateway refused the call: from 2026-03-01 (by the sandbox clock) only end-to-end encrypted calls are allowed, and this client does not encrypt audio frames.';
      return detail
        ? `The voice gateway closed the connection (${closeCode(detail)}).`
        : 'The voice gateway could not be reached, or the gateway connection the call stood on ended.';
    case CallError.SignalingUnexpectedClose:
      if (detail === VOICE_CLOSE_CODES.DISCONNECTED)
        return 'You were disconnected from the call: you joined another one (in another tab, perhaps), or were moved out of it.';
      return `The voice gateway closed the connection (${closeCode(detail)}).`;
    case CallError.VoiceConnectionFailed:
      return 'The voice server could not be joined.';
    case CallError.JoinTimeout:
      return 'The call did not connect in time.';
    case CallError.Forbidden:
      return `You may not join this call (the platform answered ${detail || 'with a refusal'}).`;
    default:
      return 'The call ended.';
  }
}
