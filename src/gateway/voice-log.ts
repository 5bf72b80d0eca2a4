/**
 * Which voice sessions an event of the log ends. A voice session stands on its user's voice
 * state: when the user leaves the channel (or lobby call), moves to another, joins again from
 * another gateway session, or loses the membership the call needs, the voice server disconnects
 * them (4014); when the channel or lobby itself is deleted, the call ends for everyone in it
 * (4022). Whoever wrote the change (the shared worker for opcode 4, the service worker for the
 * sandbox and the HTTP API), the log says so, so the voice gateway reads it like the gateway.
 */
import type { EventRecord } from '../store/schema';
import { VOICE_CLOSE_CODES } from './voice-protocol';
import type { VoiceSession } from './voice-session';

/** Sessions an event ends, and the close code and reason they end with. */
export interface VoiceEnding {
  ends(session: VoiceSession): boolean;
  code: number;
  reason: string;
}

type Data = Record<string, any>;

/**
 * The endings `event` causes (none for most events).
 * @example for (const ending of voiceEndingsFor(event)) for (const s of sessions) if (ending.ends(s)) end(s, ending.code);
 */
export function voiceEndingsFor(event: EventRecord): VoiceEnding[] {
  const d = (event.data ?? {}) as Data;
  switch (event.type) {
    case 'VOICE_STATE_UPDATE': {
      // A private call's state names it (lobby_id, dm_channel_id), so that a leave says which one.
      const serverId = d.guild_id ?? d.lobby_id ?? d.dm_channel_id;
      const reason =
        d.channel_id === null
          ? 'You left the voice channel.'
          : 'Your voice state changed: join with the new voice server.';
      return [
        {
          ends: (s) =>
            s.userId === d.user_id &&
            s.identity.server_id === serverId &&
            (s.channelId !== d.channel_id || s.identity.session_id !== d.session_id),
          code: VOICE_CLOSE_CODES.DISCONNECTED,
          reason,
        },
      ];
    }
    case 'LOBBY_MEMBER_REMOVE':
      return [
        {
          ends: (s) => s.identity.server_id === d.lobby_id && s.userId === d.member?.id,
          code: VOICE_CLOSE_CODES.DISCONNECTED,
          reason: 'You are no longer a member of the lobby.',
        },
      ];
    case 'GUILD_MEMBER_REMOVE':
      return [
        {
          ends: (s) => s.identity.server_id === d.guild_id && s.userId === d.user?.id,
          code: VOICE_CLOSE_CODES.DISCONNECTED,
          reason: 'You are no longer a member of the guild.',
        },
      ];
    case 'LOBBY_DELETE':
      return [
        {
          ends: (s) => s.identity.guild_id === null && s.identity.server_id === d.id,
          code: VOICE_CLOSE_CODES.CALL_TERMINATED,
          reason: 'The lobby was deleted.',
        },
      ];
    case 'CHANNEL_DELETE':
      return [
        {
          ends: (s) => s.channelId === d.id,
          code: VOICE_CLOSE_CODES.CALL_TERMINATED,
          reason: 'The voice channel was deleted.',
        },
      ];
    default:
      return [];
  }
}
