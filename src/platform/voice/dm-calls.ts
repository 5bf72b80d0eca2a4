/**
 * DM calls: a call between the two users of a DM channel, in one game, addressed on the gateway
 * as the platform addresses private calls, by a Voice State Update with `guild_id: null` and the
 * DM channel's id (and left with both null). Only the channel's two users may join; a user is in
 * at most one DM call per application, and in one private call at a time: joining a DM call
 * leaves their lobby call, and the other way round (see `join.ts`). Every change emits
 * VOICE_STATE_UPDATE to both users' sessions of the game, with `dm_channel_id` naming the call
 * (as `lobby_id` names a lobby call's), so that a leave (`channel_id: null`) still says which
 * call it left. From 2026-03-01 DM calls are end-to-end encrypted only (spec: Limits "Calls").
 */
import type { Emit, WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import type { VoiceCaller, VoiceCredential, VoiceJoinOutcome } from './caller';
import type { DmVoiceStateRecord } from '../../store/records/voice';
import { issueVoiceToken } from './tokens';

/** The stores a DM call change reads and writes. */
export const DM_CALL_STORES = ['dm_channels', 'dm_voice_states', 'voice_tokens'] as const;

/** A DM call voice state as VOICE_STATE_UPDATE carries it; `left` gives `channel_id: null`. */
export function serializeDmVoiceState(state: DmVoiceStateRecord, left = false) {
  return {
    guild_id: null,
    channel_id: left ? null : state.channel_id,
    dm_channel_id: state.channel_id,
    user_id: state.user_id,
    session_id: state.session_id,
    deaf: false,
    mute: false,
    self_deaf: state.self_deaf,
    self_mute: state.self_mute,
    self_stream: false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

/** Emits the state to both users of its DM channel, in the game the call is in. */
export async function emitDmVoiceState(tx: WriteTx, emit: Emit, state: DmVoiceStateRecord, left: boolean) {
  const channel = await tx.store('dm_channels').get(state.channel_id);
  const user_ids = channel ? [channel.user_low, channel.user_high] : [state.user_id];
  emit({
    type: 'VOICE_STATE_UPDATE',
    data: serializeDmVoiceState(state, left),
    audience: { application_id: state.application_id, user_ids },
  });
}

/**
 * Inside a write: the caller joins the call of DM channel `channelId` (or, with null, leaves
 * their DM call). Refused (nothing changes) when the channel is not one of the caller's DM
 * channels. A new join issues a voice server token.
 */
export async function changeDmCall(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  caller: VoiceCaller,
  channelId: string | null,
  self: { self_mute: boolean; self_deaf: boolean },
  credential: VoiceCredential,
): Promise<VoiceJoinOutcome> {
  const states = tx.store('dm_voice_states');
  const existing = await states.get([caller.application_id, caller.user_id]);
  if (channelId === null) {
    if (!existing) return { joined: false };
    await states.delete([caller.application_id, caller.user_id]);
    await emitDmVoiceState(tx, emit, existing, true);
    return { joined: false };
  }
  const channel = await tx.store('dm_channels').get(channelId);
  if (!channel || !channel.recipient_ids.includes(caller.user_id)) return { refused: true };
  if (existing?.channel_id === channelId && existing.session_id === caller.session_id) {
    if (existing.self_mute === self.self_mute && existing.self_deaf === self.self_deaf) return { joined: false };
    const changed = { ...existing, ...self };
    await states.put(changed);
    await emitDmVoiceState(tx, emit, changed, false);
    return { joined: false };
  }
  if (existing && existing.channel_id !== channelId) await emitDmVoiceState(tx, emit, existing, true);
  const state: DmVoiceStateRecord = {
    application_id: caller.application_id,
    user_id: caller.user_id,
    channel_id: channelId,
    session_id: caller.session_id,
    ...self,
    joined_at: ctx.clock.now(),
  };
  await states.put(state);
  await emitDmVoiceState(tx, emit, state, false);
  await issueVoiceToken(tx, {
    server_id: channelId,
    guild_id: null,
    channel_id: channelId,
    caller,
    credential,
    now: ctx.clock.now(),
  });
  return { joined: true, server: { token: credential.token, guild_id: null, channel_id: channelId } };
}
