/**
 * Voice states without a gateway connection: `GET /guilds/{guild.id}/voice-states/@me` and
 * `.../voice-states/{user.id}` answer the stored state (404 10065 when the user is not in voice).
 * The sandbox runs no voice servers, so a sandbox route puts a user in a voice channel (or takes
 * them out); every change emits VOICE_STATE_UPDATE to the guild (GUILD_VOICE_STATES intent).
 */
import type { Emit } from '../../store/write';
import { write } from '../../store/write';
import type { Principal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { VOICE_CHANNEL_TYPES } from './channel-status';
import { dbReader, loadGuildView, requireMember } from '../guilds/access';
import type { VoiceStateRecord } from '../../store/records/guilds';
import { serializeMember } from '../guilds/wire';
import { INTENTS } from '../core/intents';
import type { MemberRecord, UserRecord } from '../../store/records/core';
import { generateSecret } from '../core/secrets';
import type { GuildVoiceState } from '../../store/records/dispatches';

/** The voice state object: server mute and deafen come from the member. */
export function serializeVoiceState(state: VoiceStateRecord, member: MemberRecord, user: UserRecord): GuildVoiceState {
  return {
    guild_id: state.guild_id,
    channel_id: state.channel_id,
    user_id: state.user_id,
    member: serializeMember(member, user),
    session_id: state.session_id,
    deaf: member.deaf ?? false,
    mute: member.mute ?? false,
    self_deaf: state.self_deaf,
    self_mute: state.self_mute,
    self_stream: false,
    self_video: state.self_video,
    suppress: state.suppress,
    request_to_speak_timestamp:
      state.request_to_speak_timestamp === null ? null : new Date(state.request_to_speak_timestamp).toISOString(),
  };
}

/**
 * Emits VOICE_STATE_UPDATE for a changed voice state, to the guild's sessions with
 * GUILD_VOICE_STATES and to the user's own sessions whatever their intents. When the user left
 * voice (`left`), the event carries their last state with `channel_id: null`, as on the platform.
 */
export function emitVoiceStateUpdate(
  emit: Emit,
  state: VoiceStateRecord,
  member: MemberRecord,
  user: UserRecord,
  left = false,
): void {
  const wire = serializeVoiceState(state, member, user);
  const audience = { guild_id: state.guild_id, intent: INTENTS.GUILD_VOICE_STATES, user_ids: [state.user_id] };
  emit({ type: 'VOICE_STATE_UPDATE', data: left ? { ...wire, channel_id: null } : wire, audience });
}

/**
 * The voice state of `userId` in a guild the caller is a member of (50001 otherwise); 404
 * (10065) when that user is not connected to voice there.
 * @example await getVoiceState(ctx, principal, guildId, principal.user.id) // the @me route
 */
export async function getVoiceState(ctx: PlatformContext, principal: Principal, guildId: string, userId: string) {
  requireMember(await loadGuildView(dbReader(ctx.db), guildId, principal.user.id));
  const tx = ctx.db.read(['voice_states', 'members', 'users']);
  const [state, member, user] = await Promise.all([
    tx.store('voice_states').get([guildId, userId]),
    tx.store('members').get([guildId, userId]),
    tx.store('users').get(userId),
  ]);
  if (!state || !member || !user) throw ApiError.of('UNKNOWN_VOICE_STATE');
  return serializeVoiceState(state, member, user);
}

/**
 * Sandbox: connects a member to a voice or stage channel of the guild (or moves them), or with
 * `channelId` null disconnects them. Each change emits VOICE_STATE_UPDATE; nothing changes, and
 * nothing is emitted, when the user is already where they are asked to be.
 */
export async function putSandboxVoiceState(
  ctx: PlatformContext,
  guildId: string,
  userId: string,
  channelId: string | null,
) {
  return write(ctx, ['guilds', 'members', 'users', 'channels', 'voice_states'], async (tx, emit) => {
    if (!(await tx.store('guilds').get(guildId))) throw ApiError.of('UNKNOWN_GUILD');
    const [member, user] = await Promise.all([
      tx.store('members').get([guildId, userId]),
      tx.store('users').get(userId),
    ]);
    if (!member || !user) throw ApiError.of('UNKNOWN_MEMBER');
    const existing = await tx.store('voice_states').get([guildId, userId]);
    if (channelId === null) {
      if (!existing) return null;
      await tx.store('voice_states').delete([guildId, userId]);
      emitVoiceStateUpdate(emit, existing, member, user, true);
      return null;
    }
    const channel = await tx.store('channels').get(channelId);
    if (!channel || channel.guild_id !== guildId)
      throw ApiError.invalidForm({ channel_id: 'Unknown channel of this guild.' });
    if (!VOICE_CHANNEL_TYPES.has(channel.type)) throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    if (existing?.channel_id === channelId) return serializeVoiceState(existing, member, user);
    const state: VoiceStateRecord = existing
      ? { ...existing, channel_id: channelId }
      : {
          guild_id: guildId,
          user_id: userId,
          channel_id: channelId,
          session_id: generateSecret(16),
          self_mute: false,
          self_deaf: false,
          self_video: false,
          suppress: false,
          request_to_speak_timestamp: null,
          joined_at: ctx.clock.now(),
        };
    await tx.store('voice_states').put(state);
    emitVoiceStateUpdate(emit, state, member, user);
    return serializeVoiceState(state, member, user);
  });
}
