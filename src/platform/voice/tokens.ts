/**
 * Voice server tokens: a join of a voice channel (or lobby call) hands the joining session a
 * random token in VOICE_SERVER_UPDATE; the store keeps only its hash, one per user and server,
 * so a later join makes the earlier token unknown. A voice connection's Identify (and Resume)
 * is checked against it: an unknown token, or one of another user or server, fails
 * authentication (4004); a token whose join no longer holds (the user left the channel, moved,
 * or joined from another gateway session) names a session that is no longer valid (4006).
 */
import type { WriteTx } from '../../store/write';
import { CHANNEL_TYPES } from '../../store/records/core';
import type { PlatformContext } from '../core/context';
import { hashSecret } from '../core/secrets';
import type { VoiceCallKind } from './rules';
import type { VoiceCaller, VoiceCredential } from './caller';

/** Who a verified voice token belongs to, and which call it joins. */
export interface VoiceIdentity {
  server_id: string;
  user_id: string;
  session_id: string;
  guild_id: string | null;
  channel_id: string;
  kind: VoiceCallKind;
  token_hash: string;
}

/** Why a voice token is refused: 4004 authentication failed, 4006 session no longer valid. */
export type VoiceTokenOutcome =
  | { ok: true; identity: VoiceIdentity }
  | { ok: false; code: 4004 | 4006; reason: string };

/** Inside a join's write: stores the hash of the token the join hands out (replacing the user's previous one for this server). */
export async function issueVoiceToken(
  tx: WriteTx,
  join: {
    server_id: string;
    guild_id: string | null;
    channel_id: string;
    caller: VoiceCaller;
    credential: VoiceCredential;
    now: number;
  },
): Promise<void> {
  await tx.store('voice_tokens').put({
    server_id: join.server_id,
    user_id: join.caller.user_id,
    application_id: join.caller.application_id,
    guild_id: join.guild_id,
    channel_id: join.channel_id,
    session_id: join.caller.session_id,
    token_hash: join.credential.hash,
    created_at: join.now,
  });
}

/**
 * Checks a voice Identify's (or Resume's) `server_id`, `user_id`, `session_id` and `token`
 * against the stored token and the voice state it was issued for.
 * @example const outcome = await verifyVoiceToken(ctx, d); if (!outcome.ok) connection.closeWith(outcome.code);
 */
export async function verifyVoiceToken(
  ctx: PlatformContext,
  claim: { server_id: string; user_id: string; session_id: string; token: string },
): Promise<VoiceTokenOutcome> {
  const hash = await hashSecret(claim.token);
  const record = await ctx.db.getFromIndex('voice_tokens', 'by_token', hash);
  if (!record || record.server_id !== claim.server_id || record.user_id !== claim.user_id) {
    return { ok: false, code: 4004, reason: 'Authentication failed.' };
  }
  const gone = {
    ok: false,
    code: 4006,
    reason: 'Session no longer valid: the voice state this token was issued for has changed.',
  } as const;
  if (record.session_id !== claim.session_id) return gone;
  let kind: VoiceCallKind = 'lobby';
  if (record.guild_id === null) {
    const tx = ctx.db.read(['lobby_voice_states', 'lobby_members', 'dm_voice_states']);
    const [lobbyState, member, dmState] = await Promise.all([
      tx.store('lobby_voice_states').get([record.application_id, record.user_id]),
      tx.store('lobby_members').get([record.channel_id, record.user_id]),
      tx.store('dm_voice_states').get([record.application_id, record.user_id]),
    ]);
    const inLobbyCall =
      lobbyState && member && lobbyState.lobby_id === record.channel_id && lobbyState.session_id === record.session_id;
    const inDmCall = dmState && dmState.channel_id === record.channel_id && dmState.session_id === record.session_id;
    if (!inLobbyCall && !inDmCall) return gone;
    if (inDmCall) kind = 'dm';
  } else {
    const tx = ctx.db.read(['voice_states', 'channels']);
    const [state, channel] = await Promise.all([
      tx.store('voice_states').get([record.guild_id, record.user_id]),
      tx.store('channels').get(record.channel_id),
    ]);
    if (!state || !channel || state.channel_id !== record.channel_id || state.session_id !== record.session_id)
      return gone;
    kind = channel.type === CHANNEL_TYPES.GUILD_STAGE_VOICE ? 'stage' : 'voice_channel';
  }
  const { server_id, user_id, session_id, guild_id, channel_id } = record;
  return { ok: true, identity: { server_id, user_id, session_id, guild_id, channel_id, kind, token_hash: hash } };
}
