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
import type { DmVoiceState } from '../../store/records/dispatches';
import { changePrivateCall, type PrivateCallKind, type SelfFlags, serializePrivateCallState } from './private-calls';

/** The stores a DM call change reads and writes. */
export const DM_CALL_STORES = ['dm_channels', 'dm_voice_states', 'voice_tokens'] as const;

/** A DM call voice state as VOICE_STATE_UPDATE carries it; `left` gives `channel_id: null`. */
export function serializeDmVoiceState(state: DmVoiceStateRecord, left = false): DmVoiceState {
  return serializePrivateCallState(state, left ? null : state.channel_id, { dm_channel_id: state.channel_id });
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

/** DM calls as a kind of private call: only the channel's two users may join. */
const DM_CALL: PrivateCallKind<DmVoiceStateRecord> = {
  states: (tx) => tx.store('dm_voice_states'),
  callOf: (state) => state.channel_id,
  stateIn: (channelId, state) => ({ ...state, channel_id: channelId }),
  admits: async (_ctx, tx, caller, channelId) =>
    (await tx.store('dm_channels').get(channelId))?.recipient_ids.includes(caller.user_id) ?? false,
  emitState: emitDmVoiceState,
};

/**
 * Inside a write: the caller joins the call of DM channel `channelId` (or, with null, leaves
 * their DM call). Refused (nothing changes) when the channel is not one of the caller's DM
 * channels. A new join issues a voice server token.
 */
export function changeDmCall(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  caller: VoiceCaller,
  channelId: string | null,
  self: SelfFlags,
  credential: VoiceCredential,
): Promise<VoiceJoinOutcome> {
  return changePrivateCall(ctx, tx, emit, DM_CALL, caller, channelId, self, credential);
}
