/**
 * Voice State Update (main gateway opcode 4) as a domain write, performed by the shared worker
 * for the session that sent it: join, move within, or leave a guild's voice channel, or a
 * private call (`guild_id: null`): a lobby's (`channel_id: <lobby_id>`, see `lobby-calls.ts`)
 * or a DM channel's (`channel_id: <dm_channel_id>`, see `dm-calls.ts`), one at a time. Each
 * change emits VOICE_STATE_UPDATE to the log in the same transaction; a join (a new channel)
 * also answers the voice server to connect to: a fresh random token (stored hashed) and the
 * same-origin endpoint {@link VOICE_SERVER_ENDPOINT}, which the gateway sends to the joining
 * session only, as VOICE_SERVER_UPDATE (never through the log: it carries the token).
 *
 * A refused join changes nothing and emits nothing, as on the platform (a user who may not
 * connect hears neither event back).
 */
import { write } from '../../store/write';
import type { PlatformContext } from '../core/context';
import { VOICE_CHANNEL_TYPES } from './channel-status';
import { channelPermissions, loadGuildView, txReader } from '../guilds/access';
import type { VoiceStateRecord } from '../../store/records/guilds';
import { INTENTS } from '../core/intents';
import { hasPermission, PERMISSIONS } from '../core/permissions';
import { generateSecret, hashSecret } from '../core/secrets';
import { changeDmCall, DM_CALL_STORES } from './dm-calls';
import { changeLobbyCall, LOBBY_CALL_STORES } from './lobby-calls';
import { emitVoiceStateUpdate } from './states';
import { issueVoiceToken } from './tokens';
import type { VoiceCaller, VoiceCredential, VoiceJoinOutcome, VoiceStateUpdateRequest } from './caller';
import type { VoiceServerUpdate } from '../../store/records/dispatches';

/** The voice server endpoint VOICE_SERVER_UPDATE names: a path of this origin, reached with `VoiceGatewaySocket`. */
export const VOICE_SERVER_ENDPOINT = '/voice';

/**
 * VOICE_SERVER_UPDATE's `d` for a join; `endpoint` is the voice gateway of the connection that
 * joined: the browser's ({@link VOICE_SERVER_ENDPOINT}) unless a server names its own URL.
 */
export function voiceServerUpdate(
  server: { token: string; guild_id: string | null; channel_id?: string },
  endpoint: string = VOICE_SERVER_ENDPOINT,
): VoiceServerUpdate {
  return {
    token: server.token,
    guild_id: server.guild_id,
    endpoint,
    ...(server.channel_id ? { channel_id: server.channel_id } : {}),
  };
}

/**
 * Applies a Voice State Update from `caller`'s gateway session.
 * @example const outcome = await updateVoiceState(ctx, caller, { guild_id: null, channel_id: lobbyId, self_mute: false, self_deaf: false });
 */
export async function updateVoiceState(
  ctx: PlatformContext,
  caller: VoiceCaller,
  d: VoiceStateUpdateRequest,
): Promise<VoiceJoinOutcome> {
  // Hashing is not an IndexedDB request: it must be done before the transaction opens.
  const token = generateSecret(32);
  const credential = { token, hash: await hashSecret(token) };
  const self = { self_mute: d.self_mute, self_deaf: d.self_deaf };
  if (d.guild_id === null) {
    return write(ctx, [...new Set([...LOBBY_CALL_STORES, ...DM_CALL_STORES])], async (tx, emit) => {
      const channelId = d.channel_id;
      const isLobby = channelId !== null && (await tx.store('lobbies').get(channelId)) !== undefined;
      const [join, other] = isLobby ? [changeLobbyCall, changeDmCall] : [changeDmCall, changeLobbyCall];
      const outcome = await join(ctx, tx, emit, caller, channelId, self, credential);
      // One private call at a time: joining one (or leaving with null) leaves the other.
      if (channelId === null || ('joined' in outcome && outcome.joined))
        await other(ctx, tx, emit, caller, null, self, credential);
      return outcome;
    });
  }
  const guildId = d.guild_id;
  return write(
    ctx,
    ['guilds', 'roles', 'members', 'users', 'channels', 'voice_states', 'voice_tokens'],
    async (tx, emit) => {
      if (!caller.guild_events) return { refused: true } as const;
      const view = await loadGuildView(txReader(tx), guildId, caller.user_id).catch(() => null);
      const user = await tx.store('users').get(caller.user_id);
      if (!view?.member || !user) return { refused: true } as const;
      const member = view.member;
      const states = tx.store('voice_states');
      const existing = await states.get([guildId, caller.user_id]);
      const emitState = (state: VoiceStateRecord, left: boolean) =>
        emitVoiceStateUpdate(emit, state, member, user, left);
      if (d.channel_id === null) {
        if (!existing) return { joined: false } as const;
        await states.delete([guildId, caller.user_id]);
        emitState(existing, true);
        return { joined: false } as const;
      }
      const channel = await tx.store('channels').get(d.channel_id);
      if (!channel || channel.guild_id !== guildId || !VOICE_CHANNEL_TYPES.has(channel.type))
        return { refused: true } as const;
      if (!hasPermission(channelPermissions(view, channel), PERMISSIONS.VIEW_CHANNEL | PERMISSIONS.CONNECT))
        return { refused: true } as const;
      if (existing?.channel_id === channel.id && existing.session_id === caller.session_id) {
        if (existing.self_mute === d.self_mute && existing.self_deaf === d.self_deaf) return { joined: false } as const;
        const changed = { ...existing, ...self };
        await states.put(changed);
        emitState(changed, false);
        return { joined: false } as const;
      }
      const state: VoiceStateRecord = {
        guild_id: guildId,
        user_id: caller.user_id,
        channel_id: channel.id,
        session_id: caller.session_id,
        ...self,
        self_video: false,
        suppress: false,
        request_to_speak_timestamp: null,
        joined_at: ctx.clock.now(),
      };
      await states.put(state);
      emitState(state, false);
      await issueVoiceToken(tx, {
        server_id: guildId,
        guild_id: guildId,
        channel_id: channel.id,
        caller,
        credential,
        now: ctx.clock.now(),
      });
      return { joined: true, server: { token, guild_id: guildId } } as const;
    },
  );
}
