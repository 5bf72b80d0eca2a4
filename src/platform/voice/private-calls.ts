/**
 * Private calls: the calls an application's users hold outside guilds, a lobby's call and a DM
 * channel's call. Both kinds keep one voice state per user and application, addressed by a Voice
 * State Update with `guild_id: null` and the call's id as `channel_id` (left with both null), and
 * change the same way; what tells them apart (where their states are kept, who may join, who
 * hears a change) is a `PrivateCallKind`, defined in `lobby-calls.ts` and `dm-calls.ts`.
 */
import type { Emit, WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import type { VoiceCaller, VoiceCredential, VoiceJoinOutcome } from './caller';
import { issueVoiceToken } from './tokens';

/** What a user's voice state in a private call keeps, whichever kind. */
export interface PrivateCallState {
  application_id: string;
  user_id: string;
  session_id: string;
  self_mute: boolean;
  self_deaf: boolean;
  joined_at: number;
}

/** The self mute and deafen flags a Voice State Update sets. */
export type SelfFlags = { self_mute: boolean; self_deaf: boolean };

/** One kind of private call. */
export interface PrivateCallKind<S extends PrivateCallState> {
  /** The kind's voice states, keyed by `[application_id, user_id]`. */
  states(tx: WriteTx): {
    get(key: [string, string]): Promise<S | undefined>;
    put(state: S): Promise<unknown>;
    delete(key: [string, string]): Promise<unknown>;
  };
  /** The call a state is in. */
  callOf(state: S): string;
  /** A state of the kind in call `callId`, from the fields every kind keeps. */
  stateIn(callId: string, state: PrivateCallState): S;
  /** Whether `caller` may be in call `callId` (false: refused, nothing changes). */
  admits(ctx: PlatformContext, tx: WriteTx, caller: VoiceCaller, callId: string): Promise<boolean>;
  /** Tells the users who hear the call of a change; `left` when the user left it. */
  emitState(tx: WriteTx, emit: Emit, state: S, left: boolean): Promise<void>;
}

/**
 * A private call's voice state as VOICE_STATE_UPDATE carries it: no guild, the call as the
 * channel while in it (`channel_id: null` once `left`), and `call` naming the call either way.
 */
export function serializePrivateCallState<C extends object>(
  state: PrivateCallState,
  channelId: string | null,
  call: C,
) {
  return {
    guild_id: null,
    channel_id: channelId,
    ...call,
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

/**
 * Inside a write: the caller joins call `callId` of `kind` (or, with null, leaves their call of
 * that kind). A user is in at most one call of a kind per application: joining another leaves
 * the first. Joining the call they are in changes only the self flags, and issues no new token;
 * a new join issues a voice server token.
 */
export async function changePrivateCall<S extends PrivateCallState>(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  kind: PrivateCallKind<S>,
  caller: VoiceCaller,
  callId: string | null,
  self: SelfFlags,
  credential: VoiceCredential,
): Promise<VoiceJoinOutcome> {
  const states = kind.states(tx);
  const key: [string, string] = [caller.application_id, caller.user_id];
  const existing = await states.get(key);
  if (callId === null) {
    if (!existing) return { joined: false };
    await states.delete(key);
    await kind.emitState(tx, emit, existing, true);
    return { joined: false };
  }
  if (!(await kind.admits(ctx, tx, caller, callId))) return { refused: true };
  if (existing && kind.callOf(existing) === callId && existing.session_id === caller.session_id) {
    if (existing.self_mute === self.self_mute && existing.self_deaf === self.self_deaf) return { joined: false };
    const changed = { ...existing, ...self };
    await states.put(changed);
    await kind.emitState(tx, emit, changed, false);
    return { joined: false };
  }
  if (existing && kind.callOf(existing) !== callId) await kind.emitState(tx, emit, existing, true);
  const now = ctx.clock.now();
  const state = kind.stateIn(callId, {
    application_id: caller.application_id,
    user_id: caller.user_id,
    session_id: caller.session_id,
    ...self,
    joined_at: now,
  });
  await states.put(state);
  await kind.emitState(tx, emit, state, false);
  await issueVoiceToken(tx, { server_id: callId, guild_id: null, channel_id: callId, caller, credential, now });
  return { joined: true, server: { token: credential.token, guild_id: null, channel_id: callId } };
}
