/**
 * What voice signaling stores: the voice server token each join hands out (only its hash) and
 * the voice states of private calls, a lobby's or a DM channel's (a guild's voice states live
 * in `voice_states`).
 */
import type { Snowflake } from './core';

/**
 * The voice server token of a user's latest join of a voice "server" (a guild, or a lobby for
 * lobby calls): one per user and server, so a new join (a channel change) makes the previous
 * token unknown. The token itself is never stored: `token_hash` is its SHA-256.
 */
export interface VoiceTokenRecord {
  /** The guild id, or for a lobby call the lobby id (what voice Identify names as `server_id`). */
  server_id: Snowflake;
  user_id: Snowflake;
  application_id: Snowflake;
  /** Null for a lobby call. */
  guild_id: Snowflake | null;
  /** The voice channel joined; for a lobby call the lobby id. */
  channel_id: Snowflake;
  /** The main gateway session that joined: voice Identify must name it. */
  session_id: string;
  token_hash: string;
  created_at: number;
}

/** A user in a lobby's call: at most one lobby call per user and application. */
export interface LobbyVoiceStateRecord {
  application_id: Snowflake;
  user_id: Snowflake;
  lobby_id: Snowflake;
  session_id: string;
  self_mute: boolean;
  self_deaf: boolean;
  joined_at: number;
}

/**
 * A user in a DM channel's call (a call between the channel's two users, in one game): at most
 * one per user and application, as a lobby call.
 */
export interface DmVoiceStateRecord {
  application_id: Snowflake;
  user_id: Snowflake;
  /** The DM channel: what Identify names as `server_id`. */
  channel_id: Snowflake;
  session_id: string;
  self_mute: boolean;
  self_deaf: boolean;
  joined_at: number;
}
