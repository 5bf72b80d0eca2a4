/**
 * How the platform's gateway dispatches, received by the frame's platform-client session, become
 * the RPC events an activity subscribed to. Events about other users or applications mean
 * nothing to the activity; SPEAKING_* come from the voice server instead (`RpcHost.speaking`).
 */
import { questEnrollmentEvent } from './client-commands';
import type { RpcSession } from './context';
import type { RpcUser, SubscribableEvent } from './protocol';

/** An RPC event a platform dispatch turns into, for the subscriptions of `key`. */
export interface TranslatedEvent {
  event: SubscribableEvent;
  key: string;
  data: unknown;
}

function rpcUser(user: Record<string, unknown>): RpcUser {
  return {
    id: String(user.id),
    username: String(user.username ?? ''),
    discriminator: String(user.discriminator ?? '0'),
    global_name: (user.global_name as string | null | undefined) ?? null,
    avatar: (user.avatar as string | null | undefined) ?? null,
    // The public SDK's user schema requires the key (null when the user wears no decoration).
    avatar_decoration_data: null,
    bot: user.bot === true,
    flags: typeof user.public_flags === 'number' ? user.public_flags : 0,
    premium_type: typeof user.premium_type === 'number' ? user.premium_type : null,
  };
}

/**
 * The RPC events a gateway dispatch (`type`, `data`) means for the session's user and
 * application. Events about other users or applications mean nothing to this activity.
 * SPEAKING_* come from the voice server, not the gateway: see `RpcHost.speaking`.
 */
export function translatePlatformEvent(type: string, data: unknown, session: RpcSession): TranslatedEvent[] {
  if (typeof data !== 'object' || data === null) return [];
  const d = data as Record<string, any>;
  const me = session.user.id;
  switch (type) {
    case 'USER_UPDATE':
      return d.id === me ? [{ event: 'CURRENT_USER_UPDATE', key: '', data: rpcUser(d) }] : [];
    case 'GUILD_MEMBER_UPDATE':
      return d.user?.id === me
        ? [
            {
              event: 'CURRENT_GUILD_MEMBER_UPDATE',
              key: String(d.guild_id),
              data: {
                user_id: me,
                guild_id: String(d.guild_id),
                nick: d.nick ?? null,
                avatar: d.avatar ?? null,
                avatar_decoration_data: null,
                color_string: null,
              },
            },
          ]
        : [];
    case 'ENTITLEMENT_CREATE':
      return d.user_id === me && d.application_id === session.application.id
        ? [{ event: 'ENTITLEMENT_CREATE', key: '', data: { entitlement: d } }]
        : [];
    case 'RELATIONSHIP_ADD':
    case 'RELATIONSHIP_UPDATE':
    case 'RELATIONSHIP_REMOVE':
      return d.user
        ? [
            {
              event: 'RELATIONSHIP_UPDATE',
              key: '',
              data: { type: type === 'RELATIONSHIP_REMOVE' ? 0 : Number(d.type ?? 0), user: rpcUser(d.user) },
            },
          ]
        : [];
    case 'THERMAL_STATE_UPDATE':
      return d.user_id === me
        ? [{ event: 'THERMAL_STATE_UPDATE', key: '', data: { thermal_state: d.thermal_state } }]
        : [];
    case 'QUEST_ENROLLMENT_STATUS_UPDATE': {
      if (d.user_id !== me || d.application_id !== session.application.id || !d.is_enrolled || !d.enrolled_at)
        return [];
      const data = questEnrollmentEvent(String(d.quest_id), String(d.enrolled_at));
      // Subscriptions of this quest and of every quest.
      return [String(d.quest_id), ''].map((key) => ({ event: 'QUEST_ENROLLMENT_STATUS_UPDATE' as const, key, data }));
    }
    case 'VOICE_STATE_UPDATE':
      return d.channel_id && d.user_id
        ? [
            {
              event: 'VOICE_STATE_UPDATE',
              key: String(d.channel_id),
              data: {
                voice_state: {
                  mute: !!d.mute,
                  deaf: !!d.deaf,
                  self_mute: !!d.self_mute,
                  self_deaf: !!d.self_deaf,
                  suppress: !!d.suppress,
                },
                user: rpcUser(d.member?.user ?? { id: d.user_id }),
                nick: d.member?.nick ?? d.member?.user?.username ?? '',
                volume: 100,
                mute: !!d.self_mute,
                // Not in the platform's payload: it lets an SDK tell two channels' listeners apart.
                channel_id: String(d.channel_id),
              },
            },
          ]
        : [];
    default:
      return [];
  }
}

/**
 * Guilds whose GUILD_STATUS a dispatch may change (presence or guild updates); `'*'` for every
 * guild, when the user's own presence changed (that dispatch names no guild), or a session of
 * theirs just connected (READY: the session's own coming online is in what it read, not in a
 * dispatch).
 */
export function guildStatusChanges(type: string, data: unknown): string[] {
  const d = (data ?? {}) as Record<string, unknown>;
  if (type === 'READY' || (type === 'PRESENCE_UPDATE' && d.guild_id === undefined)) return ['*'];
  if (
    (type === 'PRESENCE_UPDATE' || type === 'GUILD_MEMBER_ADD' || type === 'GUILD_MEMBER_REMOVE') &&
    typeof d.guild_id === 'string'
  )
    return [d.guild_id];
  if (type === 'GUILD_UPDATE' && typeof d.id === 'string') return [d.id];
  return [];
}
