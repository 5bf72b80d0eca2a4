/**
 * The versioned API (`{base_url}` = `/api/v10`, and `/api`): every resource module mounted
 * under one sub-app.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http';
import { applicationRoutes, oauth2ApplicationRoutes } from './applications';
import { channelRoutes } from './channels';
import { channelWebhookRoutes } from './channel-webhooks';
import { guildChannelRoutes } from './guild-channels';
import { commandRoutes } from './commands';
import { commandPermissionRoutes } from './command-permissions';
import { connectionRoutes } from './connections';
import { currentUserRoutes } from './current-user';
import { directMessageRoutes } from './direct-messages';
import { groupDmRecipientRoutes } from './group-dms';
import { activityInstanceRoutes } from './activity-instances';
import { emojiRoutes } from './emoji';
import { guildAdminRoutes } from './guild-admin';
import { guildSettingsRoutes } from './guild-settings';
import { currentUserGuildRoutes, guildRoutes } from './guilds';
import { guildBanRoutes } from './guild-bans';
import { guildMemberRoutes } from './guild-members';
import { guildRoleRoutes } from './guild-roles';
import { guildCommunityRoutes } from './guild-community';
import { inviteRoutes } from './invites';
import { lobbyRoutes } from './lobbies';
import { lobbyLinkingRoutes } from './lobby-linking';
import { messageRoutes, messageSearchRoutes } from './messages';
import { reactionRoutes } from './reactions';
import { bulkDeleteRoutes } from './bulk-delete';
import { pollRoutes } from './polls';
import { moderationRoutes } from './moderation';
import { applicationMonetizationRoutes, rpcMonetizationRoutes, skuSubscriptionRoutes } from './monetization';
import { presenceRoutes } from './presence';
import { relationshipRoutes } from './relationships';
import { roleConnectionRoutes } from './role-connections';
import { rpcRoutes } from './rpc';
import { rpcActivityRoutes } from './rpc-activities';
import { scheduledEventRoutes } from './scheduled-events';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { guildThreadRoutes, threadRoutes } from './threads';
import { userRoutes } from './users';
import { voiceStateRoutes } from './voice-states';
import { voiceRegionRoutes } from './voice-regions';

/**
 * The API routes; who may call each is the access table's (`sw/access.ts` admits the caller
 * before a route runs). `send` reaches interactions endpoints (an interaction an activity shares
 * is delivered like any other).
 */
export function apiRoutes(send: FetchLike = (request) => fetch(request)): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  api.route('/users/@me/activities', presenceRoutes());
  api.route('/rpc', rpcRoutes());
  api.route('/rpc', rpcMonetizationRoutes());
  api.route('/rpc', rpcActivityRoutes(send));
  api.route('/users/@me/connections', connectionRoutes());
  api.route('/users/@me/relationships', relationshipRoutes(false));
  api.route('/users/@me/game-relationships', relationshipRoutes(true));
  api.route('/users/@me', directMessageRoutes());
  api.route('/users/@me', currentUserRoutes());
  api.route('/users', userRoutes());
  api.route('/lobbies', lobbyRoutes());
  api.route('/', moderationRoutes());
  api.route('/users/@me/guilds', currentUserGuildRoutes());
  // Before guildRoutes: `/members/search` is not a member's id.
  api.route('/guilds', guildMemberRoutes());
  api.route('/guilds', guildRoutes());
  api.route('/guilds', guildRoleRoutes());
  api.route('/guilds', guildBanRoutes());
  api.route('/guilds', guildSettingsRoutes());
  api.route('/channels', channelRoutes());
  api.route('/channels', messageRoutes());
  api.route('/channels', threadRoutes());
  api.route('/guilds', guildThreadRoutes());
  api.route('/channels', reactionRoutes());
  api.route('/channels', bulkDeleteRoutes());
  api.route('/channels', pollRoutes());
  api.route('/channels', groupDmRecipientRoutes());
  api.route('/guilds', messageSearchRoutes());
  api.route('/applications', applicationRoutes(send));
  api.route('/oauth2/applications', oauth2ApplicationRoutes());
  api.route('/applications', applicationMonetizationRoutes());
  api.route('/applications', commandPermissionRoutes());
  api.route('/applications', commandRoutes());
  api.route('/skus', skuSubscriptionRoutes());
  api.route('/', inviteRoutes());
  api.route('/', voiceStateRoutes());
  api.route('/', guildAdminRoutes());
  api.route('/', guildCommunityRoutes());
  api.route('/', scheduledEventRoutes());
  api.route('/', voiceRegionRoutes());
  api.route('/', roleConnectionRoutes());
  api.route('/', emojiRoutes());
  api.route('/', channelWebhookRoutes());
  api.route('/', guildChannelRoutes());
  api.route('/', activityInstanceRoutes());
  api.route('/lobbies', lobbyLinkingRoutes());
  return api;
}
