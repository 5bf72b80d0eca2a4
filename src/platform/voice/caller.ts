/**
 * Who joins voice and what a join hands out: the types the join (`join.ts`), the lobby calls
 * (`lobby-calls.ts`) and the voice tokens (`tokens.ts`) share, kept apart so that none of the
 * three imports another for its types alone.
 */

/** The gateway session that sent the Voice State Update. */
export interface VoiceCaller {
  user_id: string;
  application_id: string;
  session_id: string;
  /** Whether guild events reach the session (a bot, or an OAuth2 token with `guilds`): guild voice needs it. */
  guild_events: boolean;
}

/** Opcode 4's `d`. */
export interface VoiceStateUpdateRequest {
  guild_id: string | null;
  channel_id: string | null;
  self_mute: boolean;
  self_deaf: boolean;
}

/** The token a join would hand out, made (and hashed) before the write's transaction opens. */
export interface VoiceCredential {
  token: string;
  hash: string;
}

/** What the write did: refused, a change without a new voice server, or a join with one. */
export type VoiceJoinOutcome =
  | { refused: true }
  | { joined: false }
  | { joined: true; server: { token: string; guild_id: string | null; channel_id?: string } };
