/**
 * Activity invites (INVITE_USER_EMBEDDED): the user invites someone to the activity they run in
 * a guild channel. As on the platform, the invite is a channel invite whose target is the
 * application (target type EMBEDDED_APPLICATION), sent to the invitee as a direct message; only
 * the invitee may accept it, for a day. It carries the join secret the inviter's activity shows
 * (`secrets.join` set with SET_ACTIVITY, '' when none): accepting joins the invitee to the
 * activity, whose ACTIVITY_JOIN carries that secret. Invite and message are one write.
 */
import * as v from 'valibot';
import { jsonObject } from '../core/json-object';
import { snowflakeSchema } from '../core/schema-parts';
import { write } from '../../store/write';
import type { BearerPrincipal } from '../oauth2/auth';
import type { PlatformContext } from '../core/context';
import { ApiError } from '../core/errors';
import { INVITE_MAX_AGE_DEFAULT_S, RPC_INVITE_CONTENT_MAX } from '../core/limits';
import { PERMISSIONS } from '../core/permissions';
import { channelPermissions, loadGuildView, requireMember, requirePermissions, txReader } from '../guilds/access';
import type { InviteRecord } from '../../store/records/guilds';
import { storeNewInvite } from '../channels/invites';
import { INVITE_STORES, generateInviteCode } from '../channels/invites-store';
import { DM_STORES, appendUserMessage } from '../messages/direct-messages';
import { shownPresence } from '../presence/shown';

/** The link a platform invite is shared as. */
export const INVITE_LINK_BASE = 'https://discord.gg/';

/** `POST /rpc/activity-invites`: whom to invite, from which channel, with what words. */
export const ActivityInviteSchema = jsonObject({
  user_id: snowflakeSchema,
  channel_id: snowflakeSchema,
  content: v.optional(v.pipe(v.string(), v.maxLength(RPC_INVITE_CONTENT_MAX))),
});

/**
 * Invites `user_id` to the token's application running in `channel_id` (a guild channel where
 * the user may create invites, else 404 / 403 as for any invite). Resolves to the invite's code
 * and the direct message that carries it; a user who may not be messaged is 403 / 50007 and
 * nothing is stored.
 * @example const { code } = await inviteToActivity(ctx, principal, { user_id: bob.id, channel_id, content: 'Join us' });
 */
export async function inviteToActivity(
  ctx: PlatformContext,
  principal: BearerPrincipal,
  input: v.InferOutput<typeof ActivityInviteSchema>,
) {
  const inviter = principal.user;
  const applicationId = principal.application.id;
  return write(ctx, [...new Set([...INVITE_STORES, ...DM_STORES, 'presences' as const])], async (tx, emit) => {
    const now = ctx.clock.now();
    const channel = await tx.store('channels').get(input.channel_id);
    if (!channel?.guild_id) throw ApiError.of('UNKNOWN_CHANNEL');
    const view = await loadGuildView(txReader(tx), channel.guild_id, inviter.id);
    requireMember(view);
    requirePermissions(channelPermissions(view, channel), PERMISSIONS.VIEW_CHANNEL | PERMISSIONS.CREATE_INSTANT_INVITE);
    const shown = shownPresence(await tx.store('presences').get(inviter.id));
    const activity = shown.activities.find((a) => 'application_id' in a && a.application_id === applicationId);
    const invite: InviteRecord = {
      code: generateInviteCode(),
      guild_id: channel.guild_id,
      channel_id: channel.id,
      inviter_id: inviter.id,
      max_age: INVITE_MAX_AGE_DEFAULT_S,
      max_uses: 1,
      uses: 0,
      temporary: false,
      expires_at: now + INVITE_MAX_AGE_DEFAULT_S * 1000,
      target_user_ids: [input.user_id],
      target_users_updated_at: now,
      role_ids: [],
      lobby_id: null,
      target_application_id: applicationId,
      join_secret: (activity && 'secrets' in activity ? activity.secrets?.join : undefined) ?? '',
      created_at: now,
    };
    await storeNewInvite(ctx, tx, emit, invite);
    const link = `${INVITE_LINK_BASE}${invite.code}`;
    const message = await appendUserMessage(ctx, tx, emit, principal, input.user_id, {
      content: input.content ? `${input.content}\n${link}` : link,
      metadata: { invite_code: invite.code, application_id: applicationId },
    });
    return { code: invite.code, message };
  });
}
