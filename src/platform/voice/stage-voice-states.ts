/**
 * Stage speakers over HTTP (public docs): Modify Current User Voice State (`PATCH
 * /guilds/{guild.id}/voice-states/@me`) and Modify User Voice State (`.../voice-states/{user.id}`).
 * Both act on a stage channel the user is connected to (another channel type is 400 50024, a
 * user not in that channel 404 10065). Suppressing yourself is always allowed; unsuppressing
 * yourself, and changing another user's `suppress`, needs MUTE_MEMBERS in the channel; asking
 * to speak needs REQUEST_TO_SPEAK and a time that is now or later (by the platform clock).
 * A change emits VOICE_STATE_UPDATE (GUILD_VOICE_STATES intent, and the user).
 */
import { write } from '../../store/write';
import type { BotPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { channelPermissions, loadGuildView, requireMember, requirePermissions, txReader } from '../guilds/access';
import { emitVoiceStateUpdate } from './states';
import { PERMISSIONS } from '../core/permissions';
import { CHANNEL_TYPES } from '../../store/records/core';
import type { VoiceStateRecord } from '../../store/records/guilds';

/** What a request may change; `request_to_speak_timestamp` (epoch ms, null to withdraw) only for oneself. */
export interface StageVoiceStateInput {
  channel_id?: string;
  suppress?: boolean;
  request_to_speak_timestamp?: number | null;
}

/**
 * Changes the stage voice state of `userId` (the caller's own when it is the caller).
 * @example await modifyStageVoiceState(ctx, bot, guildId, bot.user.id, { channel_id: stageId, suppress: false });
 */
export async function modifyStageVoiceState(
  ctx: PlatformContext,
  principal: BotPrincipal,
  guildId: string,
  userId: string,
  input: StageVoiceStateInput,
): Promise<void> {
  await write(ctx, ['guilds', 'roles', 'members', 'users', 'channels', 'voice_states'], async (tx, emit) => {
    const view = await loadGuildView(txReader(tx), guildId, principal.user.id);
    requireMember(view);
    const self = userId === principal.user.id;
    const state = await tx.store('voice_states').get([guildId, userId]);
    const channelId = input.channel_id ?? state?.channel_id;
    const channel = channelId ? await tx.store('channels').get(channelId) : undefined;
    if (channelId && (!channel || channel.guild_id !== guildId)) throw ApiError.of('UNKNOWN_CHANNEL');
    if (channel && channel.type !== CHANNEL_TYPES.GUILD_STAGE_VOICE)
      throw ApiError.of('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    if (!state || !channel || state.channel_id !== channel.id) throw ApiError.of('UNKNOWN_VOICE_STATE');
    const bits = channelPermissions(view, channel);
    const next: VoiceStateRecord = { ...state };
    if (input.suppress !== undefined) {
      if (!self || !input.suppress) requirePermissions(bits, PERMISSIONS.MUTE_MEMBERS);
      next.suppress = input.suppress;
    }
    if (input.request_to_speak_timestamp !== undefined) {
      const at = input.request_to_speak_timestamp;
      if (at !== null) {
        requirePermissions(bits, PERMISSIONS.REQUEST_TO_SPEAK);
        if (at < ctx.clock.now())
          throw ApiError.invalidForm({ request_to_speak_timestamp: 'Must be the present or a future time.' });
      }
      next.request_to_speak_timestamp = at;
    }
    if (next.suppress === state.suppress && next.request_to_speak_timestamp === state.request_to_speak_timestamp)
      return;
    const [member, user] = await Promise.all([
      tx.store('members').get([guildId, userId]),
      tx.store('users').get(userId),
    ]);
    if (!member || !user) throw ApiError.of('UNKNOWN_VOICE_STATE');
    await tx.store('voice_states').put(next);
    emitVoiceStateUpdate(emit, next, member, user);
  });
}
