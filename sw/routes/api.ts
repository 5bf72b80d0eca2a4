/**
 * The versioned API (`{base_url}` = `/api/v10`, and `/api`): every resource module mounted
 * under one sub-app.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http';
import { applicationRoutes, oauth2ApplicationRoutes } from './applications';
import { channelRoutes } from './channels';
import { commandRoutes } from './commands';
import { connectionRoutes } from './connections';
import { directMessageRoutes } from './direct-messages';
import { activityInstanceRoutes } from './activity-instances';
import { emojiRoutes } from './emoji';
import { guildAdminRoutes } from './guild-admin';
import { currentUserGuildRoutes, guildRoutes } from './guilds';
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
import { rpcRoutes } from './rpc';
import { rpcActivityRoutes } from './rpc-activities';
import type { FetchLike } from '../../src/platform/oauth2/oidc';
import { userRoutes } from './users';
import { voiceStateRoutes } from './voice-states';

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
  api.route('/users', userRoutes());
  api.route('/lobbies', lobbyRoutes());
  api.route('/', moderationRoutes());
  api.route('/users/@me/guilds', currentUserGuildRoutes());
  api.route('/guilds', guildRoutes());
  api.route('/channels', channelRoutes());
  api.route('/channels', messageRoutes());
  api.route('/channels', reactionRoutes());
  api.route('/channels', bulkDeleteRoutes());
  api.route('/channels', pollRoutes());
  api.route('/guilds', messageSearchRoutes());
  api.route('/applications', applicationRoutes());
  api.route('/oauth2/applications', oauth2ApplicationRoutes());
  api.route('/applications', applicationMonetizationRoutes());
  api.route('/applications', commandRoutes());
  api.route('/skus', skuSubscriptionRoutes());
  api.route('/', inviteRoutes());
  api.route('/', voiceStateRoutes());
  api.route('/', guildAdminRoutes());
  api.route('/', emojiRoutes());
  api.route('/', activityInstanceRoutes());
  api.route('/lobbies', lobbyLinkingRoutes());
  return api;
}
