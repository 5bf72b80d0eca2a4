/**
 * The widget's instant invite: when the widget names an invite channel, `widget.json` answers an
 * invite URL to it. The invite is made the first time it is asked for (and again once it has
 * expired or the channel changed), with INVITE_CREATE and its audit entry, as on the platform;
 * it lasts a day and is made in the guild owner's name (an invite here always has an inviter).
 */
import { write } from '../../store/write';
import type { InviteRecord } from '../../store/records/guilds';
import type { PlatformContext } from '../core/context';
import { INVITE_STORES, generateInviteCode, isInviteLive } from '../channels/invites-store';
import { storeNewInvite } from '../channels/invites';
import { txGuildSettings } from './guild-settings';

/** How long a widget invite lasts, in seconds. */
export const WIDGET_INVITE_MAX_AGE_S = 86_400;

/** Where an invite code is opened, as the widget links it. */
const INVITE_URL = 'https://discord.com/invite/';

/**
 * The widget's invite URL for `guildId`, or null when it names no invite channel.
 * @example const url = await widgetInviteUrl(ctx, guildId); // 'https://discord.com/invite/aB3dE5gH'
 */
export async function widgetInviteUrl(ctx: PlatformContext, guildId: string): Promise<string | null> {
  return write(ctx, [...INVITE_STORES, 'guild_settings'], async (tx, emit) => {
    const now = ctx.clock.now();
    const settings = await txGuildSettings(tx, guildId);
    const channelId = settings.widget.channel_id;
    const guild = await tx.store('guilds').get(guildId);
    const channel = channelId ? await tx.store('channels').get(channelId) : undefined;
    if (!guild || !channel || channel.guild_id !== guildId) return null;
    const kept = settings.widget.invite_code ? await tx.store('invites').get(settings.widget.invite_code) : undefined;
    if (kept && kept.channel_id === channel.id && isInviteLive(kept, now)) return INVITE_URL + kept.code;
    const invite: InviteRecord = {
      code: generateInviteCode(),
      guild_id: guildId,
      channel_id: channel.id,
      inviter_id: guild.owner_id,
      max_age: WIDGET_INVITE_MAX_AGE_S,
      max_uses: 0,
      uses: 0,
      temporary: false,
      expires_at: now + WIDGET_INVITE_MAX_AGE_S * 1000,
      target_user_ids: null,
      target_users_updated_at: null,
      role_ids: [],
      lobby_id: null,
      created_at: now,
    };
    await storeNewInvite(ctx, tx, emit, invite);
    await tx.store('guild_settings').put({ ...settings, widget: { ...settings.widget, invite_code: invite.code } });
    return INVITE_URL + invite.code;
  });
}
