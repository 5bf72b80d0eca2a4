/**
 * The voice part of modify guild member: server mute (MUTE_MEMBERS) and deafen (DEAFEN_MEMBERS)
 * of a member who is in voice, and moving them to another voice channel or disconnecting them
 * (`channel_id` null) with MOVE_MEMBERS and CONNECT in the target channel. A member who is not
 * in voice cannot be muted, deafened or moved (400 40032, as the public docs describe).
 */
import type { Emit, WriteTx } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { VOICE_CHANNEL_TYPES } from '../voice/channel-status';
import { ApiError } from '../core/errors';
import { requirePermissions, type GuildView } from './access';
import { AUDIT_LOG_EVENTS, appendAuditLogEntry } from './audit-log';
import { PERMISSIONS } from '../core/permissions';
import type { ChannelRecord, MemberRecord, UserRecord } from '../../store/records/core';
import { emitVoiceStateUpdate } from '../voice/states';

/** The voice fields of a modify guild member request (null mute / deaf means false). */
export interface VoiceChanges {
  mute?: boolean | null;
  deaf?: boolean | null;
  /** Another voice channel of the guild, or null to disconnect. */
  channel_id?: string | null;
}

/** Who is changed, and how the actor's permissions are read. */
export interface VoiceSubject {
  view: GuildView;
  /** The actor's guild permissions. */
  bits: bigint;
  member: MemberRecord;
  /** The member as it will be stored: mute and deaf are set on it here. */
  next: MemberRecord;
  user: UserRecord;
  channelPermissions(channel: ChannelRecord): bigint;
}

/**
 * Applies the voice fields inside the member write. Resolves to `emitIfConnected`, which emits
 * VOICE_STATE_UPDATE for a mute or deafen of a member still in voice (a move has emitted its own).
 */
export async function applyVoiceChanges(
  ctx: PlatformContext,
  tx: WriteTx,
  emit: Emit,
  subject: VoiceSubject,
  input: VoiceChanges,
) {
  const { view, bits, member, next, user } = subject;
  const guildId = view.guild.id;
  let state = await tx.store('voice_states').get([guildId, member.user_id]);
  let emitted = false;
  const requireInVoice = () => {
    if (!state) throw ApiError.of('USER_NOT_CONNECTED_TO_VOICE');
  };
  if (input.mute !== undefined) {
    requirePermissions(bits, PERMISSIONS.MUTE_MEMBERS);
    requireInVoice();
    next.mute = input.mute ?? false;
  }
  if (input.deaf !== undefined) {
    requirePermissions(bits, PERMISSIONS.DEAFEN_MEMBERS);
    requireInVoice();
    next.deaf = input.deaf ?? false;
  }
  if (input.channel_id !== undefined) {
    requirePermissions(bits, PERMISSIONS.MOVE_MEMBERS);
    requireInVoice();
    if (input.channel_id === null) {
      await tx.store('voice_states').delete([guildId, member.user_id]);
      emitVoiceStateUpdate(emit, state!, next, user, true);
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.MEMBER_DISCONNECT,
        user_id: view.userId,
        target_id: null,
        options: { count: '1' },
      });
      state = undefined;
      emitted = true;
    } else if (input.channel_id !== state!.channel_id) {
      const channel = await tx.store('channels').get(input.channel_id);
      if (!channel || channel.guild_id !== guildId || !VOICE_CHANNEL_TYPES.has(channel.type)) {
        throw ApiError.invalidForm({ channel_id: 'Must be a voice channel of this guild.' });
      }
      requirePermissions(subject.channelPermissions(channel), PERMISSIONS.CONNECT);
      state = { ...state!, channel_id: channel.id };
      await tx.store('voice_states').put(state);
      emitVoiceStateUpdate(emit, state, next, user);
      await appendAuditLogEntry(ctx, tx, {
        guild_id: guildId,
        action_type: AUDIT_LOG_EVENTS.MEMBER_MOVE,
        user_id: view.userId,
        target_id: null,
        options: { channel_id: channel.id, count: '1' },
      });
      emitted = true;
    }
  }
  return {
    emitIfConnected(stored: MemberRecord): void {
      const changed =
        (member.mute ?? false) !== (stored.mute ?? false) || (member.deaf ?? false) !== (stored.deaf ?? false);
      if (state && changed && !emitted) emitVoiceStateUpdate(emit, state, stored, user);
    },
  };
}
